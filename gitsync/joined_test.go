package gitsync_test

import (
	"context"
	"fmt"
	"os"
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
	"github.com/taskmd/taskmd/taskdoc"
)

// tripCtx is a context that ends once the file at path holds want: the
// moment a caller gives up right after its change was written.
type tripCtx struct {
	context.Context
	path, want string
	once       sync.Once
	done       chan struct{}
}

func newTripCtx(path, want string) *tripCtx {
	return &tripCtx{Context: context.Background(), path: path, want: want, done: make(chan struct{})}
}

func (c *tripCtx) Done() <-chan struct{} { c.check(); return c.done }

func (c *tripCtx) Err() error {
	c.check()
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

func (c *tripCtx) check() {
	if data, err := os.ReadFile(c.path); err == nil && strings.Contains(string(data), c.want) {
		c.once.Do(func() { close(c.done) })
	}
}

// TestPersonsEditKeepsACallOut: while a's batch is made again (its first
// push rejected), a person edits a document the batch never touched, and
// then a claim in it reaches a. The claim does not join the batch (its
// edits were set aside before the person's): it is made in a batch of its
// own, which sets the edit aside too, so that the edit is never committed
// with the claim nor lost when the claim fails.
func TestPersonsEditKeepsACallOut(t *testing.T) {
	for _, tc := range []struct {
		name, file, task string
		code             taskdoc.Code // "": the claim lands
	}{
		{"the claim lands", "docs/other.md", "task-1", ""},
		{"the claim fails", "docs/other.md", "task-9", taskdoc.CodeTaskNotFound},
		{"a name with a space and an accent", "docs/my plan é.md", "task-1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			remote := newRemote(t, map[string]string{doc: planOf(5), tc.file: planOf(3), ".gitignore": ".taskmd/\n"})
			a := newMachine(t, remote, "a")
			b := newMachine(t, remote, "b")
			pushes, queued := loseFirstPush(t, a, b)
			first := make(chan error, 1)
			go func() {
				_, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
				first <- err
			}()
			require.Eventually(t, func() bool { return pushes.Load() == 1 }, 10*time.Second, time.Millisecond)

			edited := strings.Replace(planOf(3), "Do part 2.", "Do part 2, carefully.", 1)
			filetest.Write(t, a.dir, tc.file, edited)
			second := make(chan error, 1)
			go func() {
				_, err := a.sync.Claim(ctx, "/"+strings.TrimPrefix(tc.file, "docs/")+"#"+tc.task, a.agent)
				second <- err
			}()
			require.Eventually(t, func() bool { return gitsync.Waiting(a.sync) == 1 }, 10*time.Second, time.Millisecond)
			close(queued)
			require.NoError(t, <-first)
			err := <-second
			assert.Equal(t, tc.code, taskdoc.CodeOf(err), "%v", err)

			got := remoteFile(t, remote, tc.file)
			assert.Contains(t, got, "Do part 2.\n", "the person's edit is not committed")
			// In the clone: the remote's document, with the person's edit.
			assert.Equal(t, strings.Replace(got, "Do part 2.", "Do part 2, carefully.", 1), filetest.Read(t, a.dir, tc.file),
				"the person's edit is kept")
			assert.Equal(t, " M "+tc.file+"\x00", run(t, a.dir, "status", "--porcelain", "-z"), "as an uncommitted edit")
			assert.Empty(t, run(t, a.dir, "stash", "list"))
			if tc.code == "" {
				assert.Equal(t, a.agent, assigneeIn(t, got, "task-1"))
			} else {
				assert.Equal(t, planOf(3), got)
			}
		})
	}
}

// TestCallEndedAfterItsChange: two claims share a batch; the first one's
// caller gives up right after its change is written. A change made is
// committed and shared with its own commit, and its caller told so: it is
// never left in the working tree for the next change of the batch to
// commit as its own.
func TestCallEndedAfterItsChange(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(5), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	var pushes atomic.Int32
	release := make(chan struct{})
	gitsync.BeforePush(a.sync, func() {
		if pushes.Add(1) == 1 {
			<-release
		}
	})
	lead := make(chan error, 1)
	go func() {
		_, err := a.sync.Claim(ctx, "/plan.md#task-3", a.agent)
		lead <- err
	}()
	require.Eventually(t, func() bool { return pushes.Load() == 1 }, 10*time.Second, time.Millisecond)

	trip := newTripCtx(filepath.Join(a.dir, doc), "### Task 1\n- Status: pending\n- Assignee: "+a.agent)
	first := make(chan gitsync.ClaimResult, 1)
	go func() {
		res, err := a.sync.Claim(trip, "/plan.md#task-1", a.agent)
		assert.NoError(t, err, "a change made is shared")
		first <- res
	}()
	require.Eventually(t, func() bool { return gitsync.Waiting(a.sync) == 1 }, 10*time.Second, time.Millisecond)
	second := make(chan gitsync.ClaimResult, 1)
	go func() {
		res, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
		assert.NoError(t, err)
		second <- res
	}()
	require.Eventually(t, func() bool { return gitsync.Waiting(a.sync) == 2 }, 10*time.Second, time.Millisecond)
	close(release)
	require.NoError(t, <-lead)
	one, two := <-first, <-second
	require.Error(t, trip.Err(), "the first caller gave up")

	assert.True(t, one.Success && one.Pushed)
	assert.True(t, two.Success && two.Pushed)
	got := remoteFile(t, remote, doc)
	for _, slug := range []string{"task-1", "task-2"} {
		assert.Equal(t, a.agent, assigneeIn(t, got, slug), slug)
	}
	// Each claim is in its own commit: task 2's commit changes task 2 only.
	diff := run(t, a.dir, "show", "--format=", two.Commit)
	assert.Contains(t, diff, "### Task 2\n - Status: pending\n+- Assignee: "+a.agent)
	assert.Equal(t, 1, strings.Count(diff, "\n+- "), "task 1's claim is not in task 2's commit:\n%s", diff)
	assert.Contains(t, run(t, a.dir, "show", "-s", "--format=%s", one.Commit), "claims /plan.md#task-1")
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
}

