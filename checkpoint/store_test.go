package checkpoint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// setupWorkers returns the worker checkpoints of a fresh workspace on the
// test clock (start, then a minute later at each reading), and the root.
func setupWorkers(t testing.TB) (*checkpoint.Store, string) {
	t.Helper()
	root := t.TempDir()
	clock := &testClock{t: start}
	return checkpoint.New(openWorkspace(t, root), checkpoint.WithClock(clock.now)), root
}

func workerCheckpoint(worker string) checkpoint.Checkpoint {
	c := pivotedCheckpoint
	c.Worker = worker
	c.Time, c.Sequence = time.Time{}, 0
	return c
}

func TestStoreSaveHistory(t *testing.T) {
	w, root := setupWorkers(t)
	ctx := context.Background()

	first, err := w.Save(ctx, workerCheckpoint("worker-1"))
	require.NoError(t, err)
	assert.Equal(t, 1, first.Sequence)
	assert.Equal(t, start, first.Time)

	next := workerCheckpoint("worker-1")
	next.InProgress = nil
	next.Completed = append(slices.Clone(next.Completed), "Integration with routes (50% done - /users has it, /posts doesn't)")
	next.Status = checkpoint.StatusDone
	second, err := w.Save(ctx, next)
	require.NoError(t, err)
	assert.Equal(t, 2, second.Sequence)
	assert.Equal(t, start.Add(time.Minute), second.Time)

	// Both files are there, each as Render writes it.
	for _, c := range []checkpoint.Checkpoint{first, second} {
		want, err := c.Render()
		require.NoError(t, err)
		assert.Equal(t, string(want), filetest.Read(t, root, fmt.Sprintf("checkpoints/workers/worker-1/%06d.md", c.Sequence)))
	}

	got, err := w.Get(ctx, "worker-1", 0)
	require.NoError(t, err)
	assert.Equal(t, second, got, "the newest is the current one")
	got, err = w.Get(ctx, "worker-1", 1)
	require.NoError(t, err)
	assert.Equal(t, first, got)

	history, err := w.List(ctx, "worker-1", 0)
	require.NoError(t, err)
	assert.Equal(t, []checkpoint.Checkpoint{second, first}, history)
	history, err = w.List(ctx, "worker-1", 1)
	require.NoError(t, err)
	assert.Equal(t, []checkpoint.Checkpoint{second}, history)
	none, err := w.List(ctx, "worker-2", 0)
	require.NoError(t, err)
	assert.Empty(t, none)

	_, err = w.Save(ctx, workerCheckpoint("a_b"))
	require.NoError(t, err)
	workers, err := w.ListWorkers(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"a_b", "worker-1"}, workers)
}

// A retry (the same content) writes nothing and returns the current one;
// content that differs only in its normal form is a retry too.
func TestStoreSaveRetry(t *testing.T) {
	w, root := setupWorkers(t)
	ctx := context.Background()
	saved, err := w.Save(ctx, workerCheckpoint("worker-1"))
	require.NoError(t, err)
	before := filetest.Snapshot(t, root)
	mod := modTime(t, root, "checkpoints/workers/worker-1/000001.md")

	again := workerCheckpoint("worker-1")
	again.Status = "partial"
	again.Phase = "Pivoted"
	again.Remaining = []string{"Tests for  rate\nlimiting", "Documentation update"}
	again.Time, again.Sequence = start.Add(time.Hour), 7
	got, err := w.Save(ctx, again)
	require.NoError(t, err)
	assert.Equal(t, saved, got)
	assert.Equal(t, before, filetest.Snapshot(t, root), "a retry writes nothing")
	assert.Equal(t, mod, modTime(t, root, "checkpoints/workers/worker-1/000001.md"))

	// Going back to an earlier content is new: only the current one counts.
	changed := workerCheckpoint("worker-1")
	changed.Notes = "more"
	_, err = w.Save(ctx, changed)
	require.NoError(t, err)
	third, err := w.Save(ctx, workerCheckpoint("worker-1"))
	require.NoError(t, err)
	assert.Equal(t, 3, third.Sequence)
}

