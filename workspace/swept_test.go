package workspace

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/taskdoc"
)

// onPublish sets hooks.BeforePublish for the test.
func onPublish(t *testing.T, fn func(tmp string)) {
	t.Helper()
	t.Cleanup(func() { hooks.BeforePublish = func(string) {} })
	hooks.BeforePublish = fn
}

// A crash's leftover of a name goes with the next removal or write of the
// name under its lock, whatever the folder's sweep: here the folder was
// swept a moment before, so no sweep is due. The crash is a panic between
// the temporary file's write and its publication: nothing after it runs.
func TestLeftoverGoesWithTheNextLockedOperation(t *testing.T) {
	for _, general := range []bool{false, true} {
		t.Run(map[bool]string{false: "fast", true: "general"}[general], func(t *testing.T) {
			leftoverGoesWithTheNextLockedOperation(t, general)
		})
	}
}

func leftoverGoesWithTheNextLockedOperation(t *testing.T, general bool) {
	ctx := context.Background()
	ws, root := newWorkspace(t)
	if general {
		withoutFastPaths(ws)
	}
	clock := time.Now()
	ws.now = func() time.Time { return clock }
	write := func(name, text string) error {
		_, err := ws.Update(ctx, name, func([]byte, bool) ([]byte, error) { return []byte(text), nil })
		return err
	}
	crash := func(op func() error) {
		t.Helper()
		onPublish(t, func(string) { panic("crash") })
		assert.PanicsWithValue(t, "crash", func() { _ = op() })
		hooks.BeforePublish = func(string) {}
		require.Len(t, tempFiles(t, root), 1, "the crash left its temporary file")
	}
	require.NoError(t, write("archived/other.md", "# Other\n"), "sweeps the folder: none is due for a minute")

	// A locked write crashed; the removal of its name removes its file.
	require.NoError(t, write("archived/a.md", "# A\n"))
	crash(func() error { return write("archived/a.md", "# A, crashed\n") })
	require.NoError(t, ws.Lock(ctx, []string{"archived/a.md"}, func(tx *Tx) error { return tx.Remove("archived/a.md") }))
	assert.Empty(t, tempFiles(t, root), "the removal took the leftover")

	// A Create crashed; the next write of its name removes its file.
	crash(func() error {
		return ws.Lock(ctx, nil, func(tx *Tx) error { return tx.Create("archived/b.md", []byte("# B\n")) })
	})
	require.NoError(t, write("archived/B.md", "# B, written\n"), "a name differing in case only shares the lock and the temporary file")
	assert.Empty(t, tempFiles(t, root), "the write took the Create's leftover")

	// And a Create's leftover goes with the removal of its name too.
	crash(func() error {
		return ws.Lock(ctx, nil, func(tx *Tx) error { return tx.Create("archived/c.md", []byte("# C\n")) })
	})
	require.NoError(t, os.WriteFile(filepath.Join(root, "archived", "c.md"), []byte("# C, by hand\n"), 0o644))
	require.NoError(t, ws.Lock(ctx, []string{"archived/c.md"}, func(tx *Tx) error { return tx.Remove("archived/c.md") }))
	assert.Empty(t, tempFiles(t, root), "the removal took the Create's leftover")
}

// A writer stopped past the minute of grace (a suspended process) finds
// that a sweep in another process took its temporary file for a crash's
// leftover and removed it: it writes it again and succeeds, as it still
// holds the lock. A writer whose file is removed every time gives up with
// IO_ERROR, changing nothing.
func TestWriterSuspendedPastTheGrace(t *testing.T) {
	for _, general := range []bool{false, true} {
		t.Run(map[bool]string{false: "fast", true: "general"}[general], func(t *testing.T) {
			writerSuspendedPastTheGrace(t, general)
		})
	}
}

