package gitsync_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worktree"
)

// twoPlans is a remote with two plans of 4 tasks, docs/plan.md and
// docs/other.md.
func twoPlans(t *testing.T) string {
	return newRemote(t, map[string]string{doc: planOf(4), "docs/other.md": planOf(4), ".gitignore": ".taskmd/\n"})
}

// planRef is the remote's plan ref of the docs file name, or "" when it
// has none.
func planRefOf(t *testing.T, remote, name string) string {
	key := strings.NewReplacer("/", "%2F", ".", "%2E").Replace(name)
	return strings.TrimSpace(run(t, remote, "for-each-ref", "--format=%(objectname)", "refs/taskmd/plans/main/"+key))
}

// claimedAndPushed is a remote of two plans and a machine with plan
// refs that claimed /plan.md#task-1 and brought the branch up (Push).
func claimedAndPushed(t *testing.T) (remote string, a *machine, res gitsync.ClaimResult) {
	remote = twoPlans(t)
	a = newMachine(t, remote, "a", gitsync.WithPlanRefs())
	res = a.claimPushed(t, "/plan.md#task-1")
	_, err := a.sync.Push(ctx)
	require.NoError(t, err)
	return remote, a, res
}

// personPushes is a person who clones remote, replaces old with new in
// the plan, commits and pushes to the branch; it returns the person's
// clone and the plan as pushed.
func personPushes(t *testing.T, remote, old, new string) (dir, pushed string) {
	dir = t.TempDir()
	run(t, dir, "clone", "-q", remote, ".")
	src := filetest.Read(t, dir, doc)
	pushed = strings.Replace(src, old, new, 1)
	require.NotEqual(t, src, pushed)
	filetest.Write(t, dir, doc, pushed)
	run(t, dir, "commit", "-qam", "a person's words")
	run(t, dir, "push", "-q", "origin", "main")
	return dir, pushed
}

// TestPlanRefsKeepPlansApart: with plan refs (made), a push to another plan
// between a machine's fetch and its push does not reject it (without
// them it does); a push to the same plan does, and the change is made
// again on the merged plan: one holder.
func TestPlanRefsKeepPlansApart(t *testing.T) {
	for _, tc := range []struct {
		name     string
		refs     bool
		other    string // the task the other machine claims first
		attempts int
	}{
		{"another plan, plan refs", true, "/other.md#task-1", 1},
		{"another plan, one branch", false, "/other.md#task-1", 2},
		{"the same plan, plan refs", true, "/plan.md#task-1", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			remote := twoPlans(t)
			var opts []gitsync.Option
			if tc.refs {
				opts = append(opts, gitsync.WithPlanRefs())
			}
			a := newMachine(t, remote, "a", opts...)
			b := newMachine(t, remote, "b", opts...)
			// The plans' refs are made first (with the branch, which a
			// push that races that rejects).
			for _, task := range []string{"/plan.md#task-4", "/other.md#task-4"} {
				b.claimPushed(t, task)
			}
			pushes := moveBefore(t, a, b, tc.other)
			res, err := a.sync.ClaimNext(ctx, "/plan.md", a.agent)
			require.NoError(t, err)
			require.True(t, res.Success)
			assert.True(t, res.Pushed)
			assert.Equal(t, tc.attempts, res.Attempts)
			assert.Equal(t, int32(tc.attempts), pushes.Load())
			if tc.refs {
				_, err = a.sync.Push(ctx)
				require.NoError(t, err)
			}
			// Both claims are on the remote's branch, each once.
			for _, c := range []struct{ who, task string }{{a.agent, res.Claim.Task}, {b.agent, tc.other}} {
				file, slug, _ := strings.Cut(strings.TrimPrefix(c.task, "/"), "#")
				assert.Equal(t, c.who, assigneeIn(t, remoteFile(t, remote, "docs/"+file), slug), c.task)
				assert.Equal(t, 1, strings.Count(run(t, remote, "log", "--format=%s", "main"), "claims "+c.task))
			}
			if tc.other == "/plan.md#task-1" {
				assert.Equal(t, "/plan.md#task-2", res.Claim.Task, "chosen again on the merged plan")
			}
		})
	}
}

