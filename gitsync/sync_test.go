package gitsync_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/merge"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
	"github.com/taskmd/taskmd/worktree"
)

const doc = "docs/plan.md"

func TestClaimCommitsAndPushes(t *testing.T) {
	// The remote has the .gitignore rule, so the clones commit nothing of
	// their own: b's refused claim has nothing to push. (Had both clones
	// committed the rule in different seconds, b would merge a's and push
	// the merge.)
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")

	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.True(t, res.Pushed)
	assert.False(t, res.Queued)
	assert.Equal(t, 1, res.Attempts)
	require.NotEmpty(t, res.Commit)
	assert.Equal(t, res.Commit+"\n", run(t, remote, "rev-parse", "main"))
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	// Only the task's Assignee line was added.
	want := strings.Replace(planOf(3), "### Task 1\n- Status: pending\n", "### Task 1\n- Status: pending\n- Assignee: agent-a\n", 1)
	assert.Equal(t, want, remoteFile(t, remote, doc))
	assert.Equal(t, "docs/plan.md\n", run(t, a.dir, "diff-tree", "--no-commit-id", "--name-only", "-r", res.Commit))

	// The other machine fetches before it claims: the task is held there.
	other, err := b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	assert.False(t, other.Success)
	assert.Equal(t, a.agent, other.AlreadyClaimedBy)
	assert.Empty(t, other.Commit)
	assert.False(t, other.Pushed)
	assert.Equal(t, want, filetest.Read(t, b.dir, doc), "b's clone has a's claim")

	// A retried claim commits nothing.
	again, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, again.Success)
	assert.Equal(t, res.Claim.Token, again.Claim.Token)
	assert.Empty(t, again.Commit)
	assert.Equal(t, res.Commit+"\n", run(t, remote, "rev-parse", "main"))
}

func TestCompleteIsShared(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3)})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	claim, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
	require.NoError(t, err)
	c := plan.Claimant{Agent: a.agent, Token: claim.Claim.Token}
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-2", c, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	done, err := a.sync.UpdateStatus(ctx, "/plan.md#task-2", c, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "Part 2 done."})
	require.NoError(t, err)
	assert.True(t, done.Pushed)
	assert.Equal(t, taskdoc.StatusCompleted, done.Task.Status)
	assert.Equal(t, taskdoc.StatusCompleted, taskIn(t, remoteFile(t, remote, doc), "task-2").Status)

	// A retried completion writes nothing and commits nothing.
	head := run(t, remote, "rev-parse", "main")
	again, err := a.sync.UpdateStatus(ctx, "/plan.md#task-2", c, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "Part 2 done."})
	require.NoError(t, err)
	assert.Empty(t, again.Commit)
	assert.Equal(t, head, run(t, remote, "rev-parse", "main"))

	// On the other machine the task is done: nothing is left to claim.
	_, err = b.sync.Claim(ctx, "/plan.md#task-2", b.agent)
	assert.Equal(t, taskdoc.CodeInvalidTransition, taskdoc.CodeOf(err))
	assert.Equal(t, taskdoc.StatusCompleted, taskIn(t, filetest.Read(t, b.dir, doc), "task-2").Status)
}

// TestRejectedPushSameTask: between b's commit and its push, a claims the
// same task and pushes. b's push is rejected; b takes its claim back,
// merges, sees a's claim and says so: one holder.
func TestRejectedPushSameTask(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3)})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	moveBefore(t, b, a, "/plan.md#task-1")
	res, err := b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	assert.False(t, res.Success)
	assert.Equal(t, a.agent, res.AlreadyClaimedBy)
	assert.Equal(t, 2, res.Attempts)
	assert.Empty(t, res.Commit)
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	assert.Equal(t, a.agent, assigneeIn(t, filetest.Read(t, b.dir, doc), "task-1"))
	assert.Equal(t, run(t, remote, "rev-parse", "main"), run(t, b.dir, "rev-parse", "HEAD"), "b has nothing of its own left")
	assert.Empty(t, run(t, b.dir, "status", "--porcelain"))

	// b's local claim holds nothing: the Assignee names a.
	_, err = b.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: b.agent, Token: 1}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
}