// Saves of one worker from many goroutines get distinct sequences, 1 to n,
// and every file reads.
func TestStoreSaveConcurrent(t *testing.T) {
	w, _ := setupWorkers(t)
	ctx := context.Background()
	const n = 24
	seqs := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			c := workerCheckpoint("worker-1")
			c.Notes = fmt.Sprintf("goroutine %d", i)
			saved, err := w.Save(ctx, c)
			assert.NoError(t, err)
			seqs[i] = saved.Sequence
		})
	}
	wg.Wait()
	slices.Sort(seqs)
	for i, s := range seqs {
		assert.Equal(t, i+1, s)
	}
	history, err := w.List(ctx, "worker-1", 0)
	require.NoError(t, err)
	require.Len(t, history, n)
	for i := 1; i < n; i++ {
		assert.Greater(t, history[i-1].Sequence, history[i].Sequence)
		assert.False(t, history[i-1].Time.Before(history[i].Time), "times increase with sequences")
	}
}

// Get names the file's worker and sequence whatever its front matter says,
// reads a hand-edited checkpoint, and points at the line of a broken one.
func TestStoreGetHandEdited(t *testing.T) {
	w, root := setupWorkers(t)
	ctx := context.Background()
	edited := readGolden(t, "handedited.md")
	filetest.WriteAll(t, root, map[string]string{"checkpoints/workers/worker-9/000004.md": edited,
		"checkpoints/workers/worker-9/notes.md": "not a checkpoint",
		"checkpoints/workers/Bad-ID/000001.md":  edited,
		"checkpoints/workers/empty/readme.md":   "no checkpoint here"})
	got, err := w.Get(ctx, "worker-9", 0)
	require.NoError(t, err)
	want := pivotedCheckpoint
	want.Worker, want.Sequence = "worker-9", 4
	assert.Equal(t, want, got)

	workers, err := w.ListWorkers(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"worker-9"}, workers)

	// Saving what it holds is a retry; a new checkpoint follows it.
	saved, err := w.Save(ctx, workerCheckpoint("worker-9"))
	require.NoError(t, err)
	assert.Equal(t, want, saved)
	next := workerCheckpoint("worker-9")
	next.Notes = "resumed"
	saved, err = w.Save(ctx, next)
	require.NoError(t, err)
	assert.Equal(t, 5, saved.Sequence)

	filetest.WriteAll(t, root, map[string]string{"checkpoints/workers/worker-9/000006.md": "## Notes\n\n```\nnever closed\n"})
	_, err = w.Get(ctx, "worker-9", 0)
	e := requireCode(t, err, taskdoc.CodeParse)
	assert.Equal(t, "checkpoints/workers/worker-9/000006.md", e.Path)
	assert.Equal(t, 3, e.Line)
	_, err = w.List(ctx, "worker-9", 0)
	requireCode(t, err, taskdoc.CodeParse)
	// A broken current checkpoint does not keep a worker from saving.
	saved, err = w.Save(ctx, workerCheckpoint("worker-9"))
	require.NoError(t, err)
	assert.Equal(t, 7, saved.Sequence)
}

func TestStoreNotFound(t *testing.T) {
	w, _ := setupWorkers(t)
	ctx := context.Background()
	_, err := w.Get(ctx, "worker-1", 0)
	requireCode(t, err, taskdoc.CodeDocumentNotFound)
	_, err = w.Save(ctx, workerCheckpoint("worker-1"))
	require.NoError(t, err)
	_, err = w.Get(ctx, "worker-1", 2)
	requireCode(t, err, taskdoc.CodeDocumentNotFound)
	workers, err := w.ListWorkers(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"worker-1"}, workers)
}

