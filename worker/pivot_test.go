package worker_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

var ctx = context.Background()

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// handTimer fires when the test says so.
type handTimer struct{ fire chan time.Time }

func (h handTimer) After(time.Duration) <-chan time.Time { return h.fire }

const shop = `# Shop

## Tasks

### Add rate limiting
- Status: pending

Limit /users to 100 requests a minute.

### Fix login bug
- Status: pending
`

type env struct {
	root   string
	pivots *worker.Pivots
	plans  *plan.Plans
	worker string
	claim  plan.Claimant
	timer  handTimer
}

// setup opens a workspace with the shop plan, registers a worker and lets
// it claim and start the first task.
func setup(t *testing.T) env {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "shop.md"), []byte(shop), 0o644))
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	c := &clock{now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	timer := handTimer{fire: make(chan time.Time, 1)}
	pv := worker.New(ws, worker.WithClock(c.Now)).WithTimer(timer)
	a, err := pv.Plans().Agents().Register(ctx, agent.Registration{Name: "w1", Runtime: "test"})
	require.NoError(t, err)
	res, err := pv.Plans().Claim(ctx, "/shop.md#add-rate-limiting", a.ID)
	require.NoError(t, err)
	me := plan.Claimant{Agent: a.ID, Token: res.Claim.Token}
	_, err = pv.Plans().UpdateStatus(ctx, "/shop.md#add-rate-limiting", me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	_, err = pv.Plans().Agents().Heartbeat(ctx, a.ID, agent.HeartbeatInfo{CurrentTask: "/shop.md#add-rate-limiting", Status: "busy"})
	require.NoError(t, err)
	return env{root: root, pivots: pv, plans: pv.Plans(), worker: a.ID, claim: me, timer: timer}
}

func (e env) read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.root, filepath.FromSlash(name)))
	require.NoError(t, err)
	return string(data)
}

func TestGracefulPivot(t *testing.T) {
	e := setup(t)
	req, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "login is broken in production", NewTask: "/shop.md#fix-login-bug"})
	require.NoError(t, err)
	assert.Equal(t, checkpoint.PivotGraceful, req.Mode)
	assert.Equal(t, "/shop.md#add-rate-limiting", req.Task, "the task of the worker's last heartbeat")
	again, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "login is broken in production", NewTask: "/shop.md#fix-login-bug"})
	require.NoError(t, err)
	assert.Equal(t, req.ID, again.ID, "a retried request")

	pending, err := e.pivots.Pending(ctx, e.worker)
	require.NoError(t, err)
	require.NotNil(t, pending)
	assert.Equal(t, req.ID, pending.ID)

	var waited worker.Request
	var werr error
	done := make(chan struct{})
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	go func() {
		waited, werr = e.pivots.Wait(wctx, e.worker, req.ID, time.Minute)
		close(done)
	}()
	ack, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{
		Completed: []string{"middleware written"}, Remaining: []string{"tests"},
		Resumption: "Write the tests of the middleware."})
	require.NoError(t, err)
	<-done
	require.NoError(t, werr)
	assert.Equal(t, worker.StateAcknowledged, waited.State)
	assert.Equal(t, ack.Checkpoint, waited.Checkpoint)
	assert.Equal(t, "checkpoints/workers/"+e.worker+"/000001.md", ack.Checkpoint)
	require.NotNil(t, ack.NewClaim)
	assert.Equal(t, "/shop.md#fix-login-bug", ack.NewClaim.Task)

	doc := e.read(t, "docs/shop.md")
	assert.Contains(t, doc, "### Add rate limiting\n- Status: paused\n- Checkpoint: checkpoints/workers/"+e.worker+"/000001.md\n\nLimit")
	assert.Contains(t, doc, "### Fix login bug\n- Status: pending\n- Assignee: "+e.worker+"\n")
	cp := e.read(t, ack.Checkpoint)
	assert.Contains(t, cp, "pivoted")
	assert.Contains(t, cp, "login is broken in production")

	retry, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{})
	require.NoError(t, err)
	assert.Equal(t, ack, retry, "a retried acknowledgement")
	none, err := e.pivots.Pending(ctx, e.worker)
	require.NoError(t, err)
	assert.Nil(t, none)
}

