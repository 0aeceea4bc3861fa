package workspace

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/taskdoc"
)

// A symbolic link between folders of the root gives one file two names.
// Both names must take the same lock: otherwise an update through one name
// runs while another holds the lock through the other, and one of the two
// updates is lost.
func TestLinkedFoldersShareOneLock(t *testing.T) {
	tests := []struct {
		name         string
		dir, link    string // a real folder and a link to it
		target       string // the link's text
		held, update string // the name locked, and another spelling of it
	}{
		{"docs folder", "docs/real", "docs/alias", "real", "docs/real/x.md", "docs/alias/x.md"},
		{"linked name locked", "docs/real", "docs/alias", "real", "docs/alias/x.md", "docs/real/x.md"},
		{"coordinator into docs", "docs/coord", "coordinator", "docs/coord", "coordinator/active.md", "docs/coord/active.md"},
		{"missing subfolder", "docs/real", "docs/alias", "real", "docs/real/new/x.md", "docs/alias/new/x.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, dir := newWorkspace(t)
			require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.FromSlash(tt.dir)), 0o755))
			require.NoError(t, os.Symlink(tt.target, filepath.Join(dir, filepath.FromSlash(tt.link))))
			other, err := Open(dir)
			require.NoError(t, err)
			defer other.Close()

			err = ws.Lock(context.Background(), []string{tt.held}, func(*Tx) error {
				ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
				defer cancel()
				_, err := other.Update(ctx, tt.update, func([]byte, bool) ([]byte, error) {
					return []byte("# slipped in\n"), nil
				})
				assert.ErrorIs(t, err, context.DeadlineExceeded, "the update ran while the file was locked")
				return nil
			})
			require.NoError(t, err)
			_, err = os.Stat(filepath.Join(dir, filepath.FromSlash(tt.held)))
			assert.ErrorIs(t, err, os.ErrNotExist)
		})
	}
}

// Locking two spellings of one file in one call takes its lock once rather
// than waiting for itself, and two callers that spell the same pair of files
// differently lock them in the same order.
func TestLockTwoSpellingsOfOneFile(t *testing.T) {
	ws, dir := newWorkspace(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "docs", "real"), 0o755))
	require.NoError(t, os.Symlink("real", filepath.Join(dir, "docs", "alias")))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := ws.Lock(ctx, []string{"docs/real/x.md", "docs/alias/x.md"}, func(tx *Tx) error {
		return tx.Write("docs/alias/x.md", []byte("# X\n"))
	})
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(dir, "docs", "real", "x.md"))
	require.NoError(t, err)
	assert.Equal(t, "# X\n", string(got))

	keys, err := ws.lockNames([]string{"docs/zz.md", "docs/alias/x.md"})
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/real/x.md", "docs/zz.md"}, keys)
}

// A folder linked into the lock directory cannot be used to replace lock
// files.
func TestLinkIntoLockDirectoryRefused(t *testing.T) {
	ws, dir := newWorkspace(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".taskmd", "locks"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "docs"), 0o755))
	require.NoError(t, os.Symlink("../.taskmd/locks", filepath.Join(dir, "docs", "locks")))
	_, err := ws.Update(context.Background(), "docs/locks/x.md", func([]byte, bool) ([]byte, error) {
		return []byte("# X\n"), nil
	})
	require.Error(t, err)
	assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
	_, err = os.Stat(filepath.Join(dir, ".taskmd", "locks", "x.md"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// The lock directory swapped for a link to a folder outside the root after
// the workspace first used it: the next lock must not create its lock file
// out there.
func TestLockDirectorySwappedForLinkLater(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(root, 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	ws, err := Open(root)
	require.NoError(t, err)
	defer ws.Close()
	write := func(name string) error {
		_, err := ws.Update(context.Background(), name, func([]byte, bool) ([]byte, error) {
			return []byte("# A\n"), nil
		})
		return err
	}
	require.NoError(t, write("docs/a.md"))

	locks := filepath.Join(root, ".taskmd", "locks")
	require.NoError(t, os.Rename(locks, filepath.Join(root, ".taskmd", "old")))
	require.NoError(t, os.Symlink(outside, locks))
	assert.Error(t, write("docs/b.md"))
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was created outside the root")
	_, err = os.Stat(filepath.Join(root, "docs", "b.md"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// Workspace values opened on one root spelled differently (trailing slash,
// relative, through a link) share the in-process lock of every name, and
// exclude each other.
func TestRootSpellingsShareLocks(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	require.NoError(t, os.MkdirAll(root, 0o755))
	require.NoError(t, os.Symlink(root, filepath.Join(base, "link")))
	t.Chdir(base)
	spellings := []string{root, root + "/", "root", "./root/../root", filepath.Join(base, "link"), "link/"}
	var all []*Workspace
	for _, s := range spellings {
		ws, err := Open(s)
		require.NoError(t, err, s)
		defer ws.Close()
		all = append(all, ws)
	}
	for i, ws := range all {
		assert.Equal(t, all[0].lockKey, ws.lockKey, spellings[i])
	}
	err := all[0].Lock(context.Background(), []string{"docs/a.md"}, func(*Tx) error {
		for i, ws := range all[1:] {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			_, err := ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A\n"), nil })
			cancel()
			assert.ErrorIs(t, err, context.DeadlineExceeded, spellings[i+1])
		}
		return nil
	})
	require.NoError(t, err)
	for _, ws := range all {
		_, err := ws.Update(context.Background(), "docs/a.md", func(cur []byte, _ bool) ([]byte, error) {
			return append(cur, "x"...), nil
		})
		require.NoError(t, err)
	}
	got, err := os.ReadFile(filepath.Join(root, "docs", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "xxxxxx", string(got))
}

// Where the file system ignores case, "docs/API/Auth.md" and
// "docs/api/auth.md" are one file, so they take one lock everywhere; the
// lock directory is reserved in any case.
func TestLockIgnoresCase(t *testing.T) {
	ws, _ := newWorkspace(t)
	err := ws.Lock(context.Background(), []string{"docs/API/Auth.md"}, func(*Tx) error {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		_, err := ws.Update(ctx, "docs/api/auth.md", func([]byte, bool) ([]byte, error) { return []byte("# A\n"), nil })
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		return nil
	})
	require.NoError(t, err)
	for _, name := range []string{".TASKMD/locks/x.md", ".taskmd/LOCKS", ".Taskmd"} {
		_, err := ws.Update(context.Background(), name, func([]byte, bool) ([]byte, error) { return []byte("x"), nil })
		assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err), name)
	}
}
