package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestPauseLetsGoAndPointsAtTheCheckpoint(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	const task = "/auth.md#write-docs"
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)

	paused, err := p.Pause(ctx, task, me, "checkpoints/workers/"+a+"/000001.md")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPaused, paused.Status)
	assert.Contains(t, filetest.Read(t, root, "docs/auth.md"), "### Write docs\n- Status: paused\n- Checkpoint: checkpoints/workers/"+a+"/000001.md\n")
	before := filetest.Snapshot(t, root)
	again, err := p.Pause(ctx, task, me, "checkpoints/workers/"+a+"/000001.md")
	require.NoError(t, err, "a retried pause")
	assert.Equal(t, paused.Version, again.Version)
	assert.Equal(t, before, filetest.Snapshot(t, root))

	next, err := p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	for _, n := range next {
		assert.NotEqual(t, task, n.ID, "a paused task waits for the resume queue")
	}
	rb, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	require.True(t, rb.Success, "the paused task is free")
	resumed, err := p.UpdateStatus(ctx, task, plan.Claimant{Agent: b, Token: rb.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusInProgress, resumed.Status)
	_, err = p.Pause(ctx, task, me, "")
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
}

func TestRevokeReturnsTheTaskToPending(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	const task = "/auth.md#write-docs"
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)

	revoked, err := p.Revoke(ctx, task, "")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPending, revoked.Status)
	assert.Equal(t, authPlan, filetest.Read(t, root, "docs/auth.md"), "the plan is back as it was before the claim")
	before := filetest.Snapshot(t, root)
	_, err = p.Revoke(ctx, task, "")
	require.NoError(t, err)
	assert.Equal(t, before, filetest.Snapshot(t, root), "a retried revoke writes nothing")
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "late"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "the revoked claim lets nothing through")
	rb, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.True(t, rb.Success)
	assert.Equal(t, int64(2), rb.Claim.Token)
}

func TestPauseOfAClaimNotStartedKeepsItPending(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	r, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	paused, err := p.Pause(ctx, "/auth.md#write-docs", plan.Claimant{Agent: a, Token: r.Claim.Token}, "")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPending, paused.Status)
	assert.Equal(t, authPlan, filetest.Read(t, root, "docs/auth.md"))
}

func TestRevokeFromAnotherHolderIsRefused(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	_, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	before := filetest.Snapshot(t, root)
	_, err = p.Revoke(ctx, "/auth.md#write-docs", b)
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err))
	assert.Equal(t, before, filetest.Snapshot(t, root))
	_, err = p.Revoke(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
}
