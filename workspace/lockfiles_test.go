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

// TestNoLockFileForMissingNames: looking up names that do not exist, under
// a lock or not, leaves no lock file behind; a name that exists keeps its
// lock file until it is removed.
func TestNoLockFileForMissingNames(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	keep := func([]byte, bool) ([]byte, error) { return nil, nil }

	for i := range 20 {
		name := fmt.Sprintf("docs/missing-%d.md", i)
		_, _, err := ws.Read(ctx, name)
		require.Error(t, err)
		_, err = ws.Update(ctx, name, keep)
		require.NoError(t, err, "an update that writes nothing")
		_, err = ws.UpdateIf(ctx, name, "0123", keep)
		require.Error(t, err, "a version for a file that does not exist")
		require.NoError(t, ws.Lock(ctx, []string{name, "docs/also-missing.md"}, func(tx *Tx) error {
			exists, err := tx.Exists(name)
			require.False(t, exists)
			return err
		}))
	}
	assert.Empty(t, lockFiles(t, dir), "lookups of missing names")

	_, err := ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A\n"), nil })
	require.NoError(t, err)
	assert.Equal(t, []string{"docs%2Fa.md.lock"}, lockFiles(t, dir), "a created file keeps its lock file")
	_, err = ws.Update(ctx, "docs/a.md", keep)
	require.NoError(t, err)
	assert.Equal(t, []string{"docs%2Fa.md.lock"}, lockFiles(t, dir))

	require.NoError(t, ws.Lock(ctx, []string{"docs/a.md"}, func(tx *Tx) error { return tx.Remove("docs/a.md") }))
	assert.Empty(t, lockFiles(t, dir), "a removed file's lock file goes with it")
}

// TestCreatorsExcludeEachOther runs processes that lock one name and, each
// time, create the file, remove it or only look, so that its lock file is
// removed and made again all the time. Inside the lock each one creates a
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
	_, err := os.Stat(filepath.Join(dir, flipName))
	if err == nil {
		assert.Equal(t, []string{"docs%2Fflip.md.lock"}, lockFiles(t, dir))
	} else {
		assert.Empty(t, lockFiles(t, dir))
	}
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