// TestRejectedPushOtherTask: the remote moved with a claim of another
// task; b merges and pushes its own: both land.
func TestRejectedPushOtherTask(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3)})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	moveBefore(t, b, a, "/plan.md#task-1")
	res, err := b.sync.Claim(ctx, "/plan.md#task-3", b.agent)
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.True(t, res.Pushed)
	assert.Equal(t, 2, res.Attempts)
	got := remoteFile(t, remote, doc)
	assert.Equal(t, a.agent, assigneeIn(t, got, "task-1"))
	assert.Equal(t, b.agent, assigneeIn(t, got, "task-3"))
	want := strings.Replace(planOf(3), "### Task 1\n- Status: pending\n", "### Task 1\n- Status: pending\n- Assignee: agent-a\n", 1)
	want = strings.Replace(want, "### Task 3\n- Status: pending\n", "### Task 3\n- Status: pending\n- Assignee: agent-b\n", 1)
	assert.Equal(t, want, got)
}

// TestDivergedMergesTaskByTask: b made a commit of its own that the
// remote has not (a task completed offline) while a pushed the
// completion of a neighbouring task: b's next claim merges both, by
// task, with no conflict.
func TestDivergedMergesTaskByTask(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3)})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	run(t, b.dir, "remote", "set-url", "origin", filepath.Join(t.TempDir(), "gone.git"))
	queued, err := b.sync.Claim(ctx, "/plan.md#task-2", b.agent)
	require.NoError(t, err)
	assert.True(t, queued.Queued)
	run(t, b.dir, "remote", "set-url", "origin", remote)
	claim, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: claim.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "Part 1 done."})
	require.NoError(t, err)

	res, err := b.sync.Claim(ctx, "/plan.md#task-3", b.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	got := remoteFile(t, remote, doc)
	assert.Equal(t, taskdoc.StatusCompleted, taskIn(t, got, "task-1").Status)
	assert.Equal(t, b.agent, assigneeIn(t, got, "task-2"))
	assert.Equal(t, b.agent, assigneeIn(t, got, "task-3"))
	n, err := b.sync.Queued(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
}

func TestOfflineQueuesThenPushes(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3)})
	a := newMachine(t, remote, "a")
	run(t, a.dir, "remote", "set-url", "origin", filepath.Join(t.TempDir(), "unreachable.git"))
	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.True(t, res.Queued)
	assert.False(t, res.Pushed)
	assert.NotEmpty(t, res.Offline)
	assert.NotEmpty(t, res.Commit)
	n, err := a.sync.Queued(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the claim, and the .gitignore rule New committed")
	assert.Empty(t, assigneeIn(t, remoteFile(t, remote, doc), "task-1"), "the remote has not seen it")

	// Still offline: Push says so again, and keeps the queue.
	rep, err := a.sync.Push(ctx)
	require.NoError(t, err)
	assert.True(t, rep.Queued)

	run(t, a.dir, "remote", "set-url", "origin", remote)
	rep, err = a.sync.Push(ctx)
	require.NoError(t, err)
	assert.True(t, rep.Pushed)
	assert.False(t, rep.Queued)
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	n, err = a.sync.Queued(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
}

// The first push to a remote with no branch yet leaves nothing queued,
// on one branch and with plan refs.
func TestFirstPushToAnEmptyRemote(t *testing.T) {
	for _, opts := range [][]gitsync.Option{nil, {gitsync.WithPlanRefs()}} {
		remote, dir := firstCommit(t, map[string]string{doc: planOf(1)})
		a := openMachine(t, dir, "a", opts...)
		res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
		require.NoError(t, err)
		assert.True(t, res.Pushed)
		n, err := a.sync.Queued(ctx)
		require.NoError(t, err)
		assert.Zero(t, n)
		assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	}
}

// TestOfflineClaimMeetsAnother: a claimed two tasks offline while b
// claimed one of them online. a's Push gives up a's claim of that task,
// since b's was pushed first, and says so; it confirms the other. a's
// agent is refused on the claim it gave up, and nothing is left for a
// person to settle.
func TestOfflineClaimMeetsAnother(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"}) // the clones commit nothing of their own
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	run(t, a.dir, "remote", "set-url", "origin", filepath.Join(t.TempDir(), "unreachable.git"))
	lost, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	require.True(t, lost.Queued)
	kept, err := a.sync.Claim(ctx, "/plan.md#task-3", a.agent)
	require.NoError(t, err)
	_, err = b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	run(t, a.dir, "remote", "set-url", "origin", remote)

	rep, err := a.sync.Push(ctx)
	require.NoError(t, err)
	assert.True(t, rep.Pushed)
	assert.Equal(t, map[string]string{"/plan.md#task-1": b.agent}, rep.Released)
	final := remoteFile(t, remote, doc)
	assert.Equal(t, b.agent, assigneeIn(t, final, "task-1"))
	assert.Equal(t, a.agent, assigneeIn(t, final, "task-3"), "the other queued claim is confirmed")
	assert.Equal(t, final, filetest.Read(t, a.dir, doc))
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
	n, err := a.sync.Queued(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)

	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: lost.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	done, err := a.sync.UpdateStatus(ctx, "/plan.md#task-3", plan.Claimant{Agent: a.agent, Token: kept.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	assert.True(t, done.Pushed)
}

// TestPersonEditSurvives: a person's uncommitted edits of the document
// (another task's body) and of another file stay in the working tree,
// uncommitted; the commit holds the claim alone.
func TestPersonEditSurvives(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), "notes.txt": "one\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	_, err := b.sync.Claim(ctx, "/plan.md#task-3", b.agent) // the remote moves
	require.NoError(t, err)

	edited := strings.Replace(planOf(3), "Do part 2.", "Do part 2, carefully.", 1)
	filetest.Write(t, a.dir, doc, edited)
	filetest.Write(t, a.dir, "notes.txt", "one\ntwo\n")
	res := a.claimPushed(t, "/plan.md#task-1")
	assert.Empty(t, res.Conflicts)
	assert.Empty(t, res.Stash)

	committed := remoteFile(t, remote, doc)
	assert.Contains(t, committed, "Do part 2.\n", "the person's edit is not committed")
	assert.Equal(t, a.agent, assigneeIn(t, committed, "task-1"))
	assert.Equal(t, "one\n", remoteFile(t, remote, "notes.txt"))

	// The working tree has the claims of both machines and the edits.
	want := strings.Replace(committed, "Do part 2.", "Do part 2, carefully.", 1)
	assert.Equal(t, want, filetest.Read(t, a.dir, doc))
	assert.Equal(t, "one\ntwo\n", filetest.Read(t, a.dir, "notes.txt"))
	assert.Equal(t, " M docs/plan.md\n M notes.txt\n", run(t, a.dir, "status", "--porcelain", "-uno"))
	assert.Empty(t, run(t, a.dir, "stash", "list"))
}

// TestPersonEditOnSameLine: the person's uncommitted edit and the merged
// change touch the same field: the file holds conflict markers, the
// change is shared, and the edit is kept in the stash.
func TestPersonEditOnSameLine(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3)})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	_, err := b.sync.Claim(ctx, "/plan.md#task-2", b.agent)
	require.NoError(t, err)
	filetest.Write(t, a.dir, doc, strings.Replace(planOf(3), "### Task 2\n- Status: pending\n", "### Task 2\n- Status: pending\n- Assignee: someone\n", 1))

	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	assert.Equal(t, []string{doc}, res.Conflicts)
	assert.NotEmpty(t, res.Stash)
	got := filetest.Read(t, a.dir, doc)
	assert.Contains(t, got, "<<<<<<< merged\n")
	assert.Contains(t, got, "- Assignee: someone\n")
	assert.Contains(t, got, ">>>>>>> your edits\n")
	assert.Contains(t, run(t, a.dir, "stash", "list", "--format=%H"), res.Stash)
}

