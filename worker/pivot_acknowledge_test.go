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
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

// openPivots opens the pivots of root on clock now.
func openPivots(t *testing.T, root string, now func() time.Time) *worker.Pivots {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return worker.New(ws, worker.WithClock(now))
}

// ackSetup prepares a workspace (see preparePivot) and opens its pivots.
func ackSetup(t *testing.T) (root string, pv *worker.Pivots, me plan.Claimant) {
	t.Helper()
	root = t.TempDir()
	me = preparePivot(t, root)
	return root, openPivots(t, root, fixedClock), me
}

func ackWaitCtx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func planTask(t *testing.T, root, slug string) *taskdoc.Task {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "docs", "shop.md"))
	require.NoError(t, err)
	doc, err := taskdoc.Parse(data)
	require.NoError(t, err)
	tk, err := doc.Task(slug)
	require.NoError(t, err)
	return tk
}

func fieldOf(tk *taskdoc.Task, key string) string {
	v, _ := tk.Field(key)
	return v
}

// A request replaced while the orchestrator waits for it: Wait says
// CONFLICT at once instead of running into its timeout.
func TestWaitForAReplacedRequest(t *testing.T) {
	_, pv, me := ackSetup(t)
	first, err := pv.Pending(ctx, crashWorker)
	require.NoError(t, err)
	require.NotNil(t, first)
	errs := make(chan error, 1)
	go func() {
		_, err := pv.Wait(ackWaitCtx(t), crashWorker, first.ID, time.Minute)
		errs <- err
	}()
	second, err := pv.Request(ctx, crashWorker, worker.Pivot{Mode: checkpoint.PivotImmediate, Reason: "changed my mind"})
	require.NoError(t, err)
	require.NotEqual(t, first.ID, second.ID)
	err = <-errs
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err), "%v", err)
	assert.Contains(t, err.Error(), second.ID)

	// The worker acknowledges the request in force.
	ack, err := pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
	require.NoError(t, err)
	assert.Equal(t, second.ID, ack.ID)
	assert.Nil(t, ack.NewClaim, "the second request names no new task")
	got, err := pv.Wait(ackWaitCtx(t), crashWorker, second.ID, time.Minute)
	require.NoError(t, err)
	assert.Equal(t, ack, got)
	_, err = pv.Wait(ackWaitCtx(t), crashWorker, first.ID, time.Minute)
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err))
}

// A request replaced while the worker acknowledges the one it read: the
// acknowledgement fails with CONFLICT and leaves the replacement pending;
// acknowledging that one completes it, with the new checkpoint.
func TestRequestReplacedDuringAcknowledge(t *testing.T) {
	root, pv, me := ackSetup(t)
	agentFile := ".taskmd/agents/" + crashWorker + ".json"
	replaced := false
	hooks.Read = func(name string) error {
		// The check of the new task's claim reads the worker's agent
		// file first: the acknowledgement goes on with the request it read.
		if name == agentFile && !replaced {
			replaced = true
			_, err := pv.Request(ctx, crashWorker, worker.Pivot{Reason: "another reason", NewTask: taskTo})
			require.NoError(t, err)
		}
		return nil
	}
	defer func() { hooks.Read = func(string) error { return nil } }()
	_, err := pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
	hooks.Read = func(string) error { return nil }
	require.True(t, replaced)
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err), "%v", err)
	pending, err := pv.Pending(ctx, crashWorker)
	require.NoError(t, err)
	require.NotNil(t, pending)
	assert.Equal(t, "another reason", pending.Reason)
	from := planTask(t, root, "add-rate-limiting")
	assert.Equal(t, taskdoc.StatusPaused, from.Status)
	assert.Equal(t, checkpoint.WorkerFile(crashWorker, 1), fieldOf(from, taskdoc.KeyCheckpoint))

	ack, err := pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
	require.NoError(t, err)
	assert.Equal(t, pending.ID, ack.ID)
	assert.Equal(t, checkpoint.WorkerFile(crashWorker, 2), ack.Checkpoint, "the reason is in the checkpoint: a new one")
	from = planTask(t, root, "add-rate-limiting")
	assert.Equal(t, ack.Checkpoint, fieldOf(from, taskdoc.KeyCheckpoint), "the task points at the newest")
	cp, err := pv.Workers().Get(ctx, crashWorker, 0)
	require.NoError(t, err)
	assert.Equal(t, "another reason", cp.PivotReason)
	assert.Equal(t, crashWorker, fieldOf(planTask(t, root, "fix-login-bug"), taskdoc.KeyAssignee))
}

