package checkpoint_test

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// start is the first time of the test clock; each reading of the clock
// is a minute after the one before.
var start = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.t
	c.t = c.t.Add(time.Minute)
	return t
}

// requireCode checks that err is a *taskdoc.Error with code and returns it.
func requireCode(t testing.TB, err error, code taskdoc.Code) *taskdoc.Error {
	t.Helper()
	require.Error(t, err)
	var e *taskdoc.Error
	require.True(t, errors.As(err, &e), "%v is not a *taskdoc.Error", err)
	require.Equal(t, code, e.Code, "error: %v", err)
	return e
}

func openWorkspace(t testing.TB, root string) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws
}

func modTime(t testing.TB, root, name string) time.Time {
	t.Helper()
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
	require.NoError(t, err)
	return fi.ModTime()
}
