package gitsync_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/fleet"
	"github.com/taskmd/taskmd/internal/testkit/procs"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// A child process is one machine: its clone, its agent, and the number of
// tasks of docs/plan.md it goes through.
const (
	envChildDir   = "TASKMD_GITSYNC_CHILD_DIR"
	envChildAgent = "TASKMD_GITSYNC_CHILD_AGENT"
	envChildTasks = "TASKMD_GITSYNC_CHILD_TASKS"
	envChildRefs  = "TASKMD_GITSYNC_CHILD_PLAN_REFS" // "1": WithPlanRefs
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(envCrashDir); dir != "" {
		os.Exit(crashChild(dir))
	}
	if dir := os.Getenv(envHolderDir); dir != "" {
		os.Exit(holderChild(dir))
	}
	fleet.Child()
	raceChild()
	if dir := os.Getenv(envChildDir); dir != "" {
		var n int
		fmt.Sscan(os.Getenv(envChildTasks), &n)
		os.Exit(machineChild(dir, os.Getenv(envChildAgent), n))
	}
	os.Exit(m.Run())
}

// childReport is what a child prints: the tasks it won and completed, and
// who held each task it lost.
type childReport struct {
	Won  []string          `json:"won"`
	Lost map[string]string `json:"lost"`
}

// machineChild opens the clone in dir, says "ready", waits for the start
// line, then claims every task, starting at a place of its own, and
// completes each one it wins.
func machineChild(dir, agentID string, n int) int {
	ws, err := workspace.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer ws.Close()
	plans := plan.New(ws, plan.WithClock(now))
	opts := []gitsync.Option{gitsync.WithMaxAttempts(200)}
	refs := os.Getenv(envChildRefs) == "1"
	if refs {
		opts = append(opts, gitsync.WithPlanRefs())
	}
	s, err := gitsync.New(ctx, ws, plans, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := procs.Ready(); err != nil {
		return 2
	}
	start := int(agentID[len(agentID)-1]-'a') * n / 3
	rep := childReport{Lost: map[string]string{}}
	for i := range n {
		slug := fmt.Sprintf("task-%d", (start+i)%n+1)
		addr := "/plan.md#" + slug
		res, err := s.Claim(ctx, addr, agentID)
		if taskdoc.CodeOf(err) == taskdoc.CodeInvalidTransition {
			// Completed already, by the machine whose agent it names.
			data, rerr := ws.ReadIfExists(ctx, doc)
			d, perr := taskdoc.Parse(data)
			if rerr != nil || perr != nil {
				return 1
			}
			tk, terr := d.Task(slug)
			if terr != nil {
				return 1
			}
			rep.Lost[slug], _ = tk.Field(taskdoc.KeyAssignee)
			continue
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "claim", addr, err)
			return 1
		}
		if !res.Success {
			rep.Lost[slug] = res.AlreadyClaimedBy
			continue
		}
		if !res.Pushed {
			fmt.Fprintln(os.Stderr, "claim", addr, "not pushed:", res.Offline)
			return 1
		}
		done, err := s.UpdateStatus(ctx, addr, plan.Claimant{Agent: agentID, Token: res.Claim.Token},
			plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "Done by " + agentID + "."})
		if err != nil || !done.Pushed {
			fmt.Fprintln(os.Stderr, "complete", addr, err, done.Offline)
			return 1
		}
		rep.Won = append(rep.Won, slug)
	}
	if refs {
		if _, err := s.Push(ctx); err != nil { // the branch follows the plan ref
			fmt.Fprintln(os.Stderr, "push", err)
			return 1
		}
	}
	out, _ := json.Marshal(rep)
	fmt.Println(string(out))
	return 0
}

// TestProcessesShareOneRemote: 3 clones, each in a process of its own,
// claim all 20 tasks of one plan on one remote at once and complete each
// task they win. Every task has exactly one holder, every loser was told
// that holder, and the remote has every completion: on one branch, and
// with plan refs.
func TestProcessesShareOneRemote(t *testing.T) {
	if testing.Short() {
		t.Skip("3 processes × 20 claims through git")
	}
	for _, refs := range []bool{false, true} {
		t.Run(map[bool]string{false: "branch", true: "plan-refs"}[refs], func(t *testing.T) { processesShareOneRemote(t, refs) })
	}
}

func processesShareOneRemote(t *testing.T, refs bool) {
	const tasks = 20
	remote := newRemote(t, map[string]string{doc: planOf(tasks), ".gitignore": ".taskmd/\n"})
	names := []string{"a", "b", "c"}
	dirs := make([]string, len(names))
	for i, name := range names {
		dirs[i] = newMachine(t, remote, name).dir
	}
	g, err := procs.Start(len(names), func(i int) []string {
		return []string{envChildDir + "=" + dirs[i], envChildAgent + "=agent-" + names[i], fmt.Sprintf("%s=%d", envChildTasks, tasks),
			envChildRefs + "=" + map[bool]string{true: "1"}[refs]}
	})
	require.NoError(t, err)
	t.Cleanup(g.Kill)
	require.NoError(t, g.Go())
	lines, err := g.Wait()
	require.NoError(t, err)
	reports := make([]childReport, len(lines))
	for i, line := range lines {
		require.NoError(t, json.Unmarshal([]byte(line), &reports[i]), "child %d printed %q", i, line)
	}

	holder := map[string]string{}
	for i, r := range reports {
		for _, slug := range r.Won {
			assert.Empty(t, holder[slug], "%s won by two machines", slug)
			holder[slug] = "agent-" + names[i]
		}
	}
	assert.Len(t, holder, tasks, "every task has a holder")
	final := remoteFile(t, remote, doc)
	for i := 1; i <= tasks; i++ {
		slug := fmt.Sprintf("task-%d", i)
		tk := taskIn(t, final, slug)
		assert.Equal(t, taskdoc.StatusCompleted, tk.Status, slug)
		assert.Equal(t, holder[slug], assigneeIn(t, final, slug), slug)
		note, _ := tk.Field(taskdoc.KeyNote)
		assert.Equal(t, "Done by "+holder[slug]+".", note, slug)
	}
	for _, r := range reports {
		for slug, by := range r.Lost {
			assert.Equal(t, holder[slug], by, "a loser of %s was told its holder", slug)
		}
	}
	doc, err := taskdoc.Parse([]byte(final))
	require.NoError(t, err)
	assert.Len(t, doc.Tasks, tasks, "no task was duplicated or lost by a merge")
}