// TestStateIsNeverCommitted: New makes git ignore .taskmd/ and commits
// the rule; nothing of .taskmd/ reaches the remote.
func TestStateIsNeverCommitted(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3)})
	a := newMachine(t, remote, "a")
	assert.Equal(t, ".taskmd/\n", filetest.Read(t, a.dir, ".gitignore"))
	_, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	files := run(t, remote, "ls-tree", "-r", "--name-only", "main")
	assert.Equal(t, ".gitignore\ndocs/plan.md\n", files)
	_, err = os.Stat(filepath.Join(a.dir, ".taskmd"))
	require.NoError(t, err, "the state exists, uncommitted")
	assert.Empty(t, run(t, a.dir, "status", "--porcelain", "--ignored=no"))

	// A second Sync on the clone adds nothing.
	_, err = gitsync.New(ctx, a.ws, a.plans)
	require.NoError(t, err)
	assert.Equal(t, ".taskmd/\n", filetest.Read(t, a.dir, ".gitignore"))
}

// TestWorkspaceInAFolder: the workspace is a folder of the repository.
func TestWorkspaceInAFolder(t *testing.T) {
	remote := newRemote(t, map[string]string{"tracker/" + doc: planOf(2), "README.md": "hi\n"})
	dir := filepath.Join(t.TempDir(), "clone")
	run(t, filepath.Dir(dir), "clone", "-q", remote, dir)
	m := openMachine(t, filepath.Join(dir, "tracker"), "a")
	res, err := m.sync.Claim(ctx, "/plan.md#task-2", m.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	assert.Equal(t, m.agent, assigneeIn(t, remoteFile(t, remote, "tracker/"+doc), "task-2"))
	assert.Equal(t, ".taskmd/\n", remoteFile(t, remote, "tracker/.gitignore"))
}

func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	defer ws.Close()
	p := plan.New(ws)
	_, err = gitsync.New(ctx, ws, p)
	assert.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err))
	var ge *worktree.GitError
	require.ErrorAs(t, err, &ge)
	assert.Contains(t, ge.Stderr, "not a git repository")

	run(t, dir, "init", "-q", "-b", "main")
	_, err = gitsync.New(ctx, ws, p)
	assert.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err), "no remote origin")
	_, err = os.Stat(filepath.Join(dir, ".gitignore"))
	assert.True(t, os.IsNotExist(err), "a failed New writes nothing")
	_, err = gitsync.New(ctx, ws, nil)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
}

