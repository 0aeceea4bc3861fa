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

// TestFastReplace: a write into a plain folder goes in one resolution of
// the folder and keeps the file's permissions; a folder that is missing or
// reached through a link is left to the general path with nothing
// changed; a rename that fails leaves no temporary file.
func TestFastReplace(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs", "real", "a.md.d"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "real", "a.md"), []byte("# A\n"), 0o600))
	require.NoError(t, os.Symlink("real", filepath.Join(root, "docs", "linked")))
	ws, err := Open(root)
	require.NoError(t, err)
	defer ws.Close()
	write := func(name, data string) (bool, error) {
		info, _ := os.Lstat(filepath.Join(root, filepath.FromSlash(name)))
		return ws.fastReplace(name, lockedTempName(name), []byte(data), info)
	}

	ok, err := write("docs/real/a.md", "# A, again\n")
	require.NoError(t, err)
	assert.True(t, ok)
	got, err := os.ReadFile(filepath.Join(root, "docs", "real", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "# A, again\n", string(got))
	info, err := os.Stat(filepath.Join(root, "docs", "real", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	ok, err = write("top.md", "# Top\n")
	require.NoError(t, err)
	assert.True(t, ok, "a file at the root")
	assert.FileExists(t, filepath.Join(root, "top.md"))

	for _, name := range []string{"docs/linked/a.md", "docs/new/b.md", "../x.md"} {
		ok, err := write(name, "# X\n")
		assert.NoError(t, err, name)
		assert.False(t, ok, "%s goes the general way", name)
	}
	assert.NoDirExists(t, filepath.Join(root, "docs", "new"))
	got, err = os.ReadFile(filepath.Join(root, "docs", "real", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "# A, again\n", string(got), "nothing was written through the link")

	ok, err = write("docs/real/a.md.d", "# Not a folder\n")
	assert.True(t, ok)
	assert.Error(t, err, "a folder is not replaced by a file")
	assert.DirExists(t, filepath.Join(root, "docs", "real", "a.md.d"))
	assert.Empty(t, tempFiles(t, root))
}
