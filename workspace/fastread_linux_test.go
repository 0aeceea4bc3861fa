//go:build linux

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFastRead: a plain file is read in one resolution; anything the
// general path must judge (a link on the path, a pipe) is left to it; a
// missing file is reported missing.
func TestFastRead(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs", "real"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "real", "a.md"), []byte("# A\n"), 0o644))
	require.NoError(t, os.Symlink("real", filepath.Join(root, "docs", "linked")))
	require.NoError(t, os.Symlink("a.md", filepath.Join(root, "docs", "real", "b.md")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "docs", "pipe.md"), 0o644))
	ws, err := Open(root)
	require.NoError(t, err)
	defer ws.Close()

	data, info, ok, err := ws.fastRead("docs/real/a.md")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "# A\n", string(data))
	assert.EqualValues(t, 4, info.Size())

	data, _, ok, err = ws.fastRead("docs/real/missing.md")
	assert.NoError(t, err)
	assert.True(t, ok)
	assert.Nil(t, data)

	for _, name := range []string{"docs/linked/a.md", "docs/real/b.md", "docs/pipe.md", "../x.md"} {
		_, _, ok, err := ws.fastRead(name)
		assert.NoError(t, err, name)
		assert.False(t, ok, "%s goes the general way", name)
	}
	// The general way still reads through a folder link inside the root
	// and refuses a file link.
	got, err := ws.ReadData(context.Background(), "docs/linked/a.md")
	require.NoError(t, err)
	assert.Equal(t, "# A\n", string(got))
	_, err = ws.ReadData(context.Background(), "docs/real/b.md")
	assert.Error(t, err)
}