// A hard pivot of a worker that works on nothing: nothing is revoked, and
// the acknowledgement only claims the new task.
func TestHardPivotWithoutATask(t *testing.T) {
	root, pv, _ := ackSetup(t)
	before, err := os.ReadFile(filepath.Join(root, "docs", "shop.md"))
	require.NoError(t, err)
	req, err := pv.Request(ctx, crashOther, worker.Pivot{Mode: checkpoint.PivotHard, Reason: "idle", NewTask: taskTo})
	require.NoError(t, err)
	assert.Empty(t, req.Task)
	after, err := os.ReadFile(filepath.Join(root, "docs", "shop.md"))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "nothing revoked")

	ack, err := pv.Acknowledge(ctx, crashOther, plan.Claimant{}, checkpoint.Checkpoint{})
	require.NoError(t, err)
	assert.Equal(t, worker.StateAcknowledged, ack.State)
	assert.Empty(t, ack.Checkpoint)
	require.NotNil(t, ack.NewClaim)
	assert.Equal(t, crashOther, ack.NewClaim.Agent)
	cps, err := pv.Workers().List(ctx, crashOther, 0)
	require.NoError(t, err)
	assert.Empty(t, cps)
	from := planTask(t, root, "add-rate-limiting")
	assert.Equal(t, taskdoc.StatusInProgress, from.Status, "the other worker's task is untouched")
	assert.Equal(t, crashWorker, fieldOf(from, taskdoc.KeyAssignee))
}

// The new task is held by another online agent: the acknowledgement fails
// with CONFLICT before anything is written (the worker keeps its task and
// saves no checkpoint), retries change nothing, and once the other agent
// lets go a retry completes the pivot with one checkpoint.
func TestNewTaskHeldByAnotherAgent(t *testing.T) {
	root, pv, me := ackSetup(t)
	res, err := pv.Plans().Claim(ctx, taskTo, crashOther)
	require.NoError(t, err)
	require.True(t, res.Success)
	other := plan.Claimant{Agent: crashOther, Token: res.Claim.Token}

	before := filetest.Snapshot(t, root)
	for range 2 {
		_, err = pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
		assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err), "%v", err)
		assert.Contains(t, err.Error(), crashOther)
		assert.Equal(t, before, filetest.Snapshot(t, root), "a refused acknowledgement writes nothing")
	}

	require.NoError(t, pv.Plans().Release(ctx, taskTo, other))
	retryAck(t, root)
}

// WithAgentTimeout is the lease of the plans the pivots claim with: the
// new task's holder, quiet for two minutes, still holds it under a ten
// minute timeout (the acknowledgement is CONFLICT), and has lost it under
// the default one (the acknowledgement takes it over).
func TestAgentTimeoutDecidesTheNewTasksLease(t *testing.T) {
	later := func() time.Time { return crashT0.Add(2 * time.Minute) }
	for _, tc := range []struct {
		name string
		opts []worker.Option
		held bool
	}{
		{"ten minutes", []worker.Option{worker.WithClock(later), worker.WithAgentTimeout(10 * time.Minute)}, true},
		{"default", []worker.Option{worker.WithClock(later)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, pv, me := ackSetup(t)
			res, err := pv.Plans().Claim(ctx, taskTo, crashOther)
			require.NoError(t, err)
			require.True(t, res.Success)

			ws, err := workspace.Open(root)
			require.NoError(t, err)
			t.Cleanup(func() { ws.Close() })
			_, err = worker.New(ws, tc.opts...).Acknowledge(ctx, crashWorker, me, crashCheckpoint)
			if tc.held {
				assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err), "%v", err)
				assert.Equal(t, crashOther, fieldOf(planTask(t, root, "fix-login-bug"), taskdoc.KeyAssignee))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, crashWorker, fieldOf(planTask(t, root, "fix-login-bug"), taskdoc.KeyAssignee))
		})
	}
}

