package gitsync_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestGroupCommit: while a's first claim is being pushed, four more calls
// reach a's Sync: claims of tasks 2 to 4, and task 1's claim again. They
// wait, and go to the remote in one push: each is told its own result,
// with a commit of its own, and the repeated claim commits nothing.
// Before that push another machine claims task 4: the push is rejected,
// every change is made again on the merged plan, and the remote has each
// once.
func TestGroupCommit(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(5), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	before := strings.Count(run(t, remote, "log", "--oneline", "main"), "\n")

	var pushes atomic.Int32
	release := make(chan struct{})
	gitsync.BeforePush(a.sync, func() {
		switch pushes.Add(1) {
		case 1:
			<-release // the first push waits until the others queue
		case 2:
			res, err := b.sync.Claim(ctx, "/plan.md#task-4", b.agent)
			require.NoError(t, err)
			require.True(t, res.Success)
		}
	})
	first := make(chan gitsync.ClaimResult, 1)
	go func() {
		res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
		assert.NoError(t, err)
		first <- res
	}()
	tasks := []string{"task-2", "task-3", "task-4", "task-1"}
	results := make([]gitsync.ClaimResult, len(tasks))
	var wg sync.WaitGroup
	require.Eventually(t, func() bool { return pushes.Load() == 1 }, 10*time.Second, time.Millisecond)
	for i, slug := range tasks {
		wg.Go(func() {
			res, err := a.sync.Claim(ctx, "/plan.md#"+slug, a.agent)
			assert.NoError(t, err, slug)
			results[i] = res
		})
		require.Eventually(t, func() bool { return gitsync.Waiting(a.sync) == i+1 }, 10*time.Second, time.Millisecond)
	}
	close(release)
	wg.Wait()
	one := <-first

	assert.True(t, one.Success)
	assert.True(t, one.Pushed)
	assert.Equal(t, 1, one.Attempts)
	assert.Equal(t, int32(3), pushes.Load(), "one push for the first claim, two for the batch (one rejected)")
	commits := map[string]bool{one.Commit: true}
	for i, slug := range tasks[:2] {
		res := results[i]
		assert.True(t, res.Success, slug)
		assert.True(t, res.Pushed, slug)
		assert.Equal(t, 2, res.Attempts, slug)
		assert.NotEmpty(t, res.Commit, slug)
		assert.False(t, commits[res.Commit], "%s has a commit of its own", slug)
		commits[res.Commit] = true
	}
	assert.False(t, results[2].Success, "task-4 went to b first")
	assert.Equal(t, b.agent, results[2].AlreadyClaimedBy)
	assert.Empty(t, results[2].Commit)
	assert.True(t, results[3].Success, "claiming task-1 again holds it still")
	assert.Equal(t, one.Claim.Token, results[3].Claim.Token)
	assert.Empty(t, results[3].Commit, "a repeated claim commits nothing")

	got := remoteFile(t, remote, doc)
	for slug, holder := range map[string]string{"task-1": a.agent, "task-2": a.agent, "task-3": a.agent, "task-4": b.agent, "task-5": ""} {
		assert.Equal(t, holder, assigneeIn(t, got, slug), slug)
	}
	log := run(t, remote, "log", "--format=%s", "main")
	for _, slug := range []string{"task-1", "task-2", "task-3"} {
		assert.Equal(t, 1, strings.Count(log, fmt.Sprintf("%s claims /plan.md#%s\n", a.agent, slug)), "%s claimed once:\n%s", slug, log)
	}
	assert.Equal(t, before+4, strings.Count(run(t, remote, "log", "--oneline", "main"), "\n"),
		"a's three claims and b's, a's rejected batch taken back:\n%s", log)
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))

	// The claims hold: a completes task 2 with the token it was told.
	_, err := a.sync.UpdateStatus(ctx, "/plan.md#task-2", plan.Claimant{Agent: a.agent, Token: results[0].Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
}

// TestCallsJoinARetriedBatch: a's claim of task 1 is rejected once (b
// claimed task 5 just before its push); the claims of tasks 2 and 3 that
// reached a meanwhile join the batch when it is made again, so that the
// three land in its second push instead of waiting for a push of their
// own.
func TestCallsJoinARetriedBatch(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(5), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	pushes, queued := loseFirstPush(t, a, b)
	first := make(chan gitsync.ClaimResult, 1)
	go func() {
		res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
		assert.NoError(t, err)
		first <- res
	}()
	require.Eventually(t, func() bool { return pushes.Load() == 1 }, 10*time.Second, time.Millisecond)
	results := make([]gitsync.ClaimResult, 2)
	var wg sync.WaitGroup
	for i, slug := range []string{"task-2", "task-3"} {
		wg.Go(func() {
			res, err := a.sync.Claim(ctx, "/plan.md#"+slug, a.agent)
			assert.NoError(t, err, slug)
			results[i] = res
		})
		require.Eventually(t, func() bool { return gitsync.Waiting(a.sync) == i+1 }, 10*time.Second, time.Millisecond)
	}
	close(queued)
	wg.Wait()
	one := <-first

	assert.Equal(t, int32(2), pushes.Load(), "the rejected push, then one for all three claims")
	assert.Equal(t, 2, one.Attempts)
	for i, res := range results {
		assert.True(t, res.Success && res.Pushed, "claim %d", i+2)
		assert.Equal(t, 1, res.Attempts, "claim %d joined the second attempt", i+2)
		assert.NotEmpty(t, res.Commit)
	}
	got := remoteFile(t, remote, doc)
	for slug, holder := range map[string]string{"task-1": a.agent, "task-2": a.agent, "task-3": a.agent, "task-5": b.agent} {
		assert.Equal(t, holder, assigneeIn(t, got, slug), slug)
	}
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
}

// TestMovingRemote: another machine pushes between a's commit and its
// push, again and again. A rejected push is no failure: with no limit a's
// claim is made again until it lands (here after 22 attempts, more than
// the 20 a call once stopped at), or until its context ends, then CONFLICT with
// nothing of it left; WithMaxAttempts(3) gives up after the third.
func TestMovingRemote(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	other := filepath.Join(t.TempDir(), "other")
	run(t, filepath.Dir(other), "clone", "-q", remote, other)
	initial := strings.TrimSpace(run(t, remote, "rev-parse", "main"))
	moves := 0
	moveRemote := func(limit int) func() {
		return func() {
			if limit > 0 && moves >= limit {
				return
			}
			moves++
			filetest.Write(t, other, "notes.txt", fmt.Sprintf("note %d\n", moves))
			run(t, other, "add", "notes.txt")
			run(t, other, "commit", "-q", "-m", "a note")
			run(t, other, "push", "-q", "origin", "HEAD:main")
		}
	}
	for _, tc := range []struct {
		name     string
		opts     []gitsync.Option
		moves    int // 0: every time
		timeout  time.Duration
		attempts int
		code     taskdoc.Code // "": the claim lands
	}{
		{"until it lands", nil, 21, time.Minute, 22, ""},
		{"until the context ends", nil, 0, 2 * time.Second, 0, taskdoc.CodeConflict},
		{"up to the limit", []gitsync.Option{gitsync.WithMaxAttempts(3)}, 0, time.Minute, 3, taskdoc.CodeConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run(t, remote, "update-ref", "refs/heads/main", initial) // the plan as it was
			moves = 0
			a := newMachine(t, remote, "a", tc.opts...)
			run(t, other, "fetch", "-q")
			run(t, other, "reset", "-q", "--hard", "origin/main")
			gitsync.BeforePush(a.sync, moveRemote(tc.moves))
			c, cancel := context.WithTimeout(ctx, tc.timeout)
			defer cancel()
			res, err := a.sync.Claim(c, "/plan.md#task-1", a.agent)
			assert.Equal(t, tc.code, taskdoc.CodeOf(err), "%v", err)
			if tc.attempts > 0 {
				assert.Equal(t, tc.attempts, res.Attempts)
			}
			want := ""
			if tc.code == "" {
				want = a.agent
				assert.True(t, res.Pushed)
			} else {
				assert.Empty(t, res.Commit)
			}
			assert.Equal(t, want, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
			if !assert.Equal(t, want, assigneeIn(t, filetest.Read(t, a.dir, doc), "task-1"), "nothing of a failed claim is left") {
				t.Logf("the call said %v; the clone has:\n%s%s", err, run(t, a.dir, "log", "--oneline", "-3"), run(t, a.dir, "status", "--porcelain"))
			}
			n, err := a.sync.Queued(ctx)
			require.NoError(t, err)
			assert.Zero(t, n)
		})
	}
}
