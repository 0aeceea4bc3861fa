package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestEveryRetryWritesNothing: as the package doc's "Retries and failures"
// says, every call retried is answered as the first was, and the retry
// writes nothing: every file under the root keeps its bytes and is not
// rewritten.
func TestEveryRetryWritesNothing(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	const task = "/auth.md#setup-oauth"
	var me plan.Claimant

	steps := []struct {
		name string
		call func() (any, error)
	}{
		{"Create", func() (any, error) {
			return p.Create(ctx, plan.NewPlan{Path: "/deploy.md", Name: "Deploy", Summary: "Ship it."})
		}},
		{"SetPlan", func() (any, error) {
			return p.SetPlan(ctx, "/deploy.md", []plan.PlannedTask{{Title: "Build"}, {Title: "Ship", DependsOn: []string{"Build"}, Description: "To prod."}})
		}},
		{"Claim", func() (any, error) {
			res, err := p.Claim(ctx, task, a)
			if err == nil {
				me = plan.Claimant{Agent: a, Token: res.Claim.Token}
			}
			return res, err
		}},
		{"SetApproach", func() (any, error) { return p.SetApproach(ctx, task, me, "use the\nprovider's SDK") }},
		{"UpdateStatus in_progress", func() (any, error) {
			return p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
		}},
		{"AddEntry fenced", func() (any, error) {
			return p.AddEntry(ctx, task, me, journal.Entry{Type: journal.TypeProgress, Summary: "SDK in", Key: "k-1"})
		}},
		{"AddEntry unfenced", func() (any, error) {
			return p.AddEntry(ctx, "/auth.md#write-docs", plan.Claimant{}, journal.Entry{Type: journal.TypeDecision, Summary: "markdown", Key: "k-2"})
		}},
		{"UpdateStatus paused", func() (any, error) {
			return p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusPaused})
		}},
		{"UpdateStatus failed", func() (any, error) {
			return p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusFailed, Error: "provider down"})
		}},
		{"UpdateStatus in_progress again", func() (any, error) {
			return p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
		}},
		{"Release", func() (any, error) { return nil, p.Release(ctx, task, me) }},
		{"Claim again", func() (any, error) {
			res, err := p.Claim(ctx, task, a)
			if err == nil {
				me = plan.Claimant{Agent: a, Token: res.Claim.Token}
			}
			return res, err
		}},
		{"UpdateStatus completed", func() (any, error) {
			return p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "OAuth ready"})
		}},
		{"UpdateStatus completed unfenced", func() (any, error) {
			return p.UpdateStatus(ctx, "/auth.md#write-docs", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "docs written"})
		}},
		{"UpdateStatus skipped", func() (any, error) {
			return p.UpdateStatus(ctx, "/deploy.md#build", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusSkipped})
		}},
	}
	for _, s := range steps {
		first, err := s.call()
		require.NoError(t, err, s.name)
		before := freeze(t, root)
		again, err := s.call()
		require.NoError(t, err, "%s retried", s.name)
		assert.Equal(t, first, again, "%s: the retry is answered as the first call", s.name)
		requireUntouched(t, root, before, s.name+" retried")
	}

	// Where it all ended.
	// (Release removed the Assignee field, the second claim added it at the
	// end of the fields; the move out of failed dropped the Error field.)
	assert.Equal(t, "# Auth\n\nStateless auth for the API.\n\n## Tasks\n\n"+
		"### Setup OAuth\n- Status: completed\n- Plan: use the provider's SDK\n- Assignee: "+a+"\n- Completed: 2026-11-23\n- Note: OAuth ready\n\nInstall the provider.\n\n"+
		"### Implement JWT signing\n- Status: pending\n- Depends-On: #setup-oauth\n\nSign with RS256.\n\n"+
		"### Write docs\n- Status: completed\n- Completed: 2026-11-23\n- Note: docs written\n",
		filetest.Read(t, root, "docs/auth.md"))
	st := claimsOf(t, root, "docs/auth.md")
	assert.Equal(t, int64(2), st.LastToken, "two claims: the first, and the one after the release")
	assert.Empty(t, st.Tasks["setup-oauth"].Agent, "completing ended the claim")
	entries, err := p.Journal().List(ctx, task, journal.Query{})
	require.NoError(t, err)
	require.Len(t, entries, 1, "the keyed retry added nothing")
	assert.Equal(t, a, entries[0].Agent)
}