func TestHardPivotTakesTheTaskBack(t *testing.T) {
	e := setup(t)
	req, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Mode: checkpoint.PivotHard, Reason: "stuck"})
	require.NoError(t, err)
	assert.Equal(t, shop, e.read(t, "docs/shop.md"), "the task is pending again, unclaimed")
	_, err = e.plans.UpdateStatus(ctx, "/shop.md#add-rate-limiting", e.claim, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "late"})
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err))
	ack, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{})
	require.NoError(t, err)
	assert.Equal(t, req.ID, ack.ID)
	assert.Empty(t, ack.Checkpoint, "a hard pivot writes no checkpoint")
	_, err = os.Stat(filepath.Join(e.root, "checkpoints", "workers", e.worker, "000001.md"))
	assert.True(t, os.IsNotExist(err))
}

func TestImmediatePivotWithFreeTextTask(t *testing.T) {
	e := setup(t)
	_, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Mode: checkpoint.PivotImmediate, Reason: "r", NewTask: "review the open pull requests"})
	require.NoError(t, err)
	ack, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{Remaining: []string{"all of it"}})
	require.NoError(t, err)
	assert.Nil(t, ack.NewClaim, "free text is not claimed")
	assert.Equal(t, checkpoint.PivotImmediate, ack.Mode)
}

func TestNoAckAfterTheTimeout(t *testing.T) {
	e := setup(t)
	req, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "r"})
	require.NoError(t, err)
	e.timer.fire <- time.Time{}
	_, err = e.pivots.Wait(ctx, e.worker, req.ID, time.Minute)
	assert.Equal(t, worker.CodeNoAck, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "hard mode")
}

func TestAcknowledgeWithoutRequest(t *testing.T) {
	e := setup(t)
	_, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	_, err = e.pivots.Request(ctx, "ag_000000000000", worker.Pivot{})
	assert.Equal(t, agent.CodeAgentNotFound, taskdoc.CodeOf(err))
	_, err = e.pivots.Request(ctx, e.worker, worker.Pivot{Mode: "gentle"})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
}

// Several workers pivoted at once, acknowledged from other goroutines.
func TestPivotChain(t *testing.T) {
	e := setup(t)
	b, err := e.plans.Agents().Register(ctx, agent.Registration{Name: "w2", Runtime: "test"})
	require.NoError(t, err)
	rb, err := e.plans.Claim(ctx, "/shop.md#fix-login-bug", b.ID)
	require.NoError(t, err)
	bClaim := plan.Claimant{Agent: b.ID, Token: rb.Claim.Token}
	reqs, err := e.pivots.RequestAll(ctx, map[string]worker.Pivot{
		e.worker: {Reason: "regroup"},
		b.ID:     {Reason: "regroup", Task: "/shop.md#fix-login-bug"},
	})
	require.NoError(t, err)
	require.Len(t, reqs, 2)
	_, err = e.plans.UpdateStatus(ctx, "/shop.md#fix-login-bug", bClaim, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	ackErrs := make(chan error, 2)
	go func() {
		_, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{Notes: "a"})
		ackErrs <- err
		_, err = e.pivots.Acknowledge(ctx, b.ID, bClaim, checkpoint.Checkpoint{Notes: "b"})
		ackErrs <- err
	}()
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	acks, errs := e.pivots.WaitAll(wctx, reqs, time.Minute)
	require.NoError(t, <-ackErrs)
	require.NoError(t, <-ackErrs)
	for i := range reqs {
		require.NoError(t, errs[i])
		assert.Equal(t, worker.StateAcknowledged, acks[i].State)
	}
	doc := e.read(t, "docs/shop.md")
	assert.Contains(t, doc, "### Add rate limiting\n- Status: paused\n")
	assert.Contains(t, doc, "### Fix login bug\n- Status: paused\n")
}

// TestRequestRetriedAfterTheAcknowledgement: an orchestrator that asks the
// same pivot again after the worker acknowledged it (its first answer was
// lost) gets the acknowledged request, and the worker is asked nothing
// again: its pivot file stays as it was, and a wait ends at once.
func TestRequestRetriedAfterTheAcknowledgement(t *testing.T) {
	e := setup(t)
	pv := worker.Pivot{Reason: "login is broken", NewTask: "/shop.md#fix-login-bug"}
	req, err := e.pivots.Request(ctx, e.worker, pv)
	require.NoError(t, err)
	_, err = e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{Remaining: []string{"tests"}})
	require.NoError(t, err)
	file := "checkpoints/workers/" + e.worker + "/pivot.json"
	before := e.read(t, file)

	again, err := e.pivots.Request(ctx, e.worker, pv)
	require.NoError(t, err)
	assert.Equal(t, req.ID, again.ID)
	assert.Equal(t, worker.StateAcknowledged, again.State)
	assert.Equal(t, before, e.read(t, file), "nothing asked again")
	none, err := e.pivots.Pending(ctx, e.worker)
	require.NoError(t, err)
	assert.Nil(t, none)
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	got, err := e.pivots.Wait(wctx, e.worker, again.ID, time.Minute)
	require.NoError(t, err, "the wait ends at once")
	assert.Equal(t, worker.StateAcknowledged, got.State)
}