func writerSuspendedPastTheGrace(t *testing.T, general bool) {
	ctx := context.Background()
	ws, root := newWorkspace(t)
	if general {
		withoutFastPaths(ws)
	}
	other, err := Open(root)
	require.NoError(t, err)
	defer other.Close()
	writeFile(t, root, "docs/a.md", []byte("# A\n"))
	writeFile(t, root, "archived/x.md", []byte("# X\n"))

	suspensions, suspend := 0, 1
	onPublish(t, func(tmp string) {
		if suspensions == suspend {
			return
		}
		suspensions++
		long := time.Now().Add(-2 * sweepGrace)
		require.NoError(t, os.Chtimes(filepath.Join(root, filepath.FromSlash(tmp)), long, long), "the minute passes")
		removed, err := other.Sweep(ctx, ".")
		require.NoError(t, err)
		require.Equal(t, 1, removed, "the sweep takes the writer's file")
	})
	_, err = ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A, late\n"), nil })
	require.NoError(t, err)
	assert.Equal(t, 1, suspensions)
	assertContent(t, root, "docs/a.md", "# A, late\n")

	suspensions, suspend = 0, tempTries
	_, err = ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A, never\n"), nil })
	require.Error(t, err)
	assert.Equal(t, taskdoc.CodeIO, taskdoc.CodeOf(err), "%v", err)
	assert.Contains(t, err.Error(), "removed as a crash's leftover")
	assert.Contains(t, err.Error(), "try again")
	assertContent(t, root, "docs/a.md", "# A, late\n")

	suspensions, suspend = 0, 1
	require.NoError(t, ws.Lock(ctx, nil, func(tx *Tx) error { return tx.Create("archived/y.md", []byte("# Y\n")) }))
	assert.Equal(t, 1, suspensions)
	assertContent(t, root, "archived/y.md", "# Y\n")
	assert.Empty(t, tempFiles(t, root))
}

func assertContent(t *testing.T, root, name, want string) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	require.NoError(t, err)
	assert.Equal(t, want, string(got))
}

// Writers racing sweeps: each round leaves an old leftover at a name's
// temporary file (a crash long ago) and writes the name, while another
// Workspace value (another process, as far as the sweep knows) sweeps the
// folder over and over. A sweep may find the leftover old, and then
// remove the writer's own file that replaced it; the writer must not
// fail for that.
func TestWritesRacingSweeps(t *testing.T) {
	ctx := context.Background()
	ws, root := newWorkspace(t)
	sweeper, err := Open(root)
	require.NoError(t, err)
	defer sweeper.Close()
	const writers = 4
	rounds := 500
	if testing.Short() {
		rounds = 100
	}
	long := time.Now().Add(-time.Hour)
	var failed sync.Map
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("docs/w%d/a.md", w)
			leftover := filepath.Join(root, filepath.FromSlash(lockedTempName(name)))
			require.NoError(t, os.MkdirAll(filepath.Dir(leftover), 0o755))
			stop := make(chan struct{})
			swept := make(chan error, 1)
			go func() {
				for {
					select {
					case <-stop:
						swept <- nil
						return
					default:
					}
					if _, err := sweeper.Sweep(ctx, path.Dir(name)); err != nil {
						swept <- err
						return
					}
				}
			}()
			for i := range rounds {
				// Made aside and renamed in, so that it never replaces a
				// writer's file in place.
				aside := leftover + ".x"
				require.NoError(t, os.WriteFile(aside, []byte("half a write"), 0o644))
				require.NoError(t, os.Chtimes(aside, long, long))
				require.NoError(t, os.Rename(aside, leftover))
				_, err := ws.Update(ctx, name, func([]byte, bool) ([]byte, error) { return fmt.Appendf(nil, "# Round %d\n", i), nil })
				if err != nil {
					failed.Store(fmt.Sprintf("%s round %d", name, i), err)
				}
			}
			close(stop)
			require.NoError(t, <-swept)
		}()
	}
	wg.Wait()
	n := 0
	failed.Range(func(k, v any) bool {
		n++
		if n <= 3 {
			t.Errorf("%s: %v", k, v)
		}
		return true
	})
	assert.Zero(t, n, "writes failed of %d", writers*rounds)
	for w := range writers {
		assertContent(t, root, fmt.Sprintf("docs/w%d/a.md", w), fmt.Sprintf("# Round %d\n", rounds-1))
	}
	assert.Empty(t, tempFiles(t, root))
}
