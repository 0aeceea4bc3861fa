package checkpoint_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
)

func TestDiff(t *testing.T) {
	a := checkpoint.Checkpoint{
		Worker: "w", Sequence: 1, Status: checkpoint.StatusPartial, Phase: "working",
		Completed:    []string{"Read the logs"},
		InProgress:   []string{"Supervision"},
		Remaining:    []string{"Tests", "Docs", "Benchmarks"},
		Blocked:      []string{"Pattern (Q1)"},
		FilesChanged: []checkpoint.FileChange{{Path: "a.go", Note: "new"}},
		Decisions:    []string{"One actor per watcher"},
	}
	b := checkpoint.Checkpoint{
		Worker: "w", Sequence: 2, Status: checkpoint.StatusBlocked, Phase: "waiting_clarification",
		Completed:    []string{"Read the logs", "Supervision", "Tests", "Wrote a spike"},
		InProgress:   []string{"Docs"},
		Blocked:      []string{"Pattern (Q1)", "Lifecycle (Q2)"},
		ParallelWork: []string{"Test harness"},
		FilesChanged: []checkpoint.FileChange{{Path: "a.go", Note: "modified"}, {Path: "b.go", Note: "new"}},
		Decisions:    []string{"One actor per watcher", "Restart on crash"},
	}
	d := checkpoint.Diff(a, b)
	assert.Equal(t, checkpoint.Changes{
		FromSequence: 1, ToSequence: 2,
		OldStatus: checkpoint.StatusPartial, NewStatus: checkpoint.StatusBlocked,
		OldPhase: "working", NewPhase: "waiting_clarification",
		Finished: []string{"Supervision", "Tests"},
		Started:  []string{"Docs"},
		Added: []checkpoint.ItemChange{{Section: "Completed", Text: "Wrote a spike"},
			{Section: "Blocked", Text: "Lifecycle (Q2)"}, {Section: "Parallel Work Available", Text: "Test harness"}},
		Dropped:      []checkpoint.ItemChange{{Section: "Remaining", Text: "Benchmarks"}},
		NewFiles:     []checkpoint.FileChange{{Path: "b.go", Note: "new"}},
		NewDecisions: []string{"Restart on crash"},
	}, d)
	assert.False(t, d.Empty())

	same := checkpoint.Diff(a, a)
	assert.True(t, same.Empty(), "%+v", same)

	// Items are compared in normal form: folding and a "" status do not
	// count as changes.
	c := a
	c.Status = ""
	c.Remaining = []string{"Tests", "  Docs\n", "Benchmarks"}
	assert.True(t, checkpoint.Diff(a, c).Empty())
}

// Diff of two saved checkpoints of one worker: what moved.
func TestDiffSaved(t *testing.T) {
	w, _ := setupWorkers(t)
	ctx := context.Background()
	first, err := w.Save(ctx, workerCheckpoint("worker-1"))
	require.NoError(t, err)
	next := workerCheckpoint("worker-1")
	next.Completed = append(slices.Clone(next.Completed), next.InProgress...)
	next.InProgress = []string{"Tests for rate limiting"}
	next.Remaining = []string{"Documentation update"}
	next.FilesChanged = append(slices.Clone(next.FilesChanged), checkpoint.FileChange{Path: "src/routes/posts.ts", Note: "modified"})
	next.Phase = "working"
	second, err := w.Save(ctx, next)
	require.NoError(t, err)
	d := checkpoint.Diff(first, second)
	assert.Equal(t, []string{"Integration with routes (50% done - /users has it, /posts doesn't)"}, d.Finished)
	assert.Equal(t, []string{"Tests for rate limiting"}, d.Started)
	assert.Empty(t, d.Added)
	assert.Empty(t, d.Dropped)
	assert.Equal(t, []checkpoint.FileChange{{Path: "src/routes/posts.ts", Note: "modified"}}, d.NewFiles)
	assert.Equal(t, "pivoted", d.OldPhase)
	assert.Equal(t, "working", d.NewPhase)
	assert.Equal(t, 1, d.FromSequence)
	assert.Equal(t, 2, d.ToSequence)
}
