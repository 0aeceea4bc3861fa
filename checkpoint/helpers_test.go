package checkpoint_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
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
func setup(t testing.TB, files map[string]string) (*checkpoint.Journal, string) {
	t.Helper()
	root := t.TempDir()
	if _, ok := files["docs/api/auth.md"]; !ok {
		files = mergeFiles(files, map[string]string{"docs/api/auth.md": planDoc})
	}
	writeFiles(t, root, files)
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	clock := &testClock{t: start}
	return checkpoint.New(ws, checkpoint.WithClock(clock.now)), root
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

func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

func readFile(t testing.TB, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	require.NoError(t, err)
	return string(data)
}

// snapshot returns every file under root except the library's state in
// .taskmd/, so that a test can tell that a failed call changed nothing.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if rel == ".taskmd" {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		files[rel] = string(data)
		return err
	})
	require.NoError(t, err)
	return files
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