// TestMachinesRaceOnOneTask: three machines claim each of five tasks at
// once, in goroutines: every task ends with exactly one holder, and every
// loser is told who it is.
func TestMachinesRaceOnOneTask(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(5)})
	ms := []*machine{newMachine(t, remote, "a"), newMachine(t, remote, "b"), newMachine(t, remote, "c")}
	for task := 1; task <= 5; task++ {
		addr := "/plan.md#task-" + string(rune('0'+task))
		results := make([]gitsync.ClaimResult, len(ms))
		var wg sync.WaitGroup
		for i, m := range ms {
			wg.Go(func() {
				var err error
				results[i], err = m.sync.Claim(ctx, addr, m.agent)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		winner := ""
		for _, r := range results {
			if r.Success {
				assert.Empty(t, winner, "two holders of %s", addr)
				winner = r.Claim.Agent
			}
		}
		require.NotEmpty(t, winner, "no holder of %s", addr)
		for _, r := range results {
			if !r.Success {
				assert.Equal(t, winner, r.AlreadyClaimedBy)
			}
		}
		assert.Equal(t, winner, assigneeIn(t, remoteFile(t, remote, doc), addr[len("/plan.md#"):]))
	}
}

// TestCrashWhileSetAside: an operation crashed with a person's edits
// stashed (the record of the stash is left); the next operation puts them
// back first.
func TestCrashWhileSetAside(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), "notes.txt": "one\n"})
	a := newMachine(t, remote, "a")
	filetest.Write(t, a.dir, "notes.txt", "one\ntwo\n")
	run(t, a.dir, "stash", "push", "-q")
	sha := strings.TrimSpace(run(t, a.dir, "rev-parse", "refs/stash"))
	recordAside(t, a.dir, sha+"\n")
	assert.Equal(t, "one\n", filetest.Read(t, a.dir, "notes.txt"))

	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	assert.Equal(t, "one\ntwo\n", filetest.Read(t, a.dir, "notes.txt"))
	assert.Equal(t, "one\n", remoteFile(t, remote, "notes.txt"))
	assert.Empty(t, run(t, a.dir, "stash", "list"))
	_, err = os.Stat(filepath.Join(a.dir, ".taskmd/gitsync/aside"))
	assert.True(t, os.IsNotExist(err))
}