// Bad input is refused with its code, and nothing is written.
func TestStoreBadInput(t *testing.T) {
	w, root := setupWorkers(t)
	ctx := context.Background()
	with := func(f func(*checkpoint.Checkpoint)) checkpoint.Checkpoint {
		c := workerCheckpoint("worker-1")
		f(&c)
		return c
	}
	for _, tc := range []struct {
		name string
		c    checkpoint.Checkpoint
		code taskdoc.Code
	}{
		{"no worker", with(func(c *checkpoint.Checkpoint) { c.Worker = "" }), taskdoc.CodeInvalidArguments},
		{"upper-case worker", with(func(c *checkpoint.Checkpoint) { c.Worker = "Worker" }), taskdoc.CodeInvalidArguments},
		{"worker with a slash", with(func(c *checkpoint.Checkpoint) { c.Worker = "a/b" }), taskdoc.CodeInvalidArguments},
		{"worker starting with '-'", with(func(c *checkpoint.Checkpoint) { c.Worker = "-w" }), taskdoc.CodeInvalidArguments},
		{"worker of 65 bytes", with(func(c *checkpoint.Checkpoint) { c.Worker = strings.Repeat("a", 65) }), taskdoc.CodeInvalidArguments},
		{"unknown status", with(func(c *checkpoint.Checkpoint) { c.Status = "HALF" }), taskdoc.CodeInvalidArguments},
		{"phase with a space", with(func(c *checkpoint.Checkpoint) { c.Phase = "waiting for" }), taskdoc.CodeInvalidArguments},
		{"phase with a dash", with(func(c *checkpoint.Checkpoint) { c.Phase = "waiting-x" }), taskdoc.CodeInvalidArguments},
		{"unknown pivot mode", with(func(c *checkpoint.Checkpoint) { c.PivotMode = "soft" }), taskdoc.CodeInvalidArguments},
		{"bad task address", with(func(c *checkpoint.Checkpoint) { c.Task = "/api/auth.txt#x" }), taskdoc.CodeInvalidArguments},
		{"empty item", with(func(c *checkpoint.Checkpoint) { c.Remaining = []string{" \n "} }), taskdoc.CodeInvalidArguments},
		{"file without a path", with(func(c *checkpoint.Checkpoint) {
			c.FilesChanged = []checkpoint.FileChange{{Note: "new"}}
		}), taskdoc.CodeInvalidArguments},
		{"path on two lines", with(func(c *checkpoint.Checkpoint) {
			c.FilesChanged = []checkpoint.FileChange{{Path: "a\nb"}}
		}), taskdoc.CodeInvalidArguments},
		{"clarification on two lines", with(func(c *checkpoint.Checkpoint) { c.Clarification = "a\nb" }), taskdoc.CodeInvalidArguments},
		{"notes with a section heading", with(func(c *checkpoint.Checkpoint) { c.Notes = "x\n## Completed\n" }), taskdoc.CodeInvalidArguments},
		{"notes with an open fence", with(func(c *checkpoint.Checkpoint) { c.Notes = "```\ncode" }), taskdoc.CodeInvalidArguments},
		{"extra section named Notes", with(func(c *checkpoint.Checkpoint) {
			c.Extra = []checkpoint.Section{{Heading: "notes:"}}
		}), taskdoc.CodeInvalidArguments},
		{"extra section named Status", with(func(c *checkpoint.Checkpoint) {
			c.Extra = []checkpoint.Section{{Heading: "Status: done"}}
		}), taskdoc.CodeInvalidArguments},
		{"extra section without heading", with(func(c *checkpoint.Checkpoint) {
			c.Extra = []checkpoint.Section{{Body: "x"}}
		}), taskdoc.CodeInvalidArguments},
		{"control character in an item", with(func(c *checkpoint.Checkpoint) { c.Completed = []string{"a\x1bb"} }), taskdoc.CodeControlCharacter},
		{"NUL in the notes", with(func(c *checkpoint.Checkpoint) { c.Notes = "a\x00" }), taskdoc.CodeControlCharacter},
		{"C1 control in the reason", with(func(c *checkpoint.Checkpoint) { c.PivotReason = "a\u0085b" }), taskdoc.CodeControlCharacter},
		{"invalid UTF-8 in the task text", with(func(c *checkpoint.Checkpoint) { c.OriginalTask = "a\xffb" }), taskdoc.CodeInvalidUTF8},
		{"invalid UTF-8 in a path", with(func(c *checkpoint.Checkpoint) {
			c.FilesChanged = []checkpoint.FileChange{{Path: "\xc3"}}
		}), taskdoc.CodeInvalidUTF8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.Save(ctx, tc.c)
			requireCode(t, err, tc.code)
			_, err = tc.c.Render()
			if tc.c.Worker != "" {
				requireCode(t, err, tc.code)
			}
			_, err = tc.c.JSON()
			if tc.c.Worker != "" {
				requireCode(t, err, tc.code)
			}
		})
	}
	_, err := os.Stat(filepath.Join(root, "checkpoints"))
	assert.True(t, os.IsNotExist(err), "nothing written")

	for _, tc := range []struct {
		worker string
		seq    int
	}{{"", 0}, {"A", 0}, {"..", 0}, {"w", -1}} {
		_, err := w.Get(ctx, tc.worker, tc.seq)
		requireCode(t, err, taskdoc.CodeInvalidArguments)
	}
	_, err = w.List(ctx, "w", -1)
	requireCode(t, err, taskdoc.CodeInvalidArguments)
	_, err = w.List(ctx, "W", 0)
	requireCode(t, err, taskdoc.CodeInvalidArguments)
}

