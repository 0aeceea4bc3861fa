package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

// claimOf is the claims record of task slug of docs/auth.md.
func claimOf(t *testing.T, root, slug string) claims.Record {
	t.Helper()
	name := claims.FileOf("docs/auth.md")
	f, err := claims.Decode("docs/auth.md", name, []byte(filetest.Read(t, root, name)))
	require.NoError(t, err)
	return f.Record(slug)
}

// An agent without a claim creates no task into work (planning, in
// progress, paused); a caller that is not an agent may.
func TestAgentCreatesNoWorkWithoutAClaim(t *testing.T) {
	p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
	b := register(t, p, "b")
	s := tasksOn(t, root)
	before := filetest.Snapshot(t, root)
	for _, status := range []string{"planning", "in_progress", "paused"} {
		_, err := s.Create(claims.WithWriter(ctx, writer{agent: b}), "/auth.md", taskdoc.NewTask{Title: "Sneaky", Content: "- Status: " + status + "\n"})
		assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), status)
	}
	assert.Equal(t, before, filetest.Snapshot(t, root))
	_, err := s.Create(ctx, "/auth.md", taskdoc.NewTask{Title: "By hand", Content: "- Status: in_progress\n"})
	require.NoError(t, err)
}

// The Assignee is the claim's record, not content: an edit or a create
// that writes one is INVALID_TASK, so no caller takes a task out of the
// pool without a claim, and a claim a person let go by removing the
// Assignee by hand stays gone however stale content comes back.
func TestAssigneeIsNotContent(t *testing.T) {
	const task = "/auth.md#write-docs"
	p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	s := tasksOn(t, root)
	before := filetest.Snapshot(t, root)
	_, err := s.Edit(ctx, task, taskdoc.Edit{Content: "- Status: pending\n- Assignee: " + a + "\n"})
	assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	_, err = s.Create(ctx, "/auth.md", taskdoc.NewTask{Title: "Taken", Content: "- Assignee: " + a + "\n"})
	assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	assert.Equal(t, before, filetest.Snapshot(t, root))

	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	filetest.Write(t, root, "docs/auth.md", authPlan) // a person removes the Assignee by hand
	_, err = s.Edit(ctx, task, taskdoc.Edit{Content: "- Status: pending\n- Assignee: " + a + "\n"})
	assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err), "stale content does not bring it back")
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "the claim a person let go writes no more")
	rb, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.True(t, rb.Success)
}

// A claim that ended with its task done lets its holder's retries through
// only while the task stays done: once a person reopens it, the old token
// starts nothing, and the task is free.
func TestReopenedTaskEndsTheHoldersRetries(t *testing.T) {
	const task = "/auth.md#write-docs"
	p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	require.NoError(t, err)
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	require.NoError(t, err, "the holder's retry while the task is done")

	_, err = tasksOn(t, root).SetStatus(ctx, task, taskdoc.StatusPending, "")
	require.NoError(t, err, "a person reopens it")
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	rb, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.True(t, rb.Success, "%+v", rb)
}

// A holder that renames its task keeps its claim under the new slug.
func TestHolderRenameKeepsItsClaim(t *testing.T) {
	p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	r, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	_, err = tasksOn(t, root).Edit(claims.WithWriter(ctx, writer{agent: a, token: r.Claim.Token}), "/auth.md#write-docs", taskdoc.Edit{Title: "Write the docs"})
	require.NoError(t, err)
	_, err = p.UpdateStatus(ctx, "/auth.md#write-the-docs", me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.NoError(t, err)
	assert.Equal(t, a, claimOf(t, root, "write-the-docs").Agent)
}

// A person's override by an edit keeps its record in the task, whatever
// content the edit writes.
func TestOverrideByAnEditKeepsItsRecord(t *testing.T) {
	const task = "/auth.md#write-docs"
	p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	_, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	got, err := tasksOn(t, root, subagent.WithOverride("alice")).Edit(ctx, task, taskdoc.Edit{Content: "- Status: pending\n\nRewritten by alice.\n"})
	require.NoError(t, err)
	v, _ := got.Field(taskdoc.KeyOverride)
	assert.Contains(t, v, "alice took it from agent "+a)
	assert.Contains(t, filetest.Read(t, root, "docs/auth.md"), "- Override: alice took it from agent "+a)
}

// A claims file that does not read blocks the writes it fences, not the
// creation of new tasks, which no claim can hold.
func TestDamagedClaimsFileDoesNotBlockCreate(t *testing.T) {
	_, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan, claims.FileOf("docs/auth.md"): "{not json"})
	_, err := tasksOn(t, root).Create(ctx, "/auth.md", taskdoc.NewTask{Title: "New one"})
	assert.NoError(t, err)
	_, err = tasksOn(t, root).SetStatus(ctx, "/auth.md#write-docs", taskdoc.StatusBlocked, "")
	assert.Equal(t, taskdoc.CodeParse, taskdoc.CodeOf(err), "a fenced write names the damaged file")
}

// A completion whose plan was put back (gitsync takes a rejected push's
// commit back, and makes the change again on the merged plan) is made
// again by its holder's token: its claim ended with the completion, and
// the retry of that completion is the holder's.
func TestCompletionMadeAgainOnAPlanPutBack(t *testing.T) {
	const task = "/auth.md#write-docs"
	p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	held := filetest.Read(t, root, "docs/auth.md")
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	require.NoError(t, err)
	filetest.Write(t, root, "docs/auth.md", held) // the commit taken back
	done, err := p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusCompleted, done.Status)
}
