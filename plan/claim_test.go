package plan_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestClaimLeaseTakeOverAndFence(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	b := register(t, p, "b")
	const task = "/auth.md#setup-oauth"

	res, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	require.True(t, res.Success)
	assert.Equal(t, int64(1), res.Claim.Token)
	assert.Contains(t, filetest.Read(t, root, "docs/auth.md"), "### Setup OAuth\n- Status: pending\n- Assignee: "+a+"\n")

	again, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	assert.Equal(t, res, again, "the holder claiming again gets the claim it holds")

	lost, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.Equal(t, plan.ClaimResult{AlreadyClaimedBy: a}, lost)

	ca := plan.Claimant{Agent: a, Token: res.Claim.Token}
	_, err = p.UpdateStatus(ctx, task, ca, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)

	// b keeps heartbeating, a does not: after the timeout a's lease is over.
	c.Add(45 * time.Second)
	_, err = p.Agents().Heartbeat(ctx, b, agentInfo())
	require.NoError(t, err)
	c.Add(20 * time.Second)
	next, err := p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	require.NotEmpty(t, next)
	assert.Equal(t, task, next[0].ID)
	assert.True(t, next[0].Stranded)
	assert.Equal(t, a, next[0].PreviousHolder)

	took, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	require.True(t, took.Success)
	assert.Equal(t, int64(2), took.Claim.Token)
	assert.Equal(t, a, took.Claim.TookOverFrom)

	// a comes back: every write it makes with its old claim is refused, and
	// nothing is written.
	before := filetest.Snapshot(t, root)
	_, err = p.UpdateStatus(ctx, task, ca, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	_, err = p.SetApproach(ctx, task, ca, "my way")
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	_, err = p.AddEntry(ctx, task, ca, journal.Entry{Type: journal.TypeProgress, Summary: "x"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	err = p.Release(ctx, task, ca)
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	_, err = p.AddEntry(ctx, task, plan.Claimant{Agent: a}, journal.Entry{Type: journal.TypeProgress, Summary: "x"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	assert.Equal(t, before, filetest.Snapshot(t, root))

	// b finishes; the claim ends and a retry is answered.
	cb := plan.Claimant{Agent: b, Token: took.Claim.Token}
	_, err = p.AddEntry(ctx, task, cb, journal.Entry{Type: journal.TypeRecovery, Summary: "picked up"})
	require.NoError(t, err)
	done, err := p.UpdateStatus(ctx, task, cb, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "OAuth ready"})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusCompleted, done.Status)
	retry, err := p.UpdateStatus(ctx, task, cb, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "OAuth ready"})
	require.NoError(t, err)
	assert.Equal(t, done.Version, retry.Version)
	_, err = p.Claim(ctx, task, a)
	assert.Equal(t, taskdoc.CodeInvalidTransition, taskdoc.CodeOf(err))
}

func TestTokensGrowAcrossRestartsAndRelease(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	res, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: res.Claim.Token}
	require.NoError(t, p.Release(ctx, "/auth.md#write-docs", me))
	require.NoError(t, p.Release(ctx, "/auth.md#write-docs", me), "a retried release succeeds")
	assert.NotContains(t, filetest.Read(t, root, "docs/auth.md"), "Assignee")

	p2 := open(t, root, c) // a restart
	res2, err := p2.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	assert.Equal(t, int64(2), res2.Claim.Token)
	_, err = p2.UpdateStatus(ctx, "/auth.md#write-docs", me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "the old claim of the same agent is stale")
}

func TestNextTasksDependencies(t *testing.T) {
	c := newClock()
	p, _ := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	ids := func() []string {
		next, err := p.NextTasks(ctx, "/auth.md")
		require.NoError(t, err)
		var out []string
		for _, n := range next {
			out = append(out, n.ID)
		}
		return out
	}
	assert.Equal(t, []string{"/auth.md#setup-oauth", "/auth.md#write-docs"}, ids())
	_, err := p.UpdateStatus(ctx, "/auth.md#setup-oauth", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "ok"})
	require.NoError(t, err)
	assert.Equal(t, []string{"/auth.md#implement-jwt-signing", "/auth.md#write-docs"}, ids())
}

func agentInfo() agent.HeartbeatInfo { return agent.HeartbeatInfo{Status: "busy"} }
