package watch_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/watch"
)

// handClock fires its timer when the test says so.
type handClock struct{ fire chan time.Time }

func (c handClock) After(time.Duration) <-chan time.Time { return c.fire }

func exists(path string) func() (bool, error) {
	return func() (bool, error) {
		_, err := os.Stat(path)
		if os.IsNotExist(err) {
			return false, nil
		}
		return err == nil, err
	}
}

// A file written by another goroutine is seen within moments, long before
// the timeout.
func TestUntilSeesAWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "answers")
	target := filepath.Join(dir, "q1.json")
	go func() {
		time.Sleep(50 * time.Millisecond)
		_ = os.WriteFile(target, []byte("{}"), 0o644)
	}()
	start := time.Now()
	ok, err := watch.Until(context.Background(), dir, time.Minute, nil, exists(target))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Less(t, time.Since(start), time.Second)
}

// The timeout is the clock's: no real wait.
func TestUntilTimesOut(t *testing.T) {
	dir := t.TempDir()
	clock := handClock{fire: make(chan time.Time, 1)}
	var checks atomic.Int32
	clock.fire <- time.Time{}
	ok, err := watch.Until(context.Background(), dir, time.Hour, clock, func() (bool, error) {
		checks.Add(1)
		return false, nil
	})
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, int32(2), checks.Load(), "once at the start, once at the timeout")
}

// A condition true at the start returns at once; one that turns true just
// as the timer fires is still seen; a cancelled context ends the wait.
func TestUntilEdges(t *testing.T) {
	dir := t.TempDir()
	ok, err := watch.Until(context.Background(), dir, time.Hour, handClock{}, func() (bool, error) { return true, nil })
	require.NoError(t, err)
	assert.True(t, ok)

	clock := handClock{fire: make(chan time.Time, 1)}
	clock.fire <- time.Time{}
	n := 0
	ok, err = watch.Until(context.Background(), dir, time.Hour, clock, func() (bool, error) { n++; return n == 2, nil })
	require.NoError(t, err)
	assert.True(t, ok)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = watch.Until(ctx, dir, time.Hour, handClock{}, func() (bool, error) { return false, nil })
	assert.ErrorIs(t, err, context.Canceled)
}
