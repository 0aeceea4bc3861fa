package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// openMax returns plans on root whose workspace refuses files over max
// bytes, so that a document write fails after the claims were written.
func openMax(t *testing.T, root string, c *clock, max int64) *plan.Plans {
	t.Helper()
	ws, err := workspace.Open(root, workspace.WithMaxFileSize(max))
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return plan.New(ws, plan.WithClock(c.Now))
}

// A completion whose document write fails leaves the claim as it was: the
// holder's retry succeeds.
func TestFailedCompletionKeepsTheClaim(t *testing.T) {
	c := newClock()
	_, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	p := openMax(t, root, c, int64(len(authPlan)+200))
	a := register(t, p, "a")
	res, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: res.Claim.Token}
	before := filetest.Snapshot(t, root)
	_, err = p.UpdateStatus(ctx, "/auth.md#write-docs", me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: strings.Repeat("x", 400)})
	assert.Equal(t, taskdoc.CodeFileTooLarge, taskdoc.CodeOf(err))
	assert.Equal(t, before, filetest.Snapshot(t, root))
	_, err = p.UpdateStatus(ctx, "/auth.md#write-docs", me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	assert.NoError(t, err)
}

// A claim whose document write fails records nothing.
func TestFailedClaimRecordsNothing(t *testing.T) {
	c := newClock()
	_, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	p := openMax(t, root, c, int64(len(authPlan)+5))
	a, b := register(t, p, "a"), register(t, p, "b")
	before := filetest.Snapshot(t, root)
	_, err := p.Claim(ctx, "/auth.md#write-docs", a)
	assert.Equal(t, taskdoc.CodeFileTooLarge, taskdoc.CodeOf(err))
	assert.Equal(t, before, filetest.Snapshot(t, root))
	rb, err := p.Claim(ctx, "/auth.md#write-docs", b)
	assert.Equal(t, taskdoc.CodeFileTooLarge, taskdoc.CodeOf(err), "b's claim fails the same way, not as already claimed: %+v", rb)
}

// Two spellings of one document (a linked folder) share its claims.
func TestLinkedFolderSharesClaims(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/team/auth.md": authPlan})
	require.NoError(t, os.Symlink("team", filepath.Join(root, "docs", "shared")))
	a, b := register(t, p, "a"), register(t, p, "b")
	ra, err := p.Claim(ctx, "/team/auth.md#write-docs", a)
	require.NoError(t, err)
	require.True(t, ra.Success)
	rb, err := p.Claim(ctx, "/shared/auth.md#write-docs", b)
	require.NoError(t, err)
	assert.Equal(t, plan.ClaimResult{AlreadyClaimedBy: a}, rb)
}

// A renamed task keeps its Assignee and its claim: the agent it names is
// not passed over, and writes on with its token.
func TestRenamedTaskIsNotHandedToAnother(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	a, b := register(t, p, "a"), register(t, p, "b")
	ra, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	// The holder renames its task (a caller that is not an agent may not).
	as := claims.WithWriter(ctx, holder{a, ra.Claim.Token})
	_, err = subagent.New(ws).Edit(as, "/auth.md#write-docs", taskdoc.Edit{Title: "Write the docs", Content: "- Status: pending\n- Assignee: " + a + "\n"})
	require.NoError(t, err)
	rb, err := p.Claim(ctx, "/auth.md#write-the-docs", b)
	require.NoError(t, err)
	assert.Equal(t, plan.ClaimResult{AlreadyClaimedBy: a}, rb)
	again, err := p.Claim(ctx, "/auth.md#write-the-docs", a)
	require.NoError(t, err)
	assert.True(t, again.Success)
	assert.Equal(t, ra.Claim.Token, again.Claim.Token, "a rename by its holder keeps the claim")
	_, err = p.UpdateStatus(ctx, "/auth.md#write-the-docs", plan.Claimant{Agent: a, Token: ra.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err, "the holder writes on with its token")
}

// holder is a claims.Writer that writes every task as one agent's claim.
type holder struct {
	agent string
	token int64
}

func (h holder) Claimant(string) (string, int64) { return h.agent, h.token }

// A plan removed and created again: the old claims hold nothing, and the
// tokens go on growing.
func TestRecreatedPlanHoldsNothing(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	ra, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(root, "docs", "auth.md")))
	_, err = p.SetPlan(ctx, "/auth.md", []plan.PlannedTask{{Title: "Write docs"}})
	require.NoError(t, err)
	next, err := p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	require.Len(t, next, 1)
	_, err = p.SetApproach(ctx, "/auth.md#write-docs", plan.Claimant{Agent: a, Token: ra.Claim.Token}, "x")
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	rb, err := p.Claim(ctx, "/auth.md#write-docs", b)
	require.NoError(t, err)
	require.True(t, rb.Success)
	assert.Equal(t, int64(2), rb.Claim.Token)
}

