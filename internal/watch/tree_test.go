package watch_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/watch"
)

// A file written in a folder two levels below the root, created after the
// watch started, is seen within moments, long before the timeout.
func TestUntilTreeSeesAWriteInANewFolder(t *testing.T) {
	root := filepath.Join(t.TempDir(), "workers")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "w1"), 0o755))
	target := filepath.Join(root, "w2", "clarifications", "c1.answer.json")
	go func() {
		time.Sleep(50 * time.Millisecond)
		_ = os.MkdirAll(filepath.Dir(target), 0o755)
		time.Sleep(50 * time.Millisecond)
		_ = os.WriteFile(target, []byte("{}"), 0o644)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	ok, err := watch.UntilTree(ctx, root, time.Minute, nil, exists(target))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Less(t, time.Since(start), time.Second)
}

// The timeout is the clock's; no timeout waits for ctx; the first check
// runs at once.
func TestUntilTreeEdges(t *testing.T) {
	root := t.TempDir()
	clock := handClock{fire: make(chan time.Time, 1)}
	clock.fire <- time.Time{}
	n := 0
	ok, err := watch.UntilTree(context.Background(), root, time.Hour, clock, func() (bool, error) { n++; return false, nil })
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, 2, n, "once at the start, once at the timeout")

	ok, err = watch.UntilTree(context.Background(), root, 0, handClock{}, func() (bool, error) { return true, nil })
	require.NoError(t, err)
	assert.True(t, ok)

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = watch.UntilTree(ctx, root, 0, nil, func() (bool, error) { return false, nil })
	assert.ErrorIs(t, err, context.DeadlineExceeded)

	// The root is created when missing.
	missing := filepath.Join(root, "a", "b")
	_, err = watch.UntilTree(context.Background(), missing, 0, nil, func() (bool, error) { return true, nil })
	require.NoError(t, err)
	assert.DirExists(t, missing)
}

// Changes runs first with no names (anything may have changed), then with
// the names of what changed, a file in a folder made after the start
// included.
func TestChangesNamesWhatChanged(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "a", "b", "x.json")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	runs := make(chan []string, 64)
	done := make(chan error, 1)
	go func() {
		done <- watch.Changes(ctx, root, func(names []string) error {
			runs <- names
			return nil
		})
	}()
	first := <-runs
	assert.Nil(t, first, "the first run knows no change")
	require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o755))
	time.Sleep(50 * time.Millisecond) // the new folders are watched
	start := time.Now()
	require.NoError(t, os.WriteFile(target, []byte("{}"), 0o644))
	for seen := false; !seen; {
		select {
		case names := <-runs:
			seen = slices.Contains(names, target)
		case <-ctx.Done():
			t.Fatal("the write was never named")
		}
	}
	assert.Less(t, time.Since(start), time.Second)
	cancel()
	require.NoError(t, <-done, "the end of ctx ends Changes without an error")
}