// TestPlanRefsShareOnePlan: two machines with plan refs claiming the same
// task: exactly one holds it, on the plan ref and then the branch; the
// plan ref was made with the branch. The clones' git config allows fast
// forwards only, which taskmd's merges do not follow.
func TestPlanRefsShareOnePlan(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	for _, m := range []*machine{a, b} {
		run(t, m.dir, "config", "merge.ff", "only") // a person's setting: taskmd's merges still merge
	}
	moveBefore(t, a, b, "/plan.md#task-1")
	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.False(t, res.Success)
	assert.Equal(t, b.agent, res.AlreadyClaimedBy)
	assert.Empty(t, res.Commit)

	ref := planRefOf(t, remote, doc)
	require.NotEmpty(t, ref, "the plan's ref")
	onRef := run(t, remote, "show", ref+":"+doc)
	assert.Equal(t, b.agent, assigneeIn(t, onRef, "task-1"))
	assert.Equal(t, onRef, remoteFile(t, remote, doc), "the ref was made with the branch")
	assert.Empty(t, planRefOf(t, remote, "docs/other.md"), "a plan nobody changed has no ref")

	// Later changes go to the plan ref; Push brings the branch up to date.
	next, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
	require.NoError(t, err)
	require.True(t, next.Success)
	require.True(t, next.Pushed)
	assert.Equal(t, a.agent, assigneeIn(t, run(t, remote, "show", planRefOf(t, remote, doc)+":"+doc), "task-2"))
	_, err = b.sync.Push(ctx)
	require.NoError(t, err)
	final := remoteFile(t, remote, doc)
	assert.Equal(t, a.agent, assigneeIn(t, final, "task-2"))
	assert.Equal(t, b.agent, assigneeIn(t, final, "task-1"))
	assert.Equal(t, final, filetest.Read(t, b.dir, doc))
	n, err := b.sync.Queued(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)

	// Two plans changed apart: Push merges them (no fast forward).
	b.claimPushed(t, "/other.md#task-1")
	a.claimPushed(t, "/plan.md#task-3")
	_, err = a.sync.Push(ctx)
	require.NoError(t, err)
	assert.Equal(t, b.agent, assigneeIn(t, remoteFile(t, remote, "docs/other.md"), "task-1"))
	assert.Equal(t, b.agent, assigneeIn(t, filetest.Read(t, a.dir, "docs/other.md"), "task-1"))
}

// TestPlanRefsRefuseAClone: a clone without plan refs, whose remote has
// some, refuses its changes before it writes anything; one whose push
// races the making of a plan ref is rejected, and refuses then.
func TestPlanRefsRefuseAClone(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	c := newMachine(t, remote, "c")
	// c's first push races a's first claim, which makes the plan ref.
	moveBefore(t, c, a, "/plan.md#task-1")
	_, err := c.sync.Claim(ctx, "/plan.md#task-2", c.agent)
	var te *taskdoc.Error
	require.True(t, errors.As(err, &te), "%v", err)
	assert.Equal(t, taskdoc.CodeInvalidArguments, te.Code)
	assert.Contains(t, te.Msg, "WithPlanRefs")
	branch := remoteFile(t, remote, doc)
	assert.Equal(t, a.agent, assigneeIn(t, branch, "task-1"))
	assert.Empty(t, assigneeIn(t, branch, "task-2"), "c's claim is nowhere")
	assert.Empty(t, run(t, c.dir, "status", "--porcelain"))
	assert.NotContains(t, run(t, c.dir, "log", "--format=%s"), "claims /plan.md#task-2")

	// Refused at once now, whatever the plan.
	before := run(t, remote, "for-each-ref")
	_, err = c.sync.Claim(ctx, "/other.md#task-1", c.agent)
	require.True(t, errors.As(err, &te))
	assert.Equal(t, taskdoc.CodeInvalidArguments, te.Code)
	assert.Equal(t, before, run(t, remote, "for-each-ref"))
}

// TestPlanRefsKeepAPersonsBranchEdit: a person pushes an edit of the plan
// to the branch while machines change it on its ref: Push (or the next
// fold) merges it, and the branch, then the plan's ref, carry both; the
// person's clone follows by a fast forward.
func TestPlanRefsKeepAPersonsBranchEdit(t *testing.T) {
	remote, a, _ := claimedAndPushed(t)

	person, _ := personPushes(t, remote, "Do part 4.", "Do part 4, then tell the team.")

	a.claimPushed(t, "/plan.md#task-2")
	_, err := a.sync.Push(ctx)
	require.NoError(t, err)
	branch := remoteFile(t, remote, doc)
	assert.Contains(t, branch, "then tell the team")
	assert.Equal(t, a.agent, assigneeIn(t, branch, "task-1"))
	assert.Equal(t, a.agent, assigneeIn(t, branch, "task-2"))
	run(t, person, "pull", "-q", "--ff-only")
	assert.Equal(t, branch, filetest.Read(t, person, doc), "the person's clone follows by a fast forward")

	a.claimPushed(t, "/plan.md#task-3")
	onRef := run(t, remote, "show", planRefOf(t, remote, doc)+":"+doc)
	assert.Contains(t, onRef, "then tell the team", "the plan's ref has the person's edit")
	assert.Equal(t, a.agent, assigneeIn(t, onRef, "task-3"))
}