// TestCrashInsideFirstStash: an operation crashed inside git stash, when
// the clone had no stash before (its record reads "pending" and nothing
// more): the stash was made, the person's edits were not yet taken out of
// the files. The next operation, more than a second later (so that its
// own stash is not the same commit), keeps the edits and leaves no stash.
func TestCrashInsideFirstStash(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), "notes.txt": "one\n", ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	filetest.Write(t, a.dir, "notes.txt", "one\ntwo\n")
	recordAside(t, a.dir, "pending \n")
	stashAsTaskmd(t, a.dir)
	run(t, a.dir, "stash", "apply", "-q") // the files as git stash left them: edits still in
	time.Sleep(1100 * time.Millisecond)

	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	assert.Equal(t, "one\ntwo\n", filetest.Read(t, a.dir, "notes.txt"))
	assert.Equal(t, "one\n", remoteFile(t, remote, "notes.txt"))
	assert.Empty(t, run(t, a.dir, "stash", "list"))
	assert.NoFileExists(t, filepath.Join(a.dir, ".taskmd/gitsync/aside"))
}

// TestGiveUpWaitingForTheLock: a caller who gives up while another
// process holds the clone's lock is answered as any call given up
// (CONFLICT, its context's error), not with the lock's wait as IO_ERROR;
// nothing changes.
func TestGiveUpWaitingForTheLock(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	other, err := workspace.Open(a.dir)
	require.NoError(t, err)
	defer other.Close()
	held, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- other.Lock(ctx, []string{workspace.StateDir + "/gitsync/aside", workspace.StateDir + "/gitsync/change"},
			func(*workspace.Tx) error {
				close(held)
				<-release
				return nil
			})
	}()
	<-held
	head, before := run(t, remote, "rev-parse", "main"), filetest.Read(t, a.dir, doc)
	bounded, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err = a.sync.Claim(bounded, "/plan.md#task-1", a.agent)
	close(release)
	require.NoError(t, <-done)
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err), "%v", err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, head, run(t, remote, "rev-parse", "main"))
	assert.Equal(t, before, filetest.Read(t, a.dir, doc))

	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed, "the next call works")
}

// TestCancelledPushChangesNothing: the caller gives up between the commit
// and the push: the call fails, and the clone is as it was (the commit
// taken back), the remote untouched.
func TestCancelledPushChangesNothing(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	head := run(t, a.dir, "rev-parse", "HEAD")
	before := filetest.Read(t, a.dir, doc)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gitsync.BeforePush(a.sync, cancel)
	_, err := a.sync.Claim(cctx, "/plan.md#task-1", a.agent)
	require.Error(t, err)
	assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"))
	assert.Equal(t, before, filetest.Read(t, a.dir, doc))
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
	assert.Equal(t, head, run(t, remote, "rev-parse", "main"))

	// Claimed again, it lands.
	gitsync.BeforePush(a.sync, nil)
	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
}

// TestOfflineClaimMeetsAConflict: a queued claim that another machine's
// claim beat, in a merge that also meets a person's conflict outside the
// tasks: MERGE_CONFLICT, nothing merged, and so nothing given up
// (Report.Released empty; the queued claim is still the clone's).
func TestOfflineClaimMeetsAConflict(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), "notes.txt": "one\n", ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	run(t, a.dir, "remote", "set-url", "origin", filepath.Join(t.TempDir(), "unreachable.git"))
	queued, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	require.True(t, queued.Queued)
	filetest.Write(t, a.dir, "notes.txt", "one, as a has it\n")
	run(t, a.dir, "commit", "-q", "-am", "a's notes")
	_, err = b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	filetest.Write(t, b.dir, "notes.txt", "one, as b has it\n")
	run(t, b.dir, "commit", "-q", "-am", "b's notes")
	run(t, b.dir, "push", "-q", "origin", "main")
	run(t, a.dir, "remote", "set-url", "origin", remote)
	head := run(t, a.dir, "rev-parse", "HEAD")

	rep, err := a.sync.Push(ctx)
	assert.Equal(t, merge.CodeMergeConflict, taskdoc.CodeOf(err), "%v", err)
	assert.Empty(t, rep.Released, "nothing was merged, so nothing was given up")
	assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"))
	assert.Equal(t, a.agent, assigneeIn(t, filetest.Read(t, a.dir, doc), "task-1"))
}

