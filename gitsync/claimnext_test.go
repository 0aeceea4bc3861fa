package gitsync_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestClaimNextTakesTheNextFreeTask: two machines claim the next task of
// one plan in turn and get different tasks; an agent that asks again while
// it holds a task gets its claim back, and nothing is committed.
func TestClaimNextTakesTheNextFreeTask(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3)})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")

	ra, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
	require.NoError(t, err)
	require.True(t, ra.Success)
	assert.Equal(t, "/plan.md#task-1", ra.Claim.Task)
	assert.True(t, ra.Pushed)

	rb, err := b.sync.ClaimNext(ctx, "/plan.md", b.agent)
	require.NoError(t, err)
	require.True(t, rb.Success)
	assert.Equal(t, "/plan.md#task-2", rb.Claim.Task, "b merged a's claim before it chose")

	head := run(t, remote, "rev-parse", "main")
	again, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
	require.NoError(t, err)
	require.True(t, again.Success)
	assert.Equal(t, *ra.Claim, *again.Claim, "the claim it holds, same token")
	assert.Empty(t, again.Commit)
	assert.Equal(t, head, run(t, remote, "rev-parse", "main"))

	got := remoteFile(t, remote, doc)
	assert.Equal(t, a.agent, assigneeIn(t, got, "task-1"))
	assert.Equal(t, b.agent, assigneeIn(t, got, "task-2"))
	assert.Empty(t, assigneeIn(t, got, "task-3"))
}

// TestClaimNextChoosesAgainAfterARejectedPush: the task b chose was
// claimed by a while b pushed; Claim would be refused, ClaimNext makes the
// change again on the merged plan and takes the next task.
func TestClaimNextChoosesAgainAfterARejectedPush(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	moveBefore(t, b, a, "/plan.md#task-1")
	res, err := b.sync.ClaimNext(ctx, "/plan.md", b.agent)
	require.NoError(t, err)
	require.True(t, res.Success)
	assert.Equal(t, "/plan.md#task-2", res.Claim.Task)
	assert.Equal(t, 2, res.Attempts)
	assert.True(t, res.Pushed)
	got := remoteFile(t, remote, doc)
	assert.Equal(t, a.agent, assigneeIn(t, got, "task-1"))
	assert.Equal(t, b.agent, assigneeIn(t, got, "task-2"))
	// The plan, a's claim and b's claim: b's first choice was never
	// committed.
	assert.Equal(t, 3, strings.Count(run(t, remote, "log", "--format=%s", "main"), "\n"))
}

// TestClaimNextWhenNothingIsFree: every task held, or every task done:
// Success is false, nobody is named, and nothing is committed.
func TestClaimNextWhenNothingIsFree(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(1), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	ra, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
	require.NoError(t, err)
	require.True(t, ra.Success)

	head := run(t, remote, "rev-parse", "main")
	rb, err := b.sync.ClaimNext(ctx, "/plan.md", b.agent)
	require.NoError(t, err)
	assert.False(t, rb.Success)
	assert.Empty(t, rb.AlreadyClaimedBy)
	assert.Nil(t, rb.Claim)
	assert.Empty(t, rb.Commit)
	assert.Equal(t, head, run(t, remote, "rev-parse", "main"))

	c := plan.Claimant{Agent: a.agent, Token: ra.Claim.Token}
	for _, u := range []plan.StatusUpdate{{Status: taskdoc.StatusInProgress}, {Status: taskdoc.StatusCompleted, Note: "Done."}} {
		_, err := a.sync.UpdateStatus(ctx, "/plan.md#task-1", c, u)
		require.NoError(t, err)
	}
	done, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
	require.NoError(t, err)
	assert.False(t, done.Success, "a completed task is not its work any more")
	assert.Nil(t, done.Claim)
}

