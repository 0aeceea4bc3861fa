package plan_test

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/procs"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// A claim child is this test binary run again with these variables: the
// workspace root, the agent it claims as (registered by the parent) and
// the task it claims.
const (
	envClaimRoot  = "TASKMD_PLAN_CLAIM_ROOT"
	envClaimAgent = "TASKMD_PLAN_CLAIM_AGENT"
	envClaimTask  = "TASKMD_PLAN_CLAIM_TASK"
)

// TestMain turns the binary into a claim child when asked to.
func TestMain(m *testing.M) {
	if root := os.Getenv(envClaimRoot); root != "" {
		os.Exit(claimChild(root, os.Getenv(envClaimAgent), os.Getenv(envClaimTask)))
	}
	os.Exit(m.Run())
}

// claimChild opens the workspace, says "ready", waits for a line on its
// standard input (the parent's start signal, sent to every child at once)
// and claims the task, printing the ClaimResult as JSON. Its clock is the
// parent's t0, so that every agent the parent registered is online.
func claimChild(root, agentID, task string) int {
	ws, err := workspace.Open(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer ws.Close()
	plans := plan.New(ws, plan.WithClock(func() time.Time { return t0 }))
	if err := procs.Ready(); err != nil {
		fmt.Fprintln(os.Stderr, "waiting for the start:", err)
		return 2
	}
	res, err := plans.Claim(ctx, task, agentID)
	if err != nil {
		fmt.Fprintln(os.Stderr, "claim:", err)
		return 1
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	return 0
}

// TestProcessesClaimOneTask: 8 processes, each an agent the parent
// registered, claim one free task at the same moment. Exactly one
// succeeds, with token 1; every other is told the winner holds it; the
// claims file and the plan's Assignee name the winner.
func TestProcessesClaimOneTask(t *testing.T) {
	const children = 8
	const task = "/auth.md#setup-oauth"
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	agents := make([]string, children)
	for i := range agents {
		agents[i] = register(t, p, fmt.Sprintf("proc-%d", i))
	}

	g, err := procs.Start(children, func(i int) []string {
		return []string{envClaimRoot + "=" + root, envClaimAgent + "=" + agents[i], envClaimTask + "=" + task}
	})
	require.NoError(t, err)
	t.Cleanup(g.Kill)
	// Every child is waiting: start them all at once.
	require.NoError(t, g.Go())
	lines, err := g.Wait()
	require.NoError(t, err)
	results := make([]plan.ClaimResult, children)
	for i, line := range lines {
		require.NoError(t, json.Unmarshal([]byte(line), &results[i]), "child %d printed %q", i, line)
	}

	winner := checkOneWinner(t, agents, results)
	assert.Equal(t, &plan.Claim{Task: task, Agent: winner, Token: 1, Claimed: t0}, results[indexOf(agents, winner)].Claim)
	st := claimsOf(t, root, "docs/auth.md")
	assert.Equal(t, int64(1), st.LastToken)
	assert.Equal(t, winner, st.Tasks["setup-oauth"].Agent)
	assert.Equal(t, int64(1), st.Tasks["setup-oauth"].Token)
	assert.Len(t, st.Tasks, 1)
	assert.Equal(t, winner, field(t, root, "docs/auth.md", "setup-oauth", taskdoc.KeyAssignee))
	assert.Equal(t, taskdoc.StatusPending, taskOf(t, root, "docs/auth.md", "setup-oauth").Status, "a claim does not start the task")
}

// checkOneWinner checks that exactly one of results (results[i] is
// agents[i]'s) succeeded and that every other names the winner, and
// returns it.
func checkOneWinner(t *testing.T, agents []string, results []plan.ClaimResult) string {
	t.Helper()
	var winners []string
	for i, r := range results {
		if r.Success {
			winners = append(winners, agents[i])
			require.NotNil(t, r.Claim)
			assert.Equal(t, agents[i], r.Claim.Agent)
			assert.Empty(t, r.AlreadyClaimedBy)
		}
	}
	require.Len(t, winners, 1, "exactly one claim succeeds: %+v", results)
	for i, r := range results {
		if !r.Success {
			assert.Equal(t, plan.ClaimResult{AlreadyClaimedBy: winners[0]}, r, "loser %s", agents[i])
		}
	}
	return winners[0]
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// TestGoroutinesClaimTasks: 24 goroutines, each an agent with a Plans and
// a Workspace of its own, race for each of the three tasks of a plan in
// turn (setup-oauth is completed before the race for the task that depends
// on it). Each task has exactly one winner, every loser is told who; the
// tokens are 1, 2, 3 in the order the tasks were raced for.
func TestGoroutinesClaimTasks(t *testing.T) {
	const workers = 24
	c := newClock()
	_, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	plans := make([]*plan.Plans, workers)
	agents := make([]string, workers)
	for i := range plans {
		plans[i] = open(t, root, c)
		agents[i] = register(t, plans[i], fmt.Sprintf("g-%d", i))
	}
	slugs := []string{"write-docs", "setup-oauth", "implement-jwt-signing"}
	for k, slug := range slugs {
		task := "/auth.md#" + slug
		results := make([]plan.ClaimResult, workers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range plans {
			wg.Go(func() {
				<-start
				var err error
				results[i], err = plans[i].Claim(ctx, task, agents[i])
				assert.NoError(t, err)
			})
		}
		close(start)
		wg.Wait()
		winner := checkOneWinner(t, agents, results)
		assert.Equal(t, int64(k+1), results[indexOf(agents, winner)].Claim.Token, slug)
		assert.Equal(t, winner, field(t, root, "docs/auth.md", slug, taskdoc.KeyAssignee), slug)
		assert.Equal(t, winner, claimsOf(t, root, "docs/auth.md").Tasks[slug].Agent, slug)
		if slug == "setup-oauth" { // implement-jwt-signing waits for it
			w := indexOf(agents, winner)
			_, err := plans[w].UpdateStatus(ctx, task, plan.Claimant{Agent: winner, Token: results[w].Claim.Token},
				plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "provider installed"})
			require.NoError(t, err)
		}
	}
	assert.Equal(t, int64(len(slugs)), claimsOf(t, root, "docs/auth.md").LastToken)
}