// TestPlanRefsOffline: a claim made while the remote is away is queued;
// when another machine claimed the task on its plan ref meanwhile, the
// next call (in another plan than a queued change's) gives the queued
// claim up (Released) and confirms the others.
func TestPlanRefsOffline(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	away := remote + ".away"
	require.NoError(t, os.Rename(remote, away))
	one, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	require.True(t, one.Queued)
	two, err := a.sync.Claim(ctx, "/other.md#task-1", a.agent)
	require.NoError(t, err)
	require.True(t, two.Queued)
	n, err := a.sync.Queued(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	require.NoError(t, os.Rename(away, remote))

	// Meanwhile b claims one of the tasks, and moves the other plan's ref.
	for _, task := range []string{"/plan.md#task-1", "/other.md#task-2"} {
		b.claimPushed(t, task)
	}
	// a's next call, in the first plan, sends the queue too.
	bounded, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	three, err := a.sync.Claim(bounded, "/plan.md#task-3", a.agent)
	require.NoError(t, err)
	assert.True(t, three.Pushed)
	assert.Equal(t, map[string]string{"/plan.md#task-1": b.agent}, three.Released)
	rep, err := a.sync.Push(ctx)
	require.NoError(t, err)
	assert.Empty(t, rep.Released)
	assert.Equal(t, b.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-3"))
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, "docs/other.md"), "task-1"))
	assert.Equal(t, b.agent, assigneeIn(t, remoteFile(t, remote, "docs/other.md"), "task-2"))
	assert.NotEmpty(t, planRefOf(t, remote, "docs/other.md"))
	n, err = a.sync.Queued(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
}

// TestPlanRefsConflictWithAPerson: a person's push to the branch sets a
// task's status that a machine set otherwise on the plan's ref: Push is
// MERGE_CONFLICT naming it and merges nothing, the branch keeps the
// person's words, and the machines go on on the plan refs.
func TestPlanRefsConflictWithAPerson(t *testing.T) {
	remote, a, res := claimedAndPushed(t)

	_, blocked := personPushes(t, remote, "- Status: pending\n- Assignee: "+a.agent, "- Status: blocked\n- Assignee: "+a.agent)

	_, err := a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: res.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	bounded, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	_, err = a.sync.Push(bounded)
	assert.Equal(t, "MERGE_CONFLICT", string(taskdoc.CodeOf(err)), "%v", err)
	assert.Contains(t, err.Error(), "task-1")
	assert.Equal(t, blocked, remoteFile(t, remote, doc), "the branch keeps the person's words")
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))

	next, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
	require.NoError(t, err)
	assert.True(t, next.Pushed, "the machines go on on the plan refs")
}

// pushAs pushes the refspec that spec makes in a clone of remote of its
// own, as anyone with push access may.
func pushAs(t *testing.T, remote string, spec func(dir string) string) {
	dir := t.TempDir()
	run(t, dir, "clone", "-q", remote, ".")
	run(t, dir, "push", "-q", "-f", "origin", spec(dir))
}