// The holder's retries after its claim ended (skip, complete, a keyed
// checkpoint) are answered; a stale claimant's are not.
func TestRetriesAfterTheClaimEnded(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	res, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: res.Claim.Token}
	first, err := p.UpdateStatus(ctx, "/auth.md#write-docs", me, plan.StatusUpdate{Status: taskdoc.StatusSkipped})
	require.NoError(t, err)
	before := filetest.Snapshot(t, root)
	again, err := p.UpdateStatus(ctx, "/auth.md#write-docs", me, plan.StatusUpdate{Status: taskdoc.StatusSkipped})
	require.NoError(t, err)
	assert.Equal(t, first.Version, again.Version)
	assert.Equal(t, before, filetest.Snapshot(t, root))
	e := journal.Entry{Type: journal.TypeComplete, Summary: "skipped: not needed", Key: "k1"}
	_, err = p.AddEntry(ctx, "/auth.md#write-docs", me, e)
	require.NoError(t, err)
	_, err = p.AddEntry(ctx, "/auth.md#write-docs", me, e)
	require.NoError(t, err)

	// a stale claimant completing with the successor's outcome is refused
	ra, err := p.Claim(ctx, "/auth.md#setup-oauth", a)
	require.NoError(t, err)
	c.Add(61 * time.Second)
	_, err = p.Agents().Heartbeat(ctx, b, agentInfo())
	require.NoError(t, err)
	rb, err := p.Claim(ctx, "/auth.md#setup-oauth", b)
	require.NoError(t, err)
	require.True(t, rb.Success)
	_, err = p.UpdateStatus(ctx, "/auth.md#setup-oauth", plan.Claimant{Agent: b, Token: rb.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	require.NoError(t, err)
	_, err = p.UpdateStatus(ctx, "/auth.md#setup-oauth", plan.Claimant{Agent: a, Token: ra.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
}

// A wrong slug is TASK_NOT_FOUND, not a stale claim.
func TestTypoSlugIsTaskNotFound(t *testing.T) {
	c := newClock()
	p, _ := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	r, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	_, err = p.UpdateStatus(ctx, "/auth.md#write-doc", me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, taskdoc.CodeTaskNotFound, taskdoc.CodeOf(err))
	_, err = p.SetApproach(ctx, "/auth.md#write-doc", me, "x")
	assert.Equal(t, taskdoc.CodeTaskNotFound, taskdoc.CodeOf(err))
	_, err = p.AddEntry(ctx, "/auth.md#write-doc", me, journal.Entry{Type: journal.TypeProgress, Summary: "x"})
	assert.Equal(t, taskdoc.CodeTaskNotFound, taskdoc.CodeOf(err))
}

// A claimant's agent id is checked the same way by every write.
func TestClaimantWithSpaceIsInvalid(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	r, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	bad := plan.Claimant{Agent: " " + a, Token: r.Claim.Token}
	before := filetest.Snapshot(t, root)
	_, err = p.UpdateStatus(ctx, "/auth.md#write-docs", bad, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	_, err = p.AddEntry(ctx, "/auth.md#write-docs", bad, journal.Entry{Type: journal.TypeProgress, Summary: "x"})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(p.Release(ctx, "/auth.md#write-docs", bad)))
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// The refusals of writes on a held task name it in the caller's words:
// the agent holding it, never a holder or a claimant.
func TestClaimRefusalsSayAgent(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	r, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	task := "/auth.md#write-docs"
	before := filetest.Snapshot(t, root)
	refusals := map[string]error{}
	_, refusals["an agent id with space"] = p.UpdateStatus(ctx, task, plan.Claimant{Agent: " " + a, Token: r.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	_, refusals["a person's checkpoint"] = p.AddEntry(ctx, task, plan.Person("alice"), journal.Entry{Type: journal.TypeProgress, Summary: "x"})
	refusals["a release without a claim"] = p.Release(ctx, task, plan.Claimant{})
	_, refusals["a write by no agent"] = p.UpdateStatus(ctx, task, plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	for name, err := range refusals {
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "agent", name)
		assert.NotContains(t, err.Error(), "holder", name)
		assert.NotContains(t, err.Error(), "claimant", name)
	}
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// A task shown with an Assignee that holds no recorded claim (the claims
// file was removed) takes no write from an agent without a claim: it
// claims first, and Claim decides whether the agent shown is online.
func TestShownHolderFencesUnclaimedWrites(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	_, err := p.Claim(ctx, "/auth.md#write-docs", a)
	require.NoError(t, err)
	require.NoError(t, os.RemoveAll(filepath.Join(root, ".taskmd", "claims")))
	before := filetest.Snapshot(t, root)
	_, err = p.UpdateStatus(ctx, "/auth.md#write-docs", plan.Claimant{Agent: b}, plan.StatusUpdate{Status: taskdoc.StatusPaused})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	_, err = p.AddEntry(ctx, "/auth.md#write-docs", plan.Claimant{Agent: b}, journal.Entry{Type: journal.TypeProgress, Summary: "x"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	assert.Equal(t, before, filetest.Snapshot(t, root))
	rb, err := p.Claim(ctx, "/auth.md#write-docs", b)
	require.NoError(t, err)
	assert.Equal(t, plan.ClaimResult{AlreadyClaimedBy: a}, rb)
}