// A cancelled context writes nothing.
func TestStoreSaveCancelled(t *testing.T) {
	w, root := setupWorkers(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := w.Save(ctx, workerCheckpoint("worker-1"))
	require.Error(t, err)
	_, err = os.Stat(filepath.Join(root, "checkpoints"))
	assert.True(t, os.IsNotExist(err))
}

// ListAll lists every worker's checkpoints, the workers by id, each
// newest first, at most limit of each (10 by default).
func TestStoreListAll(t *testing.T) {
	w, root := setupWorkers(t)
	ctx := context.Background()
	all, err := w.ListAll(ctx, 0)
	require.NoError(t, err)
	assert.Empty(t, all)
	assert.NotNil(t, all, "an empty list, not nil")

	save := func(worker string, n int) {
		for i := range n {
			c := workerCheckpoint(worker)
			c.Completed = []string{fmt.Sprint("step ", i)}
			_, err := w.Save(ctx, c)
			require.NoError(t, err)
		}
	}
	save("w2", 2)
	save("w1", 12)
	require.NoError(t, os.MkdirAll(filepath.Join(root, "checkpoints", "workers", "w3", "clarifications"), 0o755))

	names := func(list []checkpoint.Checkpoint) []string {
		var out []string
		for _, c := range list {
			out = append(out, checkpoint.WorkerFile(c.Worker, c.Sequence))
		}
		return out
	}
	all, err = w.ListAll(ctx, 0)
	require.NoError(t, err)
	var want []string
	for seq := 12; seq > 2; seq-- {
		want = append(want, checkpoint.WorkerFile("w1", seq))
	}
	want = append(want, "checkpoints/workers/w2/000002.md", "checkpoints/workers/w2/000001.md")
	assert.Equal(t, want, names(all))
	one, err := w.Get(ctx, "w2", 1)
	require.NoError(t, err)
	assert.Equal(t, one, all[len(all)-1], "the same checkpoints Get reads")

	all, err = w.ListAll(ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, []string{checkpoint.WorkerFile("w1", 12), "checkpoints/workers/w2/000002.md"}, names(all))
	_, err = w.ListAll(ctx, -1)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
}