// TestPlanRefsRefusedForGood: a plan ref the remote refuses to move for
// good (it names a blob or a tag, or a ref is nested under its name) is
// GIT_ERROR with git's message, at once: neither queued as if the remote
// were away nor tried again until the context ends; the call changes
// nothing, and the other plans go on.
func TestPlanRefsRefusedForGood(t *testing.T) {
	for _, tc := range []struct {
		name    string
		refspec func(dir string) string
		says    string
	}{
		{"a blob", func(dir string) string {
			return strings.TrimSpace(runInput(t, dir, "not a plan\n", "hash-object", "-w", "--stdin")) + ":refs/taskmd/plans/main/docs%2Fother%2Emd"
		}, "non-commit object"},
		{"a ref under its name", func(string) string { return "main:refs/taskmd/plans/main/docs%2Fother%2Emd/x" }, "cannot create"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			remote := twoPlans(t)
			a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
			pushAs(t, remote, tc.refspec)
			head := run(t, a.dir, "rev-parse", "HEAD")
			before := run(t, remote, "for-each-ref")

			bounded, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			start := time.Now()
			res, err := a.sync.Claim(bounded, "/other.md#task-1", a.agent)
			require.Error(t, err, "%+v", res)
			assert.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err), "%v", err)
			assert.Contains(t, err.Error(), tc.says)
			assert.Less(t, time.Since(start), 20*time.Second, "refused at once")
			assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"), "nothing committed")
			assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
			assert.Equal(t, before, run(t, remote, "for-each-ref"))
			n, err := a.sync.Queued(ctx)
			require.NoError(t, err)
			assert.Zero(t, n, "nothing queued")

			res, err = a.sync.Claim(bounded, "/plan.md#task-1", a.agent)
			require.NoError(t, err)
			assert.True(t, res.Pushed, "the other plans go on")
		})
	}
}

// TestPlanRefsPushGivenUp: a caller who gives up while Push brings the
// branch up to the plan refs is answered as any call given up (CONFLICT,
// the context's error), not with the stopped git command as a failure of
// git's; the branch is then brought up by the next Push.
func TestPlanRefsPushGivenUp(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	gitsync.FoldAfter(a.sync, time.Hour) // the branch lags behind the plan's ref
	for _, task := range []string{"/plan.md#task-1", "/plan.md#task-2"} {
		a.claimPushed(t, task)
	}
	require.NotEqual(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-2"), "the branch lags")
	// The remote takes its time over a push to the branch.
	hook := remoteHook(t, remote, "pre-receive", "#!/bin/sh\nif grep -q ' refs/heads/main$'; then sleep 3; fi\n")
	bounded, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := a.sync.Push(bounded)
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err), "%v", err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))

	require.NoError(t, os.Remove(hook))
	_, err = a.sync.Push(ctx)
	require.NoError(t, err)
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-2"))
}

// TestPlanRefsPushOffline: Push while the remote is away, on a clone that
// fetched another plan's ref without merging it (its batches merge only
// their own plans), and a person's uncommitted edit of that plan: Push
// says the remote is away, merges nothing and keeps the edit.
func TestPlanRefsPushOffline(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	gitsync.FoldAfter(a.sync, time.Hour) // a merges no other plan by itself
	for _, m := range []*machine{a, b} {
		m.claimPushed(t, "/"+strings.TrimPrefix(map[*machine]string{a: doc, b: "docs/other.md"}[m], "docs/")+"#task-1")
	}
	a.claimPushed(t, "/plan.md#task-2")
	require.NotContains(t, filetest.Read(t, a.dir, "docs/other.md"), b.agent, "a has not merged b's plan")

	edited := filetest.Read(t, a.dir, "docs/other.md") + "\nA person's note.\n"
	filetest.Write(t, a.dir, "docs/other.md", edited)
	head := run(t, a.dir, "rev-parse", "HEAD")
	require.NoError(t, os.Rename(remote, remote+".away"))
	rep, err := a.sync.Push(ctx)
	require.NoError(t, err)
	assert.NotEmpty(t, rep.Offline)
	assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"), "nothing merged")
	assert.Equal(t, edited, filetest.Read(t, a.dir, "docs/other.md"))
}

// TestPlanRefsOnlyPlans: refs under the branch's plan refs that are no
// plan's (a key of a file outside docs/, a ref of a longer branch's,
// feature/x's under feature's) are not merged: Push leaves their files
// out of the clone and the branch.
func TestPlanRefsOnlyPlans(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	_, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	for _, ref := range []string{"NOTES%2Emd", "x/docs%2Fplan%2Emd", "docs%2fplan%2emd"} {
		pushAs(t, remote, func(dir string) string {
			filetest.Write(t, dir, "NOTES.md", ref+"\n")
			run(t, dir, "add", "-A")
			run(t, dir, "commit", "-qm", "not a plan's")
			return "HEAD:refs/taskmd/plans/main/" + ref
		})
	}
	_, err = a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
	require.NoError(t, err)
	_, err = a.sync.Push(ctx)
	require.NoError(t, err)
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-2"))
	assert.NoFileExists(t, filepath.Join(a.dir, "NOTES.md"))
	assert.NotContains(t, run(t, remote, "ls-tree", "--name-only", "main"), "NOTES.md")
}