// TestCrashBeforeStashKeepsAPersonsStashes: an operation crashed inside
// git stash before the stash was made (its record names the stash on top
// then, a person's own), and the person then stashed or popped stashes of
// their own. The next operation neither applies nor drops any of them,
// and leaves the person's edits in the files as they are.
func TestCrashBeforeStashKeepsAPersonsStashes(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), "notes.txt": "one\n", ".gitignore": ".taskmd/\n"})

	t.Run("a stash made after the crash", func(t *testing.T) {
		a := newMachine(t, remote, "a")
		filetest.Write(t, a.dir, "notes.txt", "one\nold\n")
		run(t, a.dir, "stash", "push", "-q", "-m", "mine, before")
		before := strings.TrimSpace(run(t, a.dir, "rev-parse", "refs/stash"))
		recordAside(t, a.dir, "pending "+before+"\n")
		filetest.Write(t, a.dir, "notes.txt", "one\ntwo\n")
		run(t, a.dir, "stash", "push", "-q", "-m", "mine, after")
		list := stashes(t, a.dir)

		res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
		require.NoError(t, err)
		assert.True(t, res.Pushed)
		assert.Equal(t, list, stashes(t, a.dir))
		assert.Equal(t, "one\n", filetest.Read(t, a.dir, "notes.txt"))
		assert.NoFileExists(t, filepath.Join(a.dir, ".taskmd/gitsync/aside"))
	})

	t.Run("the stash on top popped after the crash", func(t *testing.T) {
		a := newMachine(t, remote, "b")
		filetest.Write(t, a.dir, "notes.txt", "one\nold\n")
		run(t, a.dir, "stash", "push", "-q", "-m", "mine, older")
		filetest.Write(t, a.dir, "notes.txt", "one\ntwo\n")
		run(t, a.dir, "stash", "push", "-q", "-m", "mine, newer")
		top := strings.TrimSpace(run(t, a.dir, "rev-parse", "refs/stash"))
		recordAside(t, a.dir, "pending "+top+"\n")
		run(t, a.dir, "stash", "pop", "-q")
		list := stashes(t, a.dir)

		res, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
		require.NoError(t, err)
		assert.True(t, res.Pushed)
		assert.Equal(t, list, stashes(t, a.dir))
		assert.Equal(t, "one\ntwo\n", filetest.Read(t, a.dir, "notes.txt"))
		assert.Equal(t, "one\n", remoteFile(t, remote, "notes.txt"))
		assert.NoFileExists(t, filepath.Join(a.dir, ".taskmd/gitsync/aside"))
	})
}

// TestCrashBeforeStashDrop: an operation crashed after it put a person's
// edits back (git stash apply) and before it dropped their stash. The
// next call is made and answers as for edits kept in the stash: the
// edits stay in the files, the stash stays in the list.
func TestCrashBeforeStashDrop(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), "notes.txt": "one\n", ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	filetest.Write(t, a.dir, "notes.txt", "one\ntwo\n")
	sha := stashAsTaskmd(t, a.dir)
	recordAside(t, a.dir, sha+"\n")
	run(t, a.dir, "stash", "apply", "-q")
	list := stashes(t, a.dir)

	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.True(t, res.Pushed)
	assert.Equal(t, sha, res.Stash)
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	assert.Equal(t, "one\ntwo\n", filetest.Read(t, a.dir, "notes.txt"))
	assert.Equal(t, "one\n", remoteFile(t, remote, "notes.txt"))
	assert.Equal(t, list, stashes(t, a.dir))
	assert.NoFileExists(t, filepath.Join(a.dir, ".taskmd/gitsync/aside"))
}

// TestCrashInsideStashOverAPersonsStash: an operation crashed inside git
// stash, its stash made on top of a person's own: the next operation
// puts the edits back and drops its stash only; the person's stays.
func TestCrashInsideStashOverAPersonsStash(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), "notes.txt": "one\n", ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	filetest.Write(t, a.dir, "notes.txt", "one\nold\n")
	run(t, a.dir, "stash", "push", "-q", "-m", "mine")
	mine := stashes(t, a.dir)
	filetest.Write(t, a.dir, "notes.txt", "one\ntwo\n")
	recordAside(t, a.dir, "pending "+strings.TrimSpace(run(t, a.dir, "rev-parse", "refs/stash"))+"\n")
	stashAsTaskmd(t, a.dir)
	run(t, a.dir, "stash", "apply", "-q") // the files as git stash left them: edits still in
	time.Sleep(1100 * time.Millisecond)

	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	assert.Equal(t, "one\ntwo\n", filetest.Read(t, a.dir, "notes.txt"))
	assert.Equal(t, mine, stashes(t, a.dir))
	assert.NoFileExists(t, filepath.Join(a.dir, ".taskmd/gitsync/aside"))
}