// TestBadInputWritesNothing: a call with bad input is a typed error with
// its code, and every file stays as it was.
func TestBadInputWritesNothing(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	res, err := p.Claim(ctx, "/auth.md#setup-oauth", a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: res.Claim.Token}
	_, err = p.AddEntry(ctx, "/auth.md#setup-oauth", me, journal.Entry{Type: journal.TypePlan, Summary: "the plan"})
	require.NoError(t, err)
	_, err = p.UpdateStatus(ctx, "/auth.md#setup-oauth", me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	before := freeze(t, root)

	neg := plan.Include{RecentCheckpoints: -1}
	cases := []struct {
		name string
		code taskdoc.Code
		call func() error
	}{
		{"Claim: plan address", taskdoc.CodeInvalidAddress, func() error { _, err := p.Claim(ctx, "/auth.md", a); return err }},
		{"Claim: empty address", taskdoc.CodeInvalidAddress, func() error { _, err := p.Claim(ctx, "", a); return err }},
		{"Claim: not a slug", taskdoc.CodeInvalidAddress, func() error { _, err := p.Claim(ctx, "/auth.md#setup oauth", a); return err }},
		{"Claim: outside docs", taskdoc.CodeInvalidAddress, func() error { _, err := p.Claim(ctx, "/../auth.md#setup-oauth", a); return err }},
		{"Claim: no task", taskdoc.CodeTaskNotFound, func() error { _, err := p.Claim(ctx, "/auth.md#nope", a); return err }},
		{"Claim: no plan", taskdoc.CodeDocumentNotFound, func() error { _, err := p.Claim(ctx, "/nope.md#x", a); return err }},
		{"Claim: no agent", agent.CodeAgentNotFound, func() error { _, err := p.Claim(ctx, "/auth.md#write-docs", "ag_000000000000"); return err }},
		{"Release: no token", taskdoc.CodeInvalidArguments, func() error { return p.Release(ctx, "/auth.md#setup-oauth", plan.Claimant{Agent: a}) }},
		{"Release: other token", plan.CodeStaleClaim, func() error {
			return p.Release(ctx, "/auth.md#setup-oauth", plan.Claimant{Agent: a, Token: me.Token + 1})
		}},
		{"UpdateStatus: unknown status", taskdoc.CodeUnknownStatus, func() error {
			_, err := p.UpdateStatus(ctx, "/auth.md#setup-oauth", me, plan.StatusUpdate{Status: "done"})
			return err
		}},
		{"UpdateStatus: completed without outcome", taskdoc.CodeNoteRequired, func() error {
			_, err := p.UpdateStatus(ctx, "/auth.md#setup-oauth", me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "  "})
			return err
		}},
		{"UpdateStatus: failed without error", taskdoc.CodeNoteRequired, func() error {
			_, err := p.UpdateStatus(ctx, "/auth.md#setup-oauth", me, plan.StatusUpdate{Status: taskdoc.StatusFailed})
			return err
		}},
		{"UpdateStatus: not a move", taskdoc.CodeInvalidTransition, func() error {
			_, err := p.UpdateStatus(ctx, "/auth.md#write-docs", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusPaused})
			return err
		}},
		{"UpdateStatus: bad address", taskdoc.CodeInvalidAddress, func() error {
			_, err := p.UpdateStatus(ctx, "/auth.md#", me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
			return err
		}},
		{"UpdateStatus: no task", taskdoc.CodeTaskNotFound, func() error {
			_, err := p.UpdateStatus(ctx, "/auth.md#nope", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
			return err
		}},
		{"UpdateStatus: held by another", plan.CodeStaleClaim, func() error {
			_, err := p.UpdateStatus(ctx, "/auth.md#setup-oauth", plan.Claimant{Agent: "ag_other"}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
			return err
		}},
		{"SetApproach: empty plan", taskdoc.CodeInvalidArguments, func() error {
			_, err := p.SetApproach(ctx, "/auth.md#setup-oauth", me, " \n\t ")
			return err
		}},
		{"SetApproach: no task", taskdoc.CodeTaskNotFound, func() error {
			_, err := p.SetApproach(ctx, "/auth.md#nope", plan.Claimant{}, "x")
			return err
		}},
		{"AddEntry: no type", taskdoc.CodeInvalidArguments, func() error {
			_, err := p.AddEntry(ctx, "/auth.md#setup-oauth", me, journal.Entry{Summary: "x"})
			return err
		}},
		{"AddEntry: no task", taskdoc.CodeTaskNotFound, func() error {
			_, err := p.AddEntry(ctx, "/auth.md#nope", plan.Claimant{}, journal.Entry{Type: journal.TypeProgress, Summary: "x"})
			return err
		}},
		{"LoadContext: negative max tokens", taskdoc.CodeInvalidArguments, func() error {
			_, err := p.LoadContext(ctx, "/auth.md#setup-oauth", plan.ContextOptions{MaxTokens: -1})
			return err
		}},
		{"LoadContext: negative checkpoints", taskdoc.CodeInvalidArguments, func() error {
			_, err := p.LoadContext(ctx, "/auth.md#setup-oauth", plan.ContextOptions{Include: &neg})
			return err
		}},
		{"LoadContext: no task", taskdoc.CodeTaskNotFound, func() error {
			_, err := p.LoadContext(ctx, "/auth.md#nope", plan.ContextOptions{})
			return err
		}},
		{"LoadContext: no plan", taskdoc.CodeDocumentNotFound, func() error {
			_, err := p.LoadContext(ctx, "/nope.md#x", plan.ContextOptions{})
			return err
		}},
		{"SetPlan: no tasks", taskdoc.CodeInvalidTask, func() error { _, err := p.SetPlan(ctx, "/auth.md", nil); return err }},
		{"SetPlan: no tasks, new plan", taskdoc.CodeInvalidTask, func() error { _, err := p.SetPlan(ctx, "/new.md", []plan.PlannedTask{}); return err }},
		{"SetPlan: empty title", taskdoc.CodeInvalidArguments, func() error {
			_, err := p.SetPlan(ctx, "/new.md", []plan.PlannedTask{{Title: "A"}, {Title: " "}})
			return err
		}},
		{"SetPlan: empty dependency", taskdoc.CodeInvalidArguments, func() error {
			_, err := p.SetPlan(ctx, "/new.md", []plan.PlannedTask{{Title: "A", DependsOn: []string{""}}})
			return err
		}},
		{"SetPlan: task address", taskdoc.CodeInvalidAddress, func() error {
			_, err := p.SetPlan(ctx, "/auth.md#setup-oauth", []plan.PlannedTask{{Title: "A"}})
			return err
		}},
		{"SetPlan: duplicate", taskdoc.CodeDuplicateTask, func() error {
			_, err := p.SetPlan(ctx, "/auth.md", []plan.PlannedTask{{Title: "New one"}, {Title: "Write docs", Description: "other"}})
			return err
		}},
		{"UpdateStatus: token without agent", taskdoc.CodeInvalidArguments, func() error {
			_, err := p.UpdateStatus(ctx, "/auth.md#setup-oauth", plan.Claimant{Token: me.Token}, plan.StatusUpdate{Status: taskdoc.StatusPaused})
			return err
		}},
		{"SetApproach: negative token", taskdoc.CodeInvalidArguments, func() error {
			_, err := p.SetApproach(ctx, "/auth.md#setup-oauth", plan.Claimant{Agent: a, Token: -1}, "x")
			return err
		}},
		{"Release: agent with spaces", taskdoc.CodeInvalidArguments, func() error {
			return p.Release(ctx, "/auth.md#setup-oauth", plan.Claimant{Agent: " " + a, Token: me.Token})
		}},
		{"Progress: task address", taskdoc.CodeInvalidAddress, func() error { _, err := p.Progress(ctx, "/auth.md#x"); return err }},
		{"List: unknown status", taskdoc.CodeUnknownStatus, func() error { _, err := p.List(ctx, "finished"); return err }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireCode(t, tc.call(), tc.code)
			requireUntouched(t, root, before, tc.name)
		})
	}
}

// A retried SetPlan is answered once its tasks have moved on.
func TestSetPlanRetryAfterWorkStarted(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, nil)
	tasks := []plan.PlannedTask{{Title: "A", Description: "do a"}, {Title: "B", DependsOn: []string{"A"}, Workflow: "tdd"}}
	_, err := p.SetPlan(ctx, "/p.md", tasks)
	require.NoError(t, err)
	a := register(t, p, "a")
	r, err := p.Claim(ctx, "/p.md#a", a)
	require.NoError(t, err)
	_, err = p.SetApproach(ctx, "/p.md#a", plan.Claimant{Agent: a, Token: r.Claim.Token}, "quickly")
	require.NoError(t, err)
	before := filetest.Snapshot(t, root)
	again, err := p.SetPlan(ctx, "/p.md", tasks)
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPlanning, again[0].Status)
	assert.Equal(t, before, filetest.Snapshot(t, root))
	tasks[1].Description = "changed"
	_, err = p.SetPlan(ctx, "/p.md", tasks)
	assert.Equal(t, taskdoc.CodeDuplicateTask, taskdoc.CodeOf(err))
}