// TestPlanRefsPushAfterHEADMovedBack: a person moves the clone's HEAD
// back past a claim that landed on the plan's ref: Push still brings
// the remote's branch up to the plan's ref, claim included.
func TestPlanRefsPushAfterHEADMovedBack(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	for _, task := range []string{"/plan.md#task-1", "/plan.md#task-2"} {
		a.claimPushed(t, task)
	}
	onRef := run(t, remote, "show", planRefOf(t, remote, doc)+":"+doc)
	require.Equal(t, a.agent, assigneeIn(t, onRef, "task-2"))
	run(t, a.dir, "reset", "-q", "--hard", "HEAD~1")

	_, err := a.sync.Push(ctx)
	require.NoError(t, err)
	branch := remoteFile(t, remote, doc)
	assert.Equal(t, a.agent, assigneeIn(t, branch, "task-1"))
	assert.Equal(t, a.agent, assigneeIn(t, branch, "task-2"), "the plan ref's claim reaches the branch")
	assert.Equal(t, branch, filetest.Read(t, a.dir, doc))
}

// TestPlanRefsDependencyInAnotherPlan: a task whose dependency, in
// another plan, was completed on that plan's ref is claimed: the claim
// reads the other plan as its ref has it.
func TestPlanRefsDependencyInAnotherPlan(t *testing.T) {
	dependent := strings.Replace(planOf(2), "### Task 1\n- Status: pending\n",
		"### Task 1\n- Status: pending\n- Depends-On: /other.md#task-1\n", 1)
	remote := newRemote(t, map[string]string{doc: dependent, "docs/other.md": planOf(2), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	// Both plans have refs, and a's clone has merged them.
	for _, task := range []string{"/plan.md#task-2", "/other.md#task-2"} {
		a.claimPushed(t, task)
	}
	_, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.Equal(t, "TASK_BLOCKED", string(taskdoc.CodeOf(err)), "%v", err)

	// b completes the dependency on the other plan's ref.
	res := b.claimPushed(t, "/other.md#task-1")
	for _, u := range []plan.StatusUpdate{{Status: taskdoc.StatusInProgress}, {Status: taskdoc.StatusCompleted, Note: "done"}} {
		_, err = b.sync.UpdateStatus(ctx, "/other.md#task-1", plan.Claimant{Agent: b.agent, Token: res.Claim.Token}, u)
		require.NoError(t, err)
	}
	onRef := run(t, remote, "show", planRefOf(t, remote, "docs/other.md")+":docs/other.md")
	require.Contains(t, onRef, "- Status: completed")

	claim, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err, "the dependency is done on its plan's ref")
	assert.True(t, claim.Success)
	assert.True(t, claim.Pushed)
}

// TestPlanRefsYieldKeepsAPersonsEdit: a clone merged a person's edit of a
// task from the branch, then queued its claim of the task offline, and
// another machine claimed it first on the plan's ref: the queued claim is
// given up (Released), the person's edit is not, on the plan's ref nor
// the branch.
func TestPlanRefsYieldKeepsAPersonsEdit(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	a.claimPushed(t, "/plan.md#task-4")

	personPushes(t, remote, "Do part 1.", "Do part 1, then tell the team.")
	_, err := a.sync.Push(ctx) // a's clone has the person's edit
	require.NoError(t, err)
	require.Contains(t, filetest.Read(t, a.dir, doc), "then tell the team")

	away := remote + ".away"
	require.NoError(t, os.Rename(remote, away))
	queued, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	require.True(t, queued.Queued)
	require.NoError(t, os.Rename(away, remote))
	b.claimPushed(t, "/plan.md#task-1")

	bounded, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	rep, err := a.sync.Push(bounded)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"/plan.md#task-1": b.agent}, rep.Released)
	branch := remoteFile(t, remote, doc)
	assert.Equal(t, b.agent, assigneeIn(t, branch, "task-1"))
	assert.Contains(t, branch, "then tell the team", "the person's edit stays on the branch")
	a.claimPushed(t, "/plan.md#task-2")
	onRef := run(t, remote, "show", planRefOf(t, remote, doc)+":"+doc)
	assert.Contains(t, onRef, "then tell the team", "the person's edit reaches the plan's ref")
}

