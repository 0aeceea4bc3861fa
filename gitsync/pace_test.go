package gitsync_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/workspace"
)

// liveMachine clones remote as newMachine does, on the real clock, so
// that the leases it shares are live for the other machines' pacing.
func liveMachine(t testing.TB, remote, name string) *machine {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	run(t, filepath.Dir(dir), "clone", "-q", remote, dir)
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	plans := plan.New(ws)
	a, err := plans.Agents().Register(ctx, agent.Registration{ID: "agent-" + name, Name: name, Runtime: "test"})
	require.NoError(t, err)
	s, err := gitsync.New(ctx, ws, plans)
	require.NoError(t, err)
	return &machine{dir: dir, ws: ws, plans: plans, sync: s, agent: a.ID}
}

// racingMachines makes a remote with a plan of 12 tasks and notes.md,
// machine a and three others on the real clock, each of the others
// holding one of the last tasks under a live lease, so that a's batches
// pace once it sees another machine push.
func racingMachines(t *testing.T) (remote string, a *machine, others []*machine) {
	t.Helper()
	remote = newRemote(t, map[string]string{doc: planOf(12), "notes.md": "# Notes\n", ".gitignore": ".taskmd/\n"})
	a = liveMachine(t, remote, "a")
	for i := range 3 {
		m := liveMachine(t, remote, fmt.Sprintf("m%d", i))
		claimOK(t, m, fmt.Sprintf("/plan.md#task-%d", 12-i))
		others = append(others, m)
	}
	return remote, a, others
}

// TestPacedBatchLeavesAPersonsEditsInPlace: a machine whose remote is
// slow (a cycle of 1 s) races three others that hold claims, so that its
// batches pause before they push. A person's uncommitted edit stays in
// its file while the batch pauses: it is set aside only while the change
// is made (the fetch, the merge, the commit), not for the pause, during
// which the person may save the file again.
func TestPacedBatchLeavesAPersonsEditsInPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: seconds of pauses")
	}
	_, a, others := racingMachines(t)
	var pushed atomic.Int64
	gitsync.BeforePush(a.sync, func() {
		pushed.Store(time.Now().UnixNano())
		time.Sleep(1100 * time.Millisecond) // a slow remote
	})
	notes := filepath.Join(a.dir, "notes.md")
	const edit = "# Notes\n\nA person's note.\n"
	for round := 1; round <= 4; round++ {
		// Another machine pushes: a races it.
		claimOK(t, others[0], fmt.Sprintf("/plan.md#task-%d", 5+round))
		filetest.Write(t, a.dir, "notes.md", edit)
		pushed.Store(0)
		done := make(chan error, 1)
		go func() {
			_, err := a.sync.Claim(ctx, fmt.Sprintf("/plan.md#task-%d", round), a.agent)
			done <- err
		}()
		var aside time.Time
	poll:
		for {
			select {
			case err := <-done:
				require.NoError(t, err)
				break poll
			default:
			}
			if data, err := os.ReadFile(notes); aside.IsZero() && err == nil && !strings.Contains(string(data), "A person's note.") {
				aside = time.Now()
			}
			time.Sleep(time.Millisecond)
		}
		require.False(t, aside.IsZero(), "round %d: the edit was set aside", round)
		require.NotZero(t, pushed.Load())
		held := time.Unix(0, pushed.Load()).Sub(aside)
		assert.Less(t, held, 1500*time.Millisecond, "round %d: the person's edit was set aside %v before the push", round, held)
		assert.Equal(t, edit, filetest.Read(t, a.dir, "notes.md"))
	}
}
