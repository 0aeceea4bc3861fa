package worker_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// A Resume whose checkpoint does not read writes nothing: the task stays
// paused, in the queue.
func TestResumeWithABrokenCheckpointWritesNothing(t *testing.T) {
	e := setup(t)
	_, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "r"})
	require.NoError(t, err)
	_, err = e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{Completed: []string{"a"}})
	require.NoError(t, err)
	cp := filepath.Join(e.root, "checkpoints", "workers", e.worker, "000001.md")
	require.NoError(t, os.WriteFile(cp, []byte("---\nstatus: WHATEVER\n---\n"), 0o644))
	before := e.read(t, "docs/shop.md")
	b, err := e.plans.Agents().Register(ctx, agent.Registration{Name: "w2", Runtime: "test"})
	require.NoError(t, err)
	_, err = e.pivots.Resume(ctx, "/shop.md#add-rate-limiting", b.ID, 0)
	assert.Equal(t, taskdoc.CodeParse, taskdoc.CodeOf(err))
	assert.Equal(t, before, e.read(t, "docs/shop.md"))
	q, err := e.pivots.ResumeQueue(ctx)
	require.NoError(t, err)
	assert.Len(t, q, 1)
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
