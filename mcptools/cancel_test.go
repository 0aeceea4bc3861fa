package mcptools

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/workspace"
)

// A call whose context ends while it waits for a lock returns at once with
// an error whose text starts with a code, and changes nothing: the handlers
// hand the call's context down to the library.
func TestCancelledCallStopsWaiting(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/load.md": "# Load\n\n## Tasks\n\n### Task 0\n\n- Status: pending\n"})
	before := filetest.Snapshot(t, root)
	release, held := holdLock(t, root, "docs/load.md")
	<-held

	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	tools := subagentTools{tasks: subagent.New(ws), now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan error, 1)
	go func() {
		_, _, err := tools.complete(ctx, nil, completeSubagentInput{Document: "/load.md#task-0", Note: "done"})
		returned <- err
	}()
	cancel()
	err = <-returned
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "IO_ERROR: "), err.Error())
	assert.ErrorIs(t, err, context.Canceled)

	release()
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// holdLock holds the workspace lock of name from this process until
// release is called; held is closed once the lock is taken.
func holdLock(t *testing.T, root, name string) (release func(), held <-chan struct{}) {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	locked, unlock, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- ws.Lock(context.Background(), []string{name}, func(*workspace.Tx) error {
			close(locked)
			<-unlock
			return nil
		})
	}()
	return func() {
		close(unlock)
		require.NoError(t, <-done)
	}, locked
}
