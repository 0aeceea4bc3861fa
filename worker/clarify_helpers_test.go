package worker_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

// clClock is a settable clock for the clarification tests.
type clClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clClock) add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// clTimer records the waits asked of it. Each wait ends at once when
// fire is true, and never otherwise; started is told of each wait.
type clTimer struct {
	mu      sync.Mutex
	asked   []time.Duration
	fire    bool
	started chan struct{}
}

func (t *clTimer) After(d time.Duration) <-chan time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.asked = append(t.asked, d)
	ch := make(chan time.Time, 1)
	if t.fire {
		ch <- time.Time{}
	}
	if t.started != nil {
		select {
		case t.started <- struct{}{}:
		default:
		}
	}
	return ch
}

func (t *clTimer) waits() []time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]time.Duration(nil), t.asked...)
}

// failTimer fails the test when a wait starts.
type failTimer struct{ t *testing.T }

func (f failTimer) After(time.Duration) <-chan time.Time {
	f.t.Error("a wait started")
	return make(chan time.Time)
}

type clEnv struct {
	root  string
	ws    *workspace.Workspace
	clock *clClock
	cl    *worker.Clarifications
}

var clStart = time.Date(2026, 1, 18, 10, 15, 23, 0, time.UTC)

func clSetup(t *testing.T) clEnv {
	t.Helper()
	root := t.TempDir()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	c := &clClock{now: clStart}
	return clEnv{root: root, ws: ws, clock: c, cl: worker.NewClarifications(ws, worker.WithClock(c.Now))}
}

// clCtx is a context that ends a test that would otherwise hang.
func clCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// files lists the files under the workers folder, relative to it.
func (e clEnv) files(t *testing.T) []string {
	t.Helper()
	var out []string
	base := filepath.Join(e.root, "checkpoints", "workers")
	err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(base, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

func (e clEnv) read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.root, filepath.FromSlash(name)))
	require.NoError(t, err)
	return string(data)
}

var supervision = worker.Needed{
	ID:        "clarif_xyz789",
	BlockedAt: "Supervision pattern selection",
	Reason:    "The session logs name two supervision patterns.",
	Questions: []worker.Question{
		{Text: "One-for-one or one-for-all supervision?"},
		{Text: "Should the watcher actor restart on file system errors?"},
	},
	WorkContinues: true,
	ParallelWork:  []string{"File watching logic", "Test harness setup"},
}