// TestPlanRefsBatchOfTwoPlansIsRejectedWhole: a batch whose calls change
// two plans pushes both refs all or none: when another machine moved one
// of them, the other ref does not take the batch's change either, and
// both changes are made again.
func TestPlanRefsBatchOfTwoPlansIsRejectedWhole(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	for _, task := range []string{"/plan.md#task-4", "/other.md#task-4"} {
		b.claimPushed(t, task)
	}
	type result struct {
		res gitsync.ClaimResult
		err error
	}
	second := make(chan result, 1)
	var (
		pushes      atomic.Int32
		hookErrs    []error
		otherBefore string // other.md on its ref when the two-plan batch pushes again
	)
	gitsync.BeforePush(a.sync, func() {
		switch pushes.Add(1) {
		case 1: // a call in the other plan waits, and b moves the first plan
			go func() {
				res, err := a.sync.Claim(ctx, "/other.md#task-1", a.agent)
				second <- result{res, err}
			}()
			for gitsync.Waiting(a.sync) == 0 {
				time.Sleep(time.Millisecond)
			}
			_, err := b.sync.Claim(ctx, "/plan.md#task-3", b.agent)
			hookErrs = append(hookErrs, err)
		case 2: // both calls in the batch: b moves the first plan again
			_, err := b.sync.Claim(ctx, "/plan.md#task-2", b.agent)
			hookErrs = append(hookErrs, err)
		case 3:
			otherBefore = run(t, remote, "show", planRefOf(t, remote, "docs/other.md")+":docs/other.md")
		}
	})
	one, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	two := <-second
	require.NoError(t, two.err)
	for _, err := range hookErrs {
		require.NoError(t, err)
	}
	assert.True(t, one.Pushed)
	assert.True(t, two.res.Pushed)
	assert.Equal(t, 3, one.Attempts)
	assert.Equal(t, 2, two.res.Attempts)
	assert.Equal(t, int32(3), pushes.Load())
	assert.Empty(t, assigneeIn(t, otherBefore, "task-1"), "the rejected batch's change of the other plan did not land on its ref")

	_, err = a.sync.Push(ctx)
	require.NoError(t, err)
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, "docs/other.md"), "task-1"))
	for _, name := range []string{doc, "docs/other.md"} {
		assert.Equal(t, 1, strings.Count(run(t, remote, "log", "--format=%s", "main"), "claims /"+strings.TrimPrefix(name, "docs/")+"#task-1"))
	}
}

// TestPlanRefsPushAnswersForItsQueue: Push sends a queue with a change
// that gave way, and a person pushes the branch before Push brings it up
// to the plan refs, so that Push brings it up again: its answer still
// says that the queue was pushed and names the task given up.
func TestPlanRefsPushAnswersForItsQueue(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	gitsync.FoldAfter(a.sync, time.Hour)
	res := a.claimPushed(t, "/plan.md#task-1")
	require.NoError(t, os.Rename(remote, remote+".away"))
	res, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
	require.NoError(t, err)
	require.True(t, res.Queued)
	require.NoError(t, os.Rename(remote+".away", remote))
	res = b.claimPushed(t, "/plan.md#task-2")

	// Once a plan ref moves, a person moves the branch (once).
	remoteHook(t, remote, "post-receive", `#!/bin/sh
grep -q ' refs/taskmd/plans/' || exit 0
[ -e person ] && exit 0
touch person
c=$(git commit-tree main^{tree} -p main -m "a person's commit") && git update-ref refs/heads/main "$c"
`)

	bounded, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	rep, err := a.sync.Push(bounded)
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(remote, "person"), "the person pushed")
	assert.True(t, rep.Pushed, "the queue was pushed")
	assert.Equal(t, map[string]string{"/plan.md#task-2": b.agent}, rep.Released)
	assert.Equal(t, b.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-2"))
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	n, err := a.sync.Queued(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
}

// TestPlanRefsPushMaxAttempts: with WithMaxAttempts, Push that brings the
// branch up to the plan refs while people keep moving the branch gives up
// after as many attempts: CONFLICT, before its context ends.
func TestPlanRefsPushMaxAttempts(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs(), gitsync.WithMaxAttempts(3))
	gitsync.FoldAfter(a.sync, time.Hour)
	a.claimPushed(t, "/plan.md#task-1")
	a.claimPushed(t, "/plan.md#task-2")

	// From now on, a person moves the branch under every push to it.
	remoteHook(t, remote, "pre-receive", `#!/bin/sh
grep -q ' refs/heads/main$' || exit 0
unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
c=$(git commit-tree main^{tree} -p main -m "a person's commit") && git update-ref refs/heads/main "$c"
echo >> moves
`)

	bounded, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err := a.sync.Push(bounded)
	require.Error(t, err)
	require.NoError(t, bounded.Err(), "Push gave up before its context ended")
	var te *taskdoc.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, taskdoc.CodeConflict, te.Code)
	assert.Equal(t, "\n\n\n", filetest.Read(t, remote, "moves"), "three attempts")
}