// A request names a task that exists, or is refused before anything is
// written.
func TestRequestOfAMissingTask(t *testing.T) {
	for task, code := range map[string]taskdoc.Code{
		"not an address":   taskdoc.CodeInvalidAddress,
		"/nope.md#missing": taskdoc.CodeDocumentNotFound,
		"/shop.md#nope":    taskdoc.CodeTaskNotFound,
		"/shop.md":         taskdoc.CodeInvalidAddress,
	} {
		e := setup(t)
		_, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "r", Task: task})
		assert.Equal(t, code, taskdoc.CodeOf(err), task)
		_, err = os.Stat(filepath.Join(e.root, "checkpoints"))
		assert.True(t, os.IsNotExist(err), "nothing written for %q", task)
	}
}

// A hard pivot after a graceful one leaves the paused task in the queue:
// the worker holds it no more.
func TestHardPivotAfterAGracefulOneKeepsThePausedTask(t *testing.T) {
	e := setup(t)
	_, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "r"})
	require.NoError(t, err)
	_, err = e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{Completed: []string{"a"}})
	require.NoError(t, err)
	_, err = e.pivots.Request(ctx, e.worker, worker.Pivot{Mode: checkpoint.PivotHard, Reason: "stuck"})
	require.NoError(t, err)
	q, err := e.pivots.ResumeQueue(ctx)
	require.NoError(t, err)
	assert.Len(t, q, 1)
}

// A retried hard pivot is answered even once another agent claimed the
// task it took back.
func TestHardPivotRetryAfterTheTaskWasClaimed(t *testing.T) {
	e := setup(t)
	r1, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Mode: checkpoint.PivotHard, Reason: "stuck"})
	require.NoError(t, err)
	b, err := e.plans.Agents().Register(ctx, agent.Registration{Name: "w2", Runtime: "test"})
	require.NoError(t, err)
	res, err := e.plans.Claim(ctx, "/shop.md#add-rate-limiting", b.ID)
	require.NoError(t, err)
	require.True(t, res.Success)
	r2, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Mode: checkpoint.PivotHard, Reason: "stuck", Task: "/shop.md#add-rate-limiting"})
	require.NoError(t, err)
	assert.Equal(t, r1.ID, r2.ID)
}

// A pivot without a task whose worker's last heartbeat names a task it
// has completed since is a pivot from no task: the acknowledgement saves
// the checkpoint and claims the new task instead of ending in
// STALE_CLAIM. Naming the completed task is INVALID_TRANSITION, before
// anything is written.
func TestPivotFromACompletedHeartbeatTask(t *testing.T) {
	e := setup(t)
	_, err := e.plans.UpdateStatus(ctx, "/shop.md#add-rate-limiting", e.claim, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	require.NoError(t, err)
	a, err := e.plans.Agents().Get(ctx, e.worker)
	require.NoError(t, err)
	require.Equal(t, "/shop.md#add-rate-limiting", a.CurrentTask, "the heartbeat is older than the completion")

	before := filetest.Snapshot(t, e.root)
	_, err = e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "login is broken", Task: "/shop.md#add-rate-limiting", NewTask: "/shop.md#fix-login-bug"})
	assert.Equal(t, taskdoc.CodeInvalidTransition, taskdoc.CodeOf(err), "%v", err)
	assert.Equal(t, before, filetest.Snapshot(t, e.root))

	req, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "login is broken", NewTask: "/shop.md#fix-login-bug"})
	require.NoError(t, err)
	assert.Empty(t, req.Task)
	ack, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{Completed: []string{"rate limiting"}})
	require.NoError(t, err)
	assert.Equal(t, worker.StateAcknowledged, ack.State)
	require.NotNil(t, ack.NewClaim)
	assert.Equal(t, "/shop.md#fix-login-bug", ack.NewClaim.Task)
	doc := e.read(t, "docs/shop.md")
	assert.Contains(t, doc, "### Add rate limiting\n- Status: completed\n")
}
