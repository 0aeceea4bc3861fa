package plan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

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

// TestCallerThatIsNotAnAgentLeavesHeldTasksAlone: a caller that is not
// an agent (the zero Claimant: a script, a session that did not register)
// writes nothing on a task an agent holds — no status, no plan, no
// checkpoint — and every file stays as it was; on a free task it may.
func TestCallerThatIsNotAnAgentLeavesHeldTasksAlone(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	const task = "/auth.md#write-docs"
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	before := filetest.Snapshot(t, root)

	nobody := plan.Claimant{}
	_, err = p.UpdateStatus(ctx, task, nobody, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "x"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "agent "+a+" holds it")
	_, err = p.UpdateStatus(ctx, task, nobody, plan.StatusUpdate{Status: taskdoc.StatusBlocked})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	_, err = p.SetApproach(ctx, task, nobody, "my way")
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	_, err = p.AddEntry(ctx, task, nobody, journal.Entry{Type: journal.TypeProgress, Summary: "mine"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	_, err = p.Journal().Add(ctx, task, journal.Entry{Type: journal.TypeProgress, Summary: "mine"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	assert.Equal(t, before, filetest.Snapshot(t, root), "a refused call writes nothing")

	// The holder is untouched and goes on.
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)

	// A free task is anyone's.
	done, err := p.UpdateStatus(ctx, "/auth.md#setup-oauth", nobody, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "by hand"})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusCompleted, done.Status)
}

// TestPersonOverridesAClaimOnRecord: a person's override writes over an
// agent's claim, ends it (the holder's next write is STALE_CLAIM) and
// says so in the task; an agent cannot override; a retried override
// writes nothing.
func TestPersonOverridesAClaimOnRecord(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	const task = "/auth.md#write-docs"
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}

	_, err = p.UpdateStatus(ctx, task, plan.Claimant{Agent: a, Override: "alice"}, plan.StatusUpdate{Status: taskdoc.StatusBlocked})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), "an agent does not override")
	_, err = p.UpdateStatus(ctx, task, plan.Person("alice\x1b"), plan.StatusUpdate{Status: taskdoc.StatusBlocked})
	assert.Equal(t, taskdoc.CodeControlCharacter, taskdoc.CodeOf(err))
	_, err = p.UpdateStatus(ctx, task, plan.Person(" alice"), plan.StatusUpdate{Status: taskdoc.StatusBlocked})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))

	done, err := p.UpdateStatus(ctx, task, plan.Person("alice"), plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done by hand"})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusCompleted, done.Status)
	text := filetest.Read(t, root, "docs/auth.md")
	assert.Contains(t, text, "- Override: alice took it from agent "+a+fmt.Sprintf(" (claim %d) on 2026-11-23\n", r.Claim.Token))
	assert.NotContains(t, text, "Assignee:")

	before := filetest.Snapshot(t, root)
	_, err = p.UpdateStatus(ctx, task, plan.Person("alice"), plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done by hand"})
	require.NoError(t, err, "a retried override")
	assert.Equal(t, before, filetest.Snapshot(t, root))

	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "mine"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "the claim was taken from its holder")
	_, err = p.AddEntry(ctx, task, me, journal.Entry{Type: journal.TypeProgress, Summary: "late"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
}

// TestPauseLetsTheClaimGo: once a task is paused (a graceful or
// immediate pivot acknowledged), its old holder can neither checkpoint it
// nor take it back out of the resume queue with its old claim or without
// one; a retried pause still answers, and a new claim resumes it.
func TestPauseLetsTheClaimGo(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	const task = "/auth.md#write-docs"
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	const cp = "checkpoints/workers/w/000001.md"
	_, err = p.Pause(ctx, task, me, cp)
	require.NoError(t, err)
	before := filetest.Snapshot(t, root)

	for _, who := range []plan.Claimant{me, {Agent: a}} {
		_, err = p.AddEntry(ctx, task, who, journal.Entry{Type: journal.TypeProgress, Summary: "still here"})
		assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%+v", who)
		_, err = p.UpdateStatus(ctx, task, who, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
		assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%+v", who)
		_, err = p.SetApproach(ctx, task, who, "carry on")
		assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%+v", who)
	}
	assert.Equal(t, before, filetest.Snapshot(t, root), "the paused task stays in the resume queue")
	_, err = p.Pause(ctx, task, me, cp)
	require.NoError(t, err, "a retried pause")
	assert.Equal(t, before, filetest.Snapshot(t, root))

	rb, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	require.True(t, rb.Success)
	_, err = p.UpdateStatus(ctx, task, plan.Claimant{Agent: b, Token: rb.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
}

// crashBetween runs op, then puts the files under dir (root-relative,
// ".taskmd/claims" or "docs") back as they were before it: the state a
// process killed between op's two durable writes leaves behind, when op
// writes dir's file second. It reads the folder itself (filetest.Snapshot
// leaves .taskmd out) and fails the test when op wrote nothing there, so
// that no crash is only pretended.
func crashBetween(t *testing.T, root, dir string, op func()) {
	t.Helper()
	read := func() map[string]string {
		files := map[string]string{}
		base := filepath.Join(root, filepath.FromSlash(dir))
		err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if !os.IsNotExist(err) {
			require.NoError(t, err)
		}
		return files
	}
	before := read()
	op()
	after := read()
	require.NotEqual(t, before, after, "op wrote nothing under %s: there is no crash to make", dir)
	for name := range after {
		if _, ok := before[name]; !ok {
			require.NoError(t, os.Remove(filepath.Join(root, filepath.FromSlash(name))))
		}
	}
	filetest.WriteAll(t, root, before)
}

// TestClaimsCrashedBetweenTheirWrites: a claim, release, pause or revoke
// killed between its two writes (the claims file and the plan) leaves no
// claim that the two disagree on: nothing is held that the plan does not
// show, another agent claims the task at once, the old token lets nothing
// through, and a retry finishes the call.
func TestClaimsCrashedBetweenTheirWrites(t *testing.T) {
	const task = "/auth.md#write-docs"
	ops := map[string]func(p *plan.Plans, me plan.Claimant) error{
		"release": func(p *plan.Plans, me plan.Claimant) error { return p.Release(ctx, task, me) },
		"pause": func(p *plan.Plans, me plan.Claimant) error {
			_, err := p.Pause(ctx, task, me, "checkpoints/workers/w/000001.md")
			return err
		},
		"revoke": func(p *plan.Plans, me plan.Claimant) error {
			_, err := p.Revoke(ctx, task, me.Agent)
			return err
		},
	}
	for how, op := range ops {
		t.Run(how, func(t *testing.T) {
			c := newClock()
			p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
			a, b := register(t, p, "a"), register(t, p, "b")
			r, err := p.Claim(ctx, task, a)
			require.NoError(t, err)
			me := plan.Claimant{Agent: a, Token: r.Claim.Token}
			_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
			require.NoError(t, err)
			crashBetween(t, root, ".taskmd/claims", func() { require.NoError(t, op(p, me)) })
			assert.NotContains(t, filetest.Read(t, root, "docs/auth.md"), "Assignee:", "the plan was written first")

			_, err = p.AddEntry(ctx, task, me, journal.Entry{Type: journal.TypeProgress, Summary: "late"})
			assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "the plan no longer shows the claim")
			require.NoError(t, op(p, me), "the retry")
			_, err = p.UpdateStatus(ctx, task, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
			assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))

			rb, err := p.Claim(ctx, task, b)
			require.NoError(t, err)
			assert.True(t, rb.Success, "agent %s (online) holds nothing: %+v", a, rb)
			assert.Contains(t, filetest.Read(t, root, "docs/auth.md"), "- Assignee: "+b+"\n")
		})
	}
	t.Run("claim", func(t *testing.T) {
		c := newClock()
		p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
		a, b := register(t, p, "a"), register(t, p, "b")
		var lost plan.ClaimResult
		crashBetween(t, root, "docs", func() {
			var err error
			lost, err = p.Claim(ctx, task, a)
			require.NoError(t, err)
		})
		assert.NotContains(t, filetest.Read(t, root, "docs/auth.md"), "Assignee:")
		_, err := p.UpdateStatus(ctx, task, plan.Claimant{Agent: a, Token: lost.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
		assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "a claim the plan does not show is no claim")
		rb, err := p.Claim(ctx, task, b)
		require.NoError(t, err)
		assert.True(t, rb.Success)
		assert.Greater(t, rb.Claim.Token, lost.Claim.Token, "tokens only grow")
	})
}

// TestPlansDifferingOnlyInCase: where case matters, docs/Plan.md and
// docs/plan.md are two plans with claims of their own: claiming a task of
// one leaves the other's holder its claim.
func TestPlansDifferingOnlyInCase(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/plan.md": authPlan})
	if _, err := os.Stat(filepath.Join(root, "docs", "PLAN.md")); err == nil {
		t.Skip("this file system ignores case: Plan.md is plan.md")
	}
	filetest.Write(t, root, "docs/Plan.md", authPlan)
	a, b := register(t, p, "a"), register(t, p, "b")
	ra, err := p.Claim(ctx, "/plan.md#write-docs", a)
	require.NoError(t, err)
	rb, err := p.Claim(ctx, "/Plan.md#write-docs", b)
	require.NoError(t, err)
	require.True(t, rb.Success)
	assert.Equal(t, int64(1), rb.Claim.Token, "a plan of its own starts its tokens at 1")
	_, err = p.UpdateStatus(ctx, "/plan.md#write-docs", plan.Claimant{Agent: a, Token: ra.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err, "b's claim of the other plan's task leaves a's claim")
	_, err = p.UpdateStatus(ctx, "/Plan.md#write-docs", plan.Claimant{Agent: b, Token: rb.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
}

// TestCheckpointFenceSeesClaimsMadeBefore: an agent without a claim
// checkpoints a task while another agent claims and releases it over and
// over; no checkpoint of the first may land while the second holds the
// task (between the holder's own first and last entries of a hold). A
// large plan widens the window in which the fence once read a stale
// Assignee.
func TestCheckpointFenceSeesClaimsMadeBefore(t *testing.T) {
	var doc strings.Builder
	doc.WriteString("# Big\n\n## Tasks\n\n")
	for i := range 3000 {
		fmt.Fprintf(&doc, "### Task %d\n- Status: pending\n\n", i)
	}
	c := newClock()
	p, _ := setup(t, c, map[string]string{"docs/big.md": doc.String()})
	holder, loner := register(t, p, "holder"), register(t, p, "loner")
	const task = "/big.md#task-2999"
	rounds := 60
	if testing.Short() {
		rounds = 20
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = p.AddEntry(ctx, task, plan.Claimant{Agent: loner}, journal.Entry{Type: journal.TypeProgress, Summary: fmt.Sprintf("loner %d.%d", g, i)})
			}
		}()
	}
	for i := range rounds {
		r, err := p.Claim(ctx, task, holder)
		require.NoError(t, err)
		require.True(t, r.Success)
		me := plan.Claimant{Agent: holder, Token: r.Claim.Token}
		_, err = p.AddEntry(ctx, task, me, journal.Entry{Type: journal.TypeProgress, Summary: fmt.Sprintf("hold %d begins", i)})
		require.NoError(t, err)
		_, err = p.AddEntry(ctx, task, me, journal.Entry{Type: journal.TypeProgress, Summary: fmt.Sprintf("hold %d ends", i)})
		require.NoError(t, err)
		require.NoError(t, p.Release(ctx, task, me))
	}
	close(stop)
	wg.Wait()

	entries, err := p.Journal().List(ctx, task, journal.Query{})
	require.NoError(t, err)
	held := false
	loners := 0
	for i := len(entries) - 1; i >= 0; i-- { // oldest first
		e := entries[i]
		switch {
		case strings.HasSuffix(e.Summary, "begins"):
			held = true
		case strings.HasSuffix(e.Summary, "ends"):
			held = false
		case held:
			t.Errorf("entry %d (%q) of agent %s landed inside another agent's hold", e.Sequence, e.Summary, e.Agent)
		default:
			loners++
		}
	}
	t.Logf("%d rounds, %d entries of the agent without a claim between them", rounds, loners)
}

// TestReleasedAssigneeHoldsNothing: a plan whose Assignee names an agent
// whose claim the claims file records as released (the state an older
// release killed between its writes left) does not keep the task from
// another agent, although the agent named is online.
func TestReleasedAssigneeHoldsNothing(t *testing.T) {
	const task = "/auth.md#write-docs"
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a, b := register(t, p, "a"), register(t, p, "b")
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	crashBetween(t, root, "docs", func() { require.NoError(t, p.Release(ctx, task, plan.Claimant{Agent: a, Token: r.Claim.Token})) })
	require.Contains(t, filetest.Read(t, root, "docs/auth.md"), "- Assignee: "+a+"\n")
	rb, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.True(t, rb.Success, "%+v", rb)
	assert.Contains(t, filetest.Read(t, root, "docs/auth.md"), "- Assignee: "+b+"\n")
}

// TestCompletionCrashedBetweenItsWrites: a completion killed after the
// plan was written and before its claims were ends the claim all the
// same: the retry (answered without writing the plan) ends it, so a
// person may reopen the task and the holder's retries still pass.
func TestCompletionCrashedBetweenItsWrites(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	const task = "/auth.md#write-docs"
	r, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a, Token: r.Claim.Token}
	done := plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"}
	crashBetween(t, root, ".taskmd/claims", func() {
		_, err := p.UpdateStatus(ctx, task, me, done)
		require.NoError(t, err)
	})
	_, err = p.UpdateStatus(ctx, task, me, done)
	require.NoError(t, err, "the retry")
	_, err = p.AddEntry(ctx, task, plan.Claimant{Agent: a}, journal.Entry{Type: journal.TypeComplete, Summary: "done", Detail: "more"})
	require.NoError(t, err, "the holder records its outcome's detail after the completion")
	_, err = tasksOn(t, root).SetStatus(ctx, task, taskdoc.StatusPending, "")
	assert.NoError(t, err, "a person reopens the completed task: no agent holds it")
}

// writer is a claims.Writer that writes every task as one agent's claim,
// as an MCP session does.
type writer struct {
	agent string
	token int64
}

func (w writer) Claimant(string) (string, int64) { return w.agent, w.token }

// tasksOn is the task system (package subagent) on root.
func tasksOn(t *testing.T, root string, opts ...subagent.Option) *subagent.Tasks {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return subagent.New(ws, opts...)
}

// TestTaskSystemWritesFollowTheRule: the task systems (package subagent:
// start, complete, status, edit, create, remove) are fenced as plan is,
// whatever way the write is made: an edit that writes a status is that
// move, created or edited tasks wait for their dependencies, a person's
// override is the only way past either and its record is not the content
// a caller sends.
func TestTaskSystemWritesFollowTheRule(t *testing.T) {
	const task, jwt = "/auth.md#write-docs", "/auth.md#implement-jwt-signing"
	t.Run("an edit that starts work needs a claim", func(t *testing.T) {
		p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
		a := register(t, p, "a")
		actx := claims.WithWriter(ctx, writer{agent: a})
		before := filetest.Snapshot(t, root)
		_, err := tasksOn(t, root).Edit(actx, task, taskdoc.Edit{Content: "- Status: in_progress\n"})
		assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
		assert.Equal(t, before, filetest.Snapshot(t, root))
	})
	t.Run("an edit or a create into work waits for dependencies", func(t *testing.T) {
		_, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
		s := tasksOn(t, root)
		before := filetest.Snapshot(t, root)
		_, err := s.Edit(ctx, jwt, taskdoc.Edit{Content: "- Status: in_progress\n- Depends-On: #setup-oauth\n"})
		assert.Equal(t, taskdoc.CodeTaskBlocked, taskdoc.CodeOf(err))
		_, err = s.Create(ctx, "/auth.md", taskdoc.NewTask{Title: "Early", Content: "- Status: planning\n- Depends-On: #setup-oauth\n"})
		assert.Equal(t, taskdoc.CodeTaskBlocked, taskdoc.CodeOf(err))
		assert.Equal(t, before, filetest.Snapshot(t, root))
		got, err := tasksOn(t, root, subagent.WithOverride("alice")).Edit(ctx, jwt, taskdoc.Edit{Content: "- Status: in_progress\n- Depends-On: #setup-oauth\n"})
		require.NoError(t, err, "a person's override")
		forced, _ := got.Field(taskdoc.KeyForced)
		assert.Equal(t, "taken up before its dependencies were done: /auth.md#setup-oauth (pending)", forced)
	})
	t.Run("an override's record is not content", func(t *testing.T) {
		p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
		a := register(t, p, "a")
		s := tasksOn(t, root)
		before := filetest.Snapshot(t, root)
		for _, field := range []string{"- Forced: me\n", "- Override: me\n"} {
			_, err := s.Edit(claims.WithWriter(ctx, writer{agent: a}), jwt, taskdoc.Edit{Content: "- Status: pending\n- Depends-On: #setup-oauth\n" + field})
			assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err), field)
			_, err = s.Create(ctx, "/auth.md", taskdoc.NewTask{Title: "Sneaky", Content: "- Depends-On: #setup-oauth\n" + field})
			assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err), field)
		}
		assert.Equal(t, before, filetest.Snapshot(t, root))
		_, err := p.Claim(ctx, jwt, a)
		assert.Equal(t, taskdoc.CodeTaskBlocked, taskdoc.CodeOf(err))
	})
	t.Run("a person's override ends the claim on record", func(t *testing.T) {
		p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
		a := register(t, p, "a")
		r, err := p.Claim(ctx, task, a)
		require.NoError(t, err)
		old := plan.Claimant{Agent: a, Token: r.Claim.Token}
		_, err = tasksOn(t, root, subagent.WithOverride("alice")).SetStatus(ctx, task, taskdoc.StatusBlocked, "by hand")
		require.NoError(t, err)
		require.Contains(t, filetest.Read(t, root, "docs/auth.md"), "- Override: alice took it from agent "+a)
		// An Assignee is not content: an edit cannot bring it back, and
		// the ended claim stays ended.
		_, err = tasksOn(t, root).Edit(ctx, task, taskdoc.Edit{Content: "- Status: blocked\n- Assignee: " + a + "\n"})
		assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
		_, err = p.UpdateStatus(ctx, task, old, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "still mine"})
		assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "the overridden claim's token writes no more")
	})
	t.Run("a completion through the task system ends the claim", func(t *testing.T) {
		p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
		a := register(t, p, "a")
		r, err := p.Claim(ctx, task, a)
		require.NoError(t, err)
		s := tasksOn(t, root)
		_, err = s.Complete(claims.WithWriter(ctx, writer{agent: a, token: r.Claim.Token}), task, "done")
		require.NoError(t, err)
		_, err = s.SetStatus(ctx, task, taskdoc.StatusPending, "")
		require.NoError(t, err, "a person reopens a completed task no agent works on")
	})
	t.Run("a removal of a held task is its holder's or a person's", func(t *testing.T) {
		p, root := setup(t, newClock(), map[string]string{"docs/auth.md": authPlan})
		a, b := register(t, p, "a"), register(t, p, "b")
		r, err := p.Claim(ctx, task, a)
		require.NoError(t, err)
		_, err = p.UpdateStatus(ctx, task, plan.Claimant{Agent: a, Token: r.Claim.Token}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
		require.NoError(t, err)
		before := filetest.Snapshot(t, root)
		for _, who := range []context.Context{claims.WithWriter(ctx, writer{agent: b}), ctx} {
			_, err = tasksOn(t, root).Remove(who, task, taskdoc.Removal{Force: true})
			assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
		}
		assert.Equal(t, before, filetest.Snapshot(t, root))
		_, err = tasksOn(t, root, subagent.WithOverride("alice")).Remove(ctx, task, taskdoc.Removal{Force: true})
		require.NoError(t, err, "a person removes it")
		name := claims.FileOf("docs/auth.md")
		rec, err := claims.Decode("docs/auth.md", name, []byte(filetest.Read(t, root, name)))
		require.NoError(t, err)
		assert.Equal(t, "", rec.Record("write-docs").Agent, "the removed task's claim is released")
	})
}