// pausedByAnEarlierTry leaves root as an acknowledgement killed after its
// pause leaves it (TestKilledAtEveryRead's stage "paused"): the worker's
// pivoted checkpoint saved, its task paused pointing at it and let go.
func pausedByAnEarlierTry(t *testing.T, pv *worker.Pivots, me plan.Claimant) {
	t.Helper()
	req, err := pv.Pending(ctx, crashWorker)
	require.NoError(t, err)
	require.NotNil(t, req)
	cp := crashCheckpoint
	cp.Worker, cp.Task, cp.Phase, cp.PivotMode, cp.PivotReason = crashWorker, taskFrom, "pivoted", req.Mode, req.Reason
	saved, err := pv.Workers().Save(ctx, cp)
	require.NoError(t, err)
	_, err = pv.Plans().Pause(ctx, taskFrom, me, checkpoint.WorkerFile(crashWorker, saved.Sequence))
	require.NoError(t, err)
}

// A worker whose acknowledgement stopped after the pause (killed) and
// whose paused task another agent claimed before the worker acknowledged
// again: the retry must still complete the pivot, with the earlier try's
// checkpoint and no second one, whatever checkpoint the retry carries,
// and must leave the other agent's claim alone.
func TestRetryAfterThePausedTaskWasClaimed(t *testing.T) {
	root, pv, me := ackSetup(t)
	pausedByAnEarlierTry(t, pv, me)

	// The other agent resumes the paused task from its checkpoint.
	res, err := pv.Plans().Claim(ctx, taskFrom, crashOther)
	require.NoError(t, err)
	require.True(t, res.Success)
	other := plan.Claimant{Agent: crashOther, Token: res.Claim.Token}
	_, err = pv.Plans().UpdateStatus(ctx, taskFrom, other, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)

	retry := crashCheckpoint
	retry.Notes = "written again, a little differently"
	ack, err := pv.Acknowledge(ctx, crashWorker, me, retry)
	require.NoError(t, err)
	cps, err := pv.Workers().List(ctx, crashWorker, 0)
	require.NoError(t, err)
	assert.Len(t, cps, 1, "a retry saves no second checkpoint")
	assert.Equal(t, worker.StateAcknowledged, ack.State)
	assert.Equal(t, checkpoint.WorkerFile(crashWorker, 1), ack.Checkpoint)
	require.NotNil(t, ack.NewClaim)
	assert.Equal(t, taskTo, ack.NewClaim.Task)
	from := planTask(t, root, "add-rate-limiting")
	assert.Equal(t, taskdoc.StatusInProgress, from.Status, "the other agent's work goes on")
	assert.Equal(t, crashOther, fieldOf(from, taskdoc.KeyAssignee))
	_, err = pv.Plans().UpdateStatus(ctx, taskFrom, other, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done"})
	assert.NoError(t, err, "the other agent's claim still holds")
}

// A new task that does not exist, or is done already, is refused by
// Request before anything is written, a hard pivot's take-back included:
// no acknowledgement could claim it, and the worker would be told to
// acknowledge a pivot it can never carry out. Free text is no address and
// is taken as it is.
func TestNewTaskThatDoesNotExist(t *testing.T) {
	for newTask, code := range map[string]taskdoc.Code{
		"/shop.md#no-such-task": taskdoc.CodeTaskNotFound,
		"/nope.md#fix":          taskdoc.CodeDocumentNotFound,
		"/shop.md#done-already": taskdoc.CodeInvalidTransition,
	} {
		for _, mode := range []checkpoint.PivotMode{checkpoint.PivotGraceful, checkpoint.PivotHard} {
			root, pv, me := ackSetup(t)
			f, err := os.OpenFile(filepath.Join(root, "docs", "shop.md"), os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteString("\n### Done already\n- Status: completed\n")
			require.NoError(t, err)
			require.NoError(t, f.Close())
			require.NoError(t, os.Remove(filepath.Join(root, "checkpoints", "workers", crashWorker, "pivot.json")))
			before := filetest.Snapshot(t, root)
			_, err = pv.Request(ctx, crashWorker, worker.Pivot{Mode: mode, Reason: "login is broken", NewTask: newTask})
			assert.Equal(t, code, taskdoc.CodeOf(err), "%s %s: %v", mode, newTask, err)
			assert.Equal(t, before, filetest.Snapshot(t, root), "%s %s: a refused request writes nothing", mode, newTask)

			_, err = pv.Request(ctx, crashWorker, worker.Pivot{Reason: "login is broken", NewTask: taskTo})
			require.NoError(t, err)
			ack, err := pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
			require.NoError(t, err)
			require.NotNil(t, ack.NewClaim)
			assert.Equal(t, taskTo, ack.NewClaim.Task)
		}
	}
	e := setup(t)
	req, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "r", NewTask: "fix the docs of no-such-task"})
	require.NoError(t, err)
	assert.Equal(t, "fix the docs of no-such-task", req.NewTask)
}

