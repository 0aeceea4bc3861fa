package plan_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/workspace"
)

// t0 is when the tests' clocks start.
var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

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

var ctx = context.Background()

// setup writes files (root-relative name -> content) into a fresh
// workspace and returns its plans on clock c, and the root.
func setup(t testing.TB, c *clock, files map[string]string) (*plan.Plans, string) {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		filetest.Write(t, root, name, content)
	}
	return open(t, root, c), root
}

// open returns plans on a Workspace of their own on root.
func open(t testing.TB, root string, c *clock) *plan.Plans {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return plan.New(ws, plan.WithClock(c.Now))
}

// register registers an agent named name and returns its id.
func register(t testing.TB, p *plan.Plans, name string) string {
	t.Helper()
	a, err := p.Agents().Register(ctx, agent.Registration{Name: name, Runtime: "test"})
	require.NoError(t, err)
	return a.ID
}

const authPlan = `# Auth

Stateless auth for the API.

## Tasks

### Setup OAuth
- Status: pending

Install the provider.

### Implement JWT signing
- Status: pending
- Depends-On: #setup-oauth

Sign with RS256.

### Write docs
- Status: pending
`
