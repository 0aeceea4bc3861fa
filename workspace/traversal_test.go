package workspace

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestTraversalIsRefused tries every way out of the root with every
// operation and checks that each is refused with the expected code and that
// nothing outside the root was read, written or created.
func TestTraversalIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	ws, base, links := traversalFixture(t)

	const (
		outsideRoot = taskdoc.CodeOutsideRoot
		symlink     = taskdoc.CodeSymlink
	)
	tests := []struct {
		name string
		code taskdoc.Code // of Read, Update and Tx.Write
	}{
		{"../x.md", outsideRoot},
		{"/etc/passwd", outsideRoot},
		{"a/../../x.md", outsideRoot},
		{"docs/../../x.md", outsideRoot},
		{"..", outsideRoot},
		{"docs\\..\\..\\x.md", outsideRoot},
		{"docs/x\x00.md", outsideRoot},
		{"docs/file-link.md", symlink},
		{"docs/abs-link.md", symlink},
		{"docs/inside.md", symlink},
		{"docs/dir-link/secret.md", outsideRoot},
		{"docs/dir-link/new.md", outsideRoot},
		{"docs/abs-dir/secret.md", outsideRoot},
		{"docs/abs-dir/new.md", outsideRoot},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertRefused(t, ws, tt.name, tt.code) })
	}
	assertNothingEscaped(t, ws.Root(), base, links)
}

// assertRefused tries every operation on name and expects code (Lock itself
// may succeed, since it only touches the lock file inside the root).
func assertRefused(t *testing.T, ws *Workspace, name string, code taskdoc.Code) {
	ctx := context.Background()
	pwn := func([]byte, bool) ([]byte, error) {
		t.Error("update function ran on a refused path")
		return []byte("# pwned\n"), nil
	}
	_, _, err := ws.Read(ctx, name)
	assert.Equal(t, code, taskdoc.CodeOf(err), "Read: %v", err)
	_, err = ws.Exists(ctx, name)
	assert.Equal(t, code, taskdoc.CodeOf(err), "Exists: %v", err)
	_, err = ws.Update(ctx, name, pwn)
	assert.Equal(t, code, taskdoc.CodeOf(err), "Update: %v", err)
	_, err = ws.UpdateIf(ctx, name, "", pwn)
	assert.Equal(t, code, taskdoc.CodeOf(err), "UpdateIf: %v", err)
	err = ws.Lock(ctx, []string{name}, func(tx *Tx) error {
		assert.Equal(t, code, taskdoc.CodeOf(tx.Write(name, []byte("# pwned\n"))), "Tx.Write")
		assert.Equal(t, code, taskdoc.CodeOf(tx.Remove(name)), "Tx.Remove")
		assert.Error(t, tx.Create(name, []byte("# pwned\n")), "Tx.Create")
		return nil
	})
	if err != nil {
		assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err), "Lock: %v", err)
	}
	names, err := ws.List(ctx, name)
	if err == nil {
		assert.Empty(t, names, "List")
	}
}

// assertNothingEscaped checks that the file outside is untouched, nothing
// was created outside or beside the root, and every link is still a link.
func assertNothingEscaped(t *testing.T, root, base string, links map[string]string) {
	outside := filepath.Join(base, "outside")
	data, err := os.ReadFile(filepath.Join(outside, "secret.md"))
	require.NoError(t, err)
	assert.Equal(t, "# Secret\n", string(data), "the file outside is untouched")
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was created outside the root")
	entries, err = os.ReadDir(base)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "nothing was created beside the root")
	data, err = os.ReadFile(filepath.Join(root, "docs", "real.md"))
	require.NoError(t, err)
	assert.Equal(t, "# Real\n", string(data), "a link's target inside the root is untouched")
	for name := range links {
		info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name)))
		require.NoError(t, err)
		assert.Equal(t, os.ModeSymlink, info.Mode().Type(), "%s is still a link", name)
	}
	assert.Empty(t, tempFiles(t, root))
}

// traversalFixture makes base/root, the workspace, with links leading out
// of it to base/outside/secret.md, and returns the workspace, base and the
// links (name in the root -> target).
func traversalFixture(t *testing.T) (*Workspace, string, map[string]string) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	secret := filepath.Join(outside, "secret.md")
	writeFile(t, outside, "secret.md", []byte("# Secret\n"))
	writeFile(t, root, "docs/real.md", []byte("# Real\n"))
	links := map[string]string{
		"docs/file-link.md": "../../outside/secret.md", // a file outside
		"docs/dir-link":     "../../outside",           // a directory leading outside
		"docs/abs-link.md":  secret,                    // absolute, to a file outside
		"docs/abs-dir":      outside,                   // absolute, to a directory outside
		"docs/inside.md":    "real.md",                 // a symlinked document inside
	}
	for name, target := range links {
		require.NoError(t, os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))))
	}
	ws, err := Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws, base, links
}

// TestLockDirectoryLinkedOutsideIsRefused covers the lock files, the one
// thing opened by path rather than through the root.
func TestLockDirectoryLinkedOutsideIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(root, 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, ".taskmd")))
	ws, err := Open(root)
	require.NoError(t, err)
	defer ws.Close()

	_, err = ws.Update(context.Background(), "docs/a.md", func([]byte, bool) ([]byte, error) {
		t.Error("update function ran without a lock inside the root")
		return []byte("# A\n"), nil
	})
	assert.Error(t, err)
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was created outside the root")
}
