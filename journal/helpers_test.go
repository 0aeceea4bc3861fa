package journal_test

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// planDoc is the plan document of the tests, docs/api/auth.md: two tasks,
// and a "Setup" heading outside the Tasks section that is no task.
const planDoc = `# Authentication

## Tasks

### Implement JWT signing

- Status: in_progress

Sign tokens with RS256.

### Add token validation

- Status: pending

## Notes

### Setup

Not a task.
`

const (
	task        = "/api/auth.md#implement-jwt-signing"
	journalFile = "checkpoints/tasks/api/auth.md/implement-jwt-signing.md"
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

// setup writes files (root-relative name -> content; docs/api/auth.md is
// planDoc unless given) into a fresh workspace and returns its Journal on
// the test clock, and the root.
func setup(t testing.TB, files map[string]string) (*journal.Journal, string) {
	t.Helper()
	root := t.TempDir()
	if _, ok := files["docs/api/auth.md"]; !ok {
		files = mergeFiles(files, map[string]string{"docs/api/auth.md": planDoc})
	}
	filetest.WriteAll(t, root, files)
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	clock := &testClock{t: start}
	return journal.New(ws, journal.WithClock(clock.now)), root
}

func mergeFiles(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
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
