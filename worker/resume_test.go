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

// A pivoted task waits in the resume queue, and a new worker resumes it
// from its checkpoint with a brief.
func TestResumeFromCheckpoint(t *testing.T) {
	e := setup(t)
	q, err := e.pivots.ResumeQueue(ctx)
	require.NoError(t, err)
	assert.Empty(t, q)

	_, err = e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: "login is broken"})
	require.NoError(t, err)
	ack, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{
		OriginalTask: "Add rate limiting to /users.",
		Completed:    []string{"middleware written"},
		Remaining:    []string{"tests", "docs"},
		FilesChanged: []checkpoint.FileChange{{Path: "src/limit.go", Note: "new"}},
		Decisions:    []string{"token bucket, 100 a minute"},
		Resumption:   "Write the tests first.",
	})
	require.NoError(t, err)

	q, err = e.pivots.ResumeQueue(ctx)
	require.NoError(t, err)
	require.Len(t, q, 1)
	assert.Equal(t, "/shop.md#add-rate-limiting", q[0].Task)
	assert.Equal(t, ack.Checkpoint, q[0].CheckpointPath)
	require.NotNil(t, q[0].Checkpoint)
	assert.Equal(t, []string{"tests", "docs"}, q[0].Checkpoint.Remaining)

	b, err := e.plans.Agents().Register(ctx, agent.Registration{Name: "w2", Runtime: "test"})
	require.NoError(t, err)
	res, err := e.pivots.Resume(ctx, "/shop.md#add-rate-limiting", b.ID, 0)
	require.NoError(t, err)
	require.True(t, res.Claim.Success)
	assert.Equal(t, taskdoc.StatusInProgress, res.Task.Status)
	want := "# Resume: Add rate limiting\n\n" +
		"Task: /shop.md#add-rate-limiting (in_progress)\n" +
		"Checkpoint: " + ack.Checkpoint + ", saved 2026-11-23T09:00:00Z by " + e.worker + " (pivoted: login is broken)\n" +
		"\n## Original Task\n\nAdd rate limiting to /users.\n" +
		"\n## Completed\n\n- [x] middleware written\n" +
		"\n## Remaining\n\n- [ ] tests\n- [ ] docs\n" +
		"\n## Files Changed\n\n- `src/limit.go` (new)\n" +
		"\n## Decisions\n\n- token bucket, 100 a minute\n" +
		"\n## Resumption Instructions\n\nWrite the tests first.\n" +
		"\n## Context\n\n" +
		"Add rate limiting\n\n- Status: in_progress\n- Checkpoint: " + ack.Checkpoint + "\n- Assignee: " + b.ID + "\n\nLimit /users to 100 requests a minute.\n"
	assert.Equal(t, want, res.Brief)

	q, err = e.pivots.ResumeQueue(ctx)
	require.NoError(t, err)
	assert.Empty(t, q, "a resumed task leaves the queue")
	again, err := e.pivots.Resume(ctx, "/shop.md#add-rate-limiting", b.ID, 0)
	require.NoError(t, err)
	assert.Equal(t, res.Claim, again.Claim, "a retried resume")
	lost, err := e.pivots.Resume(ctx, "/shop.md#add-rate-limiting", e.worker, 0)
	require.NoError(t, err)
	assert.Equal(t, b.ID, lost.Claim.AlreadyClaimedBy)
}

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