// TestMaintenance: taskmd's git commands start no maintenance of their
// own, and a Sync runs it every 100 commits and fetches. The clone's
// maintenance packs loose objects at the first one (the loose-objects
// task, at 1), so a new pack tells that it ran: none after 49 claims (a
// commit and a fetch each), one at the 50th.
func TestMaintenance(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(50), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	for key, value := range map[string]string{"maintenance.gc.enabled": "false",
		"maintenance.loose-objects.enabled": "true", "maintenance.loose-objects.auto": "1"} {
		run(t, a.dir, "config", key, value)
	}
	packs := func() string {
		for _, line := range strings.Split(run(t, a.dir, "count-objects", "-v"), "\n") {
			if n, ok := strings.CutPrefix(line, "packs: "); ok {
				return n
			}
		}
		t.Fatal("git count-objects says no packs")
		return ""
	}
	cloned := packs()
	for i := 1; i <= 50; i++ {
		res, err := a.sync.Claim(ctx, fmt.Sprintf("/plan.md#task-%d", i), a.agent)
		require.NoError(t, err)
		require.True(t, res.Pushed)
		if i == 49 {
			require.Equal(t, cloned, packs(), "no maintenance before 100 commits and fetches")
		}
	}
	assert.NotEqual(t, cloned, packs(), "maintenance ran")
}

// TestCallGivesUpDuringAPause: a batch of two calls is rejected once, on
// a slow remote (an attempt takes 1 s); the caller of one of them gives up
// as it is rejected, before the pause that follows. Its Claim returns when
// its context ends, not when the pause does, and the other call lands.
func TestCallGivesUpDuringAPause(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(5), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	var pushes atomic.Int32
	release := make(chan struct{})
	quit, cancel := context.WithCancel(ctx)
	var cancelled atomic.Int64
	gitsync.BeforePush(a.sync, func() {
		switch pushes.Add(1) {
		case 1:
			<-release // a slow remote: the cycle is 1 s
		case 2: // the batch of two: b pushes first, rejected
			_, err := b.sync.Claim(ctx, "/plan.md#task-5", b.agent)
			require.NoError(t, err)
			// The caller gives up while the push that will be rejected is
			// under way, so that its batch's pause (random, from a few
			// milliseconds) always finds it gone.
			cancelled.Store(time.Now().UnixNano())
			cancel()
		}
	})
	lead := make(chan error, 1)
	go func() { _, err := a.sync.Claim(ctx, "/plan.md#task-3", a.agent); lead <- err }()
	require.Eventually(t, func() bool { return pushes.Load() == 1 }, 10*time.Second, time.Millisecond)
	quitter := make(chan time.Time, 1)
	go func() {
		_, err := a.sync.Claim(quit, "/plan.md#task-1", a.agent)
		assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err), "%v", err)
		quitter <- time.Now()
	}()
	require.Eventually(t, func() bool { return gitsync.Waiting(a.sync) == 1 }, 10*time.Second, time.Millisecond)
	other := make(chan error, 1)
	go func() { _, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent); other <- err }()
	require.Eventually(t, func() bool { return gitsync.Waiting(a.sync) == 2 }, 10*time.Second, time.Millisecond)
	time.Sleep(1100 * time.Millisecond)
	close(release)
	require.NoError(t, <-lead)
	end := <-quitter
	late := end.Sub(time.Unix(0, cancelled.Load()))
	assert.Less(t, late, 500*time.Millisecond, "a call whose context ended waits for the batch's pause")
	require.NoError(t, <-other)
}

// TestIdleMachineLosingOnceSaysNothing: a machine that made no push for a
// while (idle, not losing) loses one race: it is not starved, and does not
// say it waits.
func TestIdleMachineLosingOnceSaysNothing(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(5), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	b := newMachine(t, remote, "b")
	_, err := a.sync.Claim(ctx, "/plan.md#task-4", a.agent) // a's push lands
	require.NoError(t, err)
	time.Sleep(2 * time.Second) // idle: no call at all
	var pushes atomic.Int32
	gitsync.BeforePush(a.sync, func() {
		if pushes.Add(1) == 1 {
			_, err := b.sync.Claim(ctx, "/plan.md#task-5", b.agent)
			require.NoError(t, err)
		}
	})
	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	require.Equal(t, 2, res.Attempts, "lost once, then landed")
	refs := run(t, remote, "for-each-ref", "refs/taskmd/waiting/")
	assert.Empty(t, strings.TrimSpace(refs), "one loss after an idle spell says the machine waits")
}
