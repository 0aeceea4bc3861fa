package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockFiles lists the lock directory: the names ever locked that still
// have a lock file.
func lockFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(lockDir)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestLockFilesStay: a lock file is never removed, not even when its name
// does not exist: a holder removing it would race every process that
// opened it before the removal (on overlay and network file systems a
// removed open file still has a name, and processes of older versions do
// not look again), so the price of one empty file per name ever locked is
// paid instead.
func TestLockFilesStay(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	_, err := ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A\n"), nil })
	require.NoError(t, err)
	require.NoError(t, ws.Lock(ctx, []string{"docs/a.md"}, func(tx *Tx) error { return tx.Remove("docs/a.md") }))
	assert.Equal(t, []string{"docs%2Fa.md.lock"}, lockFiles(t, dir))
}

// TestLockDirMovedAway: after .taskmd is moved away under an open
// workspace, the workspace makes the lock directory again and locks on.
func TestLockDirMovedAway(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	put := func(data string) func([]byte, bool) ([]byte, error) {
		return func([]byte, bool) ([]byte, error) { return []byte(data), nil }
	}
	_, err := ws.Update(ctx, "a.md", put("# A\n"))
	require.NoError(t, err)
	require.NoError(t, os.Rename(filepath.Join(dir, StateDir), filepath.Join(dir, "trash")))
	var last error
	for range 3 {
		_, last = ws.Update(ctx, "b.md", put("# B\n"))
	}
	assert.NoError(t, last, "the workspace recovers once the lock directory is made again")
}

// TestCreatorsExcludeEachOther runs processes that lock one name and, each
// time, create the file, remove it or only look. Inside the lock each one creates a
// marker file exclusively: a second holder at the same moment fails to.
func TestCreatorsExcludeEachOther(t *testing.T) {
	const processes, rounds = 4, 150
	_, dir := newWorkspace(t)
	var wg sync.WaitGroup
	for i := range processes {
		cmd := helper(t, "flip", dir, i, rounds, processes, 0)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		require.NoError(t, cmd.Start())
		wg.Go(func() { assert.NoError(t, cmd.Wait(), "process %d", i) })
	}
	wg.Wait()
	assert.NoFileExists(t, filepath.Join(dir, "inside"))
	assert.Equal(t, []string{"docs%2Fflip.md.lock"}, lockFiles(t, dir))
}

const flipName = "docs/flip.md"

// runFlip is the body of a "flip" process: count critical sections on
// flipName, which it creates when missing, removes when there, or only
// looks at every third time.
func runFlip(ws *Workspace, count int) error {
	marker := filepath.Join(ws.Root(), "inside")
	for i := range count {
		err := ws.Lock(context.Background(), []string{flipName}, func(tx *Tx) error {
			f, err := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			if err != nil {
				return fmt.Errorf("round %d: another process holds the lock too: %w", i, err)
			}
			f.Close()
			exists, err := tx.Exists(flipName)
			switch {
			case err != nil:
			case i%3 == 2:
			case exists:
				err = tx.Remove(flipName)
			default:
				err = tx.Create(flipName, []byte("# Flip\n"))
			}
			if rerr := os.Remove(marker); err == nil {
				err = rerr
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