// A worker whose claim another agent took over (the worker went offline)
// acknowledges: the pause would be refused (its claim is stale), so
// nothing is written: no checkpoint, the task the new holder's, the
// request pending.
func TestAcknowledgeAfterTakeOver(t *testing.T) {
	root := t.TempDir()
	me := preparePivot(t, root)
	var mu sync.Mutex
	now := crashT0
	pv := openPivots(t, root, func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	mu.Lock()
	now = crashT0.Add(10 * time.Minute) // the worker is offline
	mu.Unlock()
	_, err := pv.Plans().Agents().Heartbeat(ctx, crashOther, agent.HeartbeatInfo{Status: "busy"})
	require.NoError(t, err)
	res, err := pv.Plans().Claim(ctx, taskFrom, crashOther)
	require.NoError(t, err)
	require.True(t, res.Success)
	require.Equal(t, crashWorker, res.Claim.TookOverFrom)

	before := filetest.Snapshot(t, root)
	_, err = pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
	assert.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	assert.Equal(t, before, filetest.Snapshot(t, root), "a refused acknowledgement writes nothing")
	from := planTask(t, root, "add-rate-limiting")
	assert.Equal(t, crashOther, fieldOf(from, taskdoc.KeyAssignee))
	pending, err := pv.Pending(ctx, crashWorker)
	require.NoError(t, err)
	assert.NotNil(t, pending)
}

// Pending is nil once the pivot is acknowledged, and stays nil.
func TestPendingAfterAcknowledge(t *testing.T) {
	_, pv, me := ackSetup(t)
	_, err := pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
	require.NoError(t, err)
	for range 2 {
		p, err := pv.Pending(ctx, crashWorker)
		require.NoError(t, err)
		assert.Nil(t, p)
	}
}

// Two goroutines acknowledge the same pivot at once: they get the same
// result, and one checkpoint is saved.
func TestConcurrentAcknowledgements(t *testing.T) {
	for range 5 {
		root, pv, me := ackSetup(t)
		var acks [2]worker.Request
		var errs [2]error
		var wg sync.WaitGroup
		for i := range acks {
			wg.Go(func() { acks[i], errs[i] = pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint) })
		}
		wg.Wait()
		require.NoError(t, errs[0])
		require.NoError(t, errs[1])
		assert.Equal(t, acks[0], acks[1])
		cps, err := pv.Workers().List(ctx, crashWorker, 0)
		require.NoError(t, err)
		assert.Len(t, cps, 1)
		assert.Equal(t, acks[0].Checkpoint, fieldOf(planTask(t, root, "add-rate-limiting"), taskdoc.KeyCheckpoint))
	}
}

// Two goroutines acknowledge the same pivot at once with different
// checkpoints (a confused worker): the request and the paused task must
// name the same one.
func TestConcurrentAcknowledgementsDiffer(t *testing.T) {
	for range 5 {
		root, pv, me := ackSetup(t)
		var acks [2]worker.Request
		var errs [2]error
		var wg sync.WaitGroup
		for i := range acks {
			cp := crashCheckpoint
			cp.Notes = []string{"first", "second"}[i]
			wg.Go(func() { acks[i], errs[i] = pv.Acknowledge(ctx, crashWorker, me, cp) })
		}
		wg.Wait()
		require.NoError(t, errs[0])
		require.NoError(t, errs[1])
		assert.Equal(t, acks[0], acks[1])
		assert.Equal(t, acks[0].Checkpoint, fieldOf(planTask(t, root, "add-rate-limiting"), taskdoc.KeyCheckpoint))
	}
}

