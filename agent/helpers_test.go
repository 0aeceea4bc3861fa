package agent_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/workspace"
)

// t0 is when the tests' clocks start: 2025-10-14 15:30:45 UTC.
var t0 = time.Date(2025, 10, 14, 15, 30, 45, 0, time.UTC)

// clock is a clock the test moves by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: t0} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// setup opens a fresh workspace and returns its registry on clock c, with
// opts, and the root.
func setup(t testing.TB, c *clock, opts ...agent.Option) (*agent.Registry, string) {
	t.Helper()
	root := t.TempDir()
	return open(t, root, c, opts...), root
}

// open returns a registry on a Workspace of its own on root.
func open(t testing.TB, root string, c *clock, opts ...agent.Option) *agent.Registry {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return agent.New(ws, append([]agent.Option{agent.WithClock(c.Now)}, opts...)...)
}

func worker(name string) agent.Registration {
	return agent.Registration{Name: name, Runtime: "claude_code"}
}

// files returns every regular file under root, by root-relative name, with
// its content.
func files(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	require.NoError(t, err)
	return out
}

// withPrefix returns the names in m that start with prefix.
func withPrefix(m map[string]string, prefix string) []string {
	var names []string
	for name := range m {
		if strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
	}
	return names
}