// TestClaimNextRefusals: a bad address, a plan that does not exist and
// an agent that is not registered are refused, and nothing is written.
func TestClaimNextRefusals(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2)})
	a := newMachine(t, remote, "a")
	before := filetest.Read(t, a.dir, doc)
	head, remoteHead := run(t, a.dir, "rev-parse", "HEAD"), run(t, remote, "rev-parse", "main")
	for _, tc := range []struct {
		plan, agent string
		code        taskdoc.Code
	}{
		{"/plan.md#task-1", a.agent, taskdoc.CodeInvalidAddress},
		{"/../plan.md", a.agent, taskdoc.CodeInvalidAddress},
		{"/missing.md", a.agent, taskdoc.CodeDocumentNotFound},
		{"/plan.md", "agent-nobody", agent.CodeAgentNotFound},
	} {
		res, err := a.sync.ClaimNext(ctx, tc.plan, tc.agent)
		assert.Equal(t, tc.code, taskdoc.CodeOf(err), "%s %s: %v", tc.plan, tc.agent, err)
		assert.False(t, res.Success)
	}
	assert.Equal(t, before, filetest.Read(t, a.dir, doc))
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
	assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"))
	assert.Equal(t, remoteHead, run(t, remote, "rev-parse", "main"))
}

// TestClaimNextPassesOverItsOwnBlockedTask: an agent that blocked its task
// still holds it, but ClaimNext gives it the next free task, not the
// blocked one again.
func TestClaimNextPassesOverItsOwnBlockedTask(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2)})
	a := newMachine(t, remote, "a")
	first, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
	require.NoError(t, err)
	require.Equal(t, "/plan.md#task-1", first.Claim.Task)
	c := plan.Claimant{Agent: a.agent, Token: first.Claim.Token}
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", c, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", c, plan.StatusUpdate{Status: taskdoc.StatusBlocked})
	require.NoError(t, err)

	next, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
	require.NoError(t, err)
	require.True(t, next.Success)
	assert.Equal(t, "/plan.md#task-2", next.Claim.Task)
	got := remoteFile(t, remote, doc)
	assert.Equal(t, a.agent, assigneeIn(t, got, "task-1"), "still its own")
	assert.Equal(t, a.agent, assigneeIn(t, got, "task-2"))
}

// TestClaimNextOwnTaskInEachStatus: an agent's own task is handed back
// while it is work to do (pending, planning, in progress), passed over
// otherwise; asking again hands back the same claim and commits nothing.
func TestClaimNextOwnTaskInEachStatus(t *testing.T) {
	for _, tc := range []struct {
		status taskdoc.Status
		want   string
	}{
		{taskdoc.StatusPending, "task-1"},
		{taskdoc.StatusPlanning, "task-1"},
		{taskdoc.StatusInProgress, "task-1"},
		{taskdoc.StatusPaused, "task-2"},
		{taskdoc.StatusBlocked, "task-2"},
		{taskdoc.StatusFailed, "task-2"},
		{taskdoc.StatusCompleted, "task-2"},
		{taskdoc.StatusSkipped, "task-2"},
	} {
		t.Run(string(tc.status), func(t *testing.T) {
			src := strings.Replace(planOf(2), "### Task 1\n- Status: pending\n",
				"### Task 1\n- Status: "+string(tc.status)+"\n- Assignee: agent-a\n", 1)
			remote := newRemote(t, map[string]string{doc: src})
			a := newMachine(t, remote, "a")
			first, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
			require.NoError(t, err)
			require.True(t, first.Success, "%+v", first)
			assert.Equal(t, "/plan.md#"+tc.want, first.Claim.Task)
			head := run(t, remote, "rev-parse", "main")
			again, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
			require.NoError(t, err)
			require.True(t, again.Success)
			assert.Equal(t, *first.Claim, *again.Claim, "the same claim")
			assert.Equal(t, head, run(t, remote, "rev-parse", "main"), "nothing committed again")
			got := remoteFile(t, remote, doc)
			assert.Equal(t, tc.status, taskIn(t, got, "task-1").Status, "task-1 untouched")
		})
	}
}