// TestPlanRefsConflictWithAPersonAndADependency: as in
// TestPlanRefsConflictWithAPerson, with a task of the plan depending on a
// plan that has no ref (its changes are on the branch alone): the
// machines still go on on the plan refs, the dependency read as last
// merged.
func TestPlanRefsConflictWithAPersonAndADependency(t *testing.T) {
	dependent := strings.Replace(planOf(4), "### Task 4\n- Status: pending\n",
		"### Task 4\n- Status: pending\n- Depends-On: /third.md#task-1\n", 1)
	remote := newRemote(t, map[string]string{doc: dependent, "docs/third.md": planOf(2), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	res := a.claimPushed(t, "/plan.md#task-1")
	_, err := a.sync.Push(ctx)
	require.NoError(t, err)
	require.Empty(t, planRefOf(t, remote, "docs/third.md"))

	gitsync.FoldAfter(a.sync, time.Hour) // the branch lags behind the plan ref
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: res.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	personPushes(t, remote, "- Status: pending\n- Assignee: "+a.agent, "- Status: blocked\n- Assignee: "+a.agent)

	next, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
	require.NoError(t, err)
	assert.True(t, next.Pushed, "the machines go on on the plan refs")
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
}

// TestPlanRefsFollowAFutureCommit: a person's commit on the branch dated
// an hour ahead (a clock ahead) does not stop the branch from following
// the plan refs: once it has been there for the fold's interval, the next
// landed push brings the branch up, without Push.
func TestPlanRefsFollowAFutureCommit(t *testing.T) {
	remote, a, _ := claimedAndPushed(t)
	gitsync.FoldAfter(a.sync, 200*time.Millisecond)
	person := t.TempDir()
	run(t, person, "clone", "-q", remote, ".")
	filetest.Write(t, person, "notes.txt", "a person's note\n")
	run(t, person, "add", "notes.txt")
	cmd := exec.Command("git", "commit", "-qm", "a person's note, dated ahead")
	cmd.Dir, cmd.Env = person, append(gitEnv(), "GIT_COMMITTER_DATE="+time.Now().Add(time.Hour).Format(time.RFC3339))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	run(t, person, "push", "-q", "origin", "main")

	a.claimPushed(t, "/plan.md#task-2")
	time.Sleep(300 * time.Millisecond)
	a.claimPushed(t, "/plan.md#task-3")
	branch := remoteFile(t, remote, doc)
	assert.Equal(t, a.agent, assigneeIn(t, branch, "task-2"), "the branch followed")
	assert.Equal(t, a.agent, assigneeIn(t, branch, "task-3"))
	assert.Equal(t, "a person's note\n", remoteFile(t, remote, "notes.txt"))
}

// TestPlanRefsDeleted: plan refs deleted on the remote (to go back to
// one branch) are gone from each clone at its next fetch: a clone without
// plan refs, refused while they were there, then shares on the branch; a
// clone with them makes the plan's ref again, with the branch.
func TestPlanRefsDeleted(t *testing.T) {
	remote, a, _ := claimedAndPushed(t)
	b := newMachine(t, remote, "b")
	_, err := b.sync.Claim(ctx, "/plan.md#task-2", b.agent)
	require.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), "%v", err)

	key := strings.TrimPrefix(strings.TrimSpace(run(t, remote, "for-each-ref", "--format=%(refname)", "refs/taskmd/plans/")), "refs/taskmd/plans/main/")
	require.Equal(t, "docs%2Fplan%2Emd", key)
	run(t, b.dir, "push", "-q", "origin", "--delete", "refs/taskmd/plans/main/"+key)
	res, err := b.sync.Claim(ctx, "/plan.md#task-2", b.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	assert.Equal(t, b.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-2"))
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	assert.Empty(t, planRefOf(t, remote, doc))

	res, err = a.sync.Claim(ctx, "/plan.md#task-3", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-3"), "the plan's ref is made with the branch")
	assert.Equal(t, strings.TrimSpace(run(t, remote, "rev-parse", "main")), planRefOf(t, remote, doc))
	_, err = b.sync.Claim(ctx, "/plan.md#task-4", b.agent)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), "%v", err)
}

// TestPlanRefsConflictOnAnotherPlansRef: a person's edit on the branch
// sets a task's status that a machine set otherwise on its plan's ref,
// and another machine carries the edit onto another plan's ref (a plan
// ref carries whole commits). Push merging that ref does not give up the
// machine's change, pushed and confirmed, for the person's: it is
// MERGE_CONFLICT and merges nothing, and both refs keep their words.
func TestPlanRefsConflictOnAnotherPlansRef(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	gitsync.FoldAfter(a.sync, time.Hour)
	gitsync.FoldAfter(b.sync, time.Hour)
	res := a.claimPushed(t, "/plan.md#task-1")
	_, err := a.sync.Push(ctx)
	require.NoError(t, err)
	st, err := a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: res.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	require.True(t, st.Pushed)
	_, blocked := personPushes(t, remote, "- Status: pending\n- Assignee: "+a.agent, "- Status: blocked\n- Assignee: "+a.agent)
	b.claimPushed(t, "/other.md#task-1") // its plan's ref is made with the branch
	onRef := run(t, remote, "show", planRefOf(t, remote, "docs/other.md")+":"+doc)
	require.Equal(t, blocked, onRef, "the other plan's ref carries the person's edit")

	head := run(t, a.dir, "rev-parse", "HEAD")
	rep, err := a.sync.Push(ctx)
	assert.Equal(t, "MERGE_CONFLICT", string(taskdoc.CodeOf(err)), "%v", err)
	assert.Empty(t, rep.Released)
	assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"), "nothing merged")
	assert.Equal(t, taskdoc.StatusInProgress, taskIn(t, filetest.Read(t, a.dir, doc), "task-1").Status)
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
	onPlanRef := run(t, remote, "show", planRefOf(t, remote, doc)+":"+doc)
	assert.Equal(t, taskdoc.StatusInProgress, taskIn(t, onPlanRef, "task-1").Status, "the plan's ref keeps the machine's change")
	assert.Equal(t, blocked, remoteFile(t, remote, doc), "the branch keeps the person's words")
}

// TestPlanRefsConflictMergesNothing: Push that stops at a person's
// conflicting edit on the branch merges nothing, not even the plan refs
// merged before the branch: the clone's HEAD and files are as they were.
func TestPlanRefsConflictMergesNothing(t *testing.T) {
	remote := twoPlans(t)
	a := newMachine(t, remote, "a", gitsync.WithPlanRefs())
	b := newMachine(t, remote, "b", gitsync.WithPlanRefs())
	gitsync.FoldAfter(a.sync, time.Hour)
	gitsync.FoldAfter(b.sync, time.Hour)
	for _, m := range []*machine{a, b} {
		task := map[*machine]string{a: "/plan.md#task-1", b: "/other.md#task-1"}[m]
		m.claimPushed(t, task)
	}
	_, err := a.sync.Push(ctx)
	require.NoError(t, err)
	_, blocked := personPushes(t, remote, "- Status: pending\n- Assignee: "+a.agent, "- Status: blocked\n- Assignee: "+a.agent)
	a.claimPushed(t, "/plan.md#task-2") // on the plan's ref, the branch left behind
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: 1},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	b.claimPushed(t, "/other.md#task-2") // on the other plan's ref

	head := run(t, a.dir, "rev-parse", "HEAD")
	before := filetest.Read(t, a.dir, "docs/other.md")
	_, err = a.sync.Push(ctx)
	require.Equal(t, "MERGE_CONFLICT", string(taskdoc.CodeOf(err)), "%v", err)
	assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"), "nothing merged")
	assert.Equal(t, before, filetest.Read(t, a.dir, "docs/other.md"))
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
	assert.Equal(t, blocked, remoteFile(t, remote, doc))

	// The machines go on on the plan refs.
	next, err := a.sync.Claim(ctx, "/other.md#task-3", a.agent)
	require.NoError(t, err)
	assert.True(t, next.Pushed)
	assert.Equal(t, b.agent, assigneeIn(t, filetest.Read(t, a.dir, "docs/other.md"), "task-2"))
}