// Every refusal of an acknowledgement is decided before the first byte is
// written: the call fails and leaves every file as it was (no checkpoint
// saved, the task the worker's), and the request stays pending.
func TestRefusedAcknowledgeChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, root string, pv *worker.Pivots, me plan.Claimant)
		claim   func(me plan.Claimant) plan.Claimant
		code    taskdoc.Code
	}{
		{name: "wrong token", claim: func(me plan.Claimant) plan.Claimant { me.Token++; return me }, code: plan.CodeStaleClaim},
		{name: "no token", claim: func(plan.Claimant) plan.Claimant { return plan.Claimant{} }, code: plan.CodeStaleClaim},
		{name: "new task blocked", code: taskdoc.CodeTaskBlocked,
			prepare: func(t *testing.T, root string, pv *worker.Pivots, _ plan.Claimant) {
				f, err := os.OpenFile(filepath.Join(root, "docs", "shop.md"), os.O_APPEND|os.O_WRONLY, 0)
				require.NoError(t, err)
				_, err = f.WriteString("\n### Deploy\n- Status: pending\n- Depends-On: #add-rate-limiting\n")
				require.NoError(t, err)
				require.NoError(t, f.Close())
				_, err = pv.Request(ctx, crashWorker, worker.Pivot{Reason: "ship it", NewTask: "/shop.md#deploy"})
				require.NoError(t, err)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, pv, me := ackSetup(t)
			if tc.prepare != nil {
				tc.prepare(t, root, pv, me)
			}
			claim := me
			if tc.claim != nil {
				claim = tc.claim(me)
			}
			pending, err := pv.Pending(ctx, crashWorker)
			require.NoError(t, err)
			require.NotNil(t, pending)
			before := filetest.Snapshot(t, root)
			for range 2 {
				_, err := pv.Acknowledge(ctx, crashWorker, claim, crashCheckpoint)
				assert.Equal(t, tc.code, taskdoc.CodeOf(err), "%v", err)
				assert.Equal(t, before, filetest.Snapshot(t, root), "a refused acknowledgement writes nothing")
			}
			again, err := pv.Pending(ctx, crashWorker)
			require.NoError(t, err)
			assert.Equal(t, pending, again)
		})
	}
}

// A worker that completes its task as the pivot arrives (graceful: it
// finishes the step it is in, here the last one) then acknowledges: there
// is nothing left to let go of, so its checkpoint is saved, the task stays
// completed and the new task is claimed, as for a pivot from no task; a
// retry answers the same and writes nothing.
func TestAcknowledgeAfterTheTaskWasCompleted(t *testing.T) {
	for _, status := range []taskdoc.Status{taskdoc.StatusCompleted, taskdoc.StatusSkipped} {
		root, pv, me := ackSetup(t)
		u := plan.StatusUpdate{Status: status}
		if status == taskdoc.StatusCompleted {
			u.Note = "done"
		}
		_, err := pv.Plans().UpdateStatus(ctx, taskFrom, me, u)
		require.NoError(t, err)
		ack, err := pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
		require.NoError(t, err, "%s", status)
		assert.Equal(t, worker.StateAcknowledged, ack.State)
		assert.Equal(t, checkpoint.WorkerFile(crashWorker, 1), ack.Checkpoint)
		require.NotNil(t, ack.NewClaim)
		assert.Equal(t, taskTo, ack.NewClaim.Task)
		from := planTask(t, root, "add-rate-limiting")
		assert.Equal(t, status, from.Status)
		assert.Empty(t, fieldOf(from, taskdoc.KeyCheckpoint))
		pending, err := pv.Pending(ctx, crashWorker)
		require.NoError(t, err)
		assert.Nil(t, pending)

		before := filetest.Snapshot(t, root)
		again, err := pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
		require.NoError(t, err)
		assert.Equal(t, ack, again)
		assert.Equal(t, before, filetest.Snapshot(t, root), "a retry writes nothing")
	}
}

// A refused acknowledgement retried once the refusal is gone (the right
// token) saves one checkpoint, the first.
func TestAcknowledgeRetriedWithTheRightToken(t *testing.T) {
	root, pv, me := ackSetup(t)
	wrong := me
	wrong.Token++
	_, err := pv.Acknowledge(ctx, crashWorker, wrong, crashCheckpoint)
	require.Equal(t, plan.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	retry := crashCheckpoint
	retry.Notes = "the second try"
	ack, err := pv.Acknowledge(ctx, crashWorker, me, retry)
	require.NoError(t, err)
	assert.Equal(t, checkpoint.WorkerFile(crashWorker, 1), ack.Checkpoint)
	cps, err := pv.Workers().List(ctx, crashWorker, 0)
	require.NoError(t, err)
	require.Len(t, cps, 1)
	assert.Equal(t, "the second try", cps[0].Notes)
	assert.Equal(t, ack.Checkpoint, fieldOf(planTask(t, root, "add-rate-limiting"), taskdoc.KeyCheckpoint))
}
