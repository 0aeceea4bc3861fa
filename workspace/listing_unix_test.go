//go:build unix

package workspace_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/workspace"
)

// TestFSListsAsTheRootDoes: every entry of a folder (a file, a folder, a
// link, a named pipe) is listed with the name, type and information an
// os.Root's own listing gives, in the same order; nothing outside the root
// is reached.
func TestFSListsAsTheRootDoes(t *testing.T) {
	root := t.TempDir()
	filetest.Write(t, root, "docs/z.md", "# Z\n")
	filetest.Write(t, root, "docs/sub/a.md", "# A\n")
	require.NoError(t, os.Symlink("z.md", filepath.Join(root, "docs", "link.md")))
	require.NoError(t, os.Symlink(t.TempDir(), filepath.Join(root, "docs", "out")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "docs", "pipe.md"), 0o644))
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	r, err := os.OpenRoot(root)
	require.NoError(t, err)
	defer r.Close()

	got, err := fs.ReadDir(ws.FS(), "docs")
	require.NoError(t, err)
	want, err := fs.ReadDir(r.FS(), "docs")
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].Name(), got[i].Name())
		assert.Equal(t, want[i].Type(), got[i].Type(), want[i].Name())
		assert.Equal(t, want[i].IsDir(), got[i].IsDir(), want[i].Name())
		wi, err := want[i].Info()
		require.NoError(t, err)
		gi, err := got[i].Info()
		require.NoError(t, err)
		assert.Equal(t, wi.Mode(), gi.Mode(), want[i].Name())
		assert.Equal(t, wi.Size(), gi.Size(), want[i].Name())
	}

	_, err = fs.ReadDir(ws.FS(), "docs/out")
	assert.Error(t, err, "a link out of the root is not followed")
	_, err = fs.ReadDir(ws.FS(), "..")
	assert.True(t, errors.Is(err, fs.ErrInvalid), "%v", err)
	_, err = fs.ReadDir(ws.FS(), "docs/missing")
	assert.True(t, errors.Is(err, fs.ErrNotExist), "%v", err)
}

// TestFSKeepsLinks: a link is listed, Lstat and ReadLink report it (the
// standard library's checks of an fs.FS pass with links in it), and only
// Stat and Open follow it, inside the root.
func TestFSKeepsLinks(t *testing.T) {
	root := t.TempDir()
	filetest.Write(t, root, "docs/a.md", "# A\n")
	require.NoError(t, os.Symlink("a.md", filepath.Join(root, "docs", "l.md")))
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	require.NoError(t, fstest.TestFS(ws.FS(), "docs/a.md", "docs/l.md"))

	info, err := fs.Lstat(ws.FS(), "docs/l.md")
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, info.Mode().Type())
	target, err := fs.ReadLink(ws.FS(), "docs/l.md")
	require.NoError(t, err)
	assert.Equal(t, "a.md", target)
	info, err = fs.Stat(ws.FS(), "docs/l.md")
	require.NoError(t, err)
	assert.True(t, info.Mode().IsRegular())
}
