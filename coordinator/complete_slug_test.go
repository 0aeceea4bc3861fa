package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestCompleteNamedTask: CompleteOptions.Slug completes the current task
// when it is the one named, and refuses, writing nothing, when another
// task is current (a caller that read the list before another process
// completed its task).
func TestCompleteNamedTask(t *testing.T) {
	text := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: in_progress\n- Main-Workflow: m\n\n### B\n\n- Status: pending\n"
	list, _, root := openList(t, map[string]string{coordinator.File: text})

	_, err := list.Complete(bg, "done", coordinator.CompleteOptions{Slug: "b"})
	requireCode(t, err, taskdoc.CodeInvalidTransition)
	assert.Contains(t, err.Error(), "#a")
	got, _ := readFile(t, root, coordinator.File)
	assert.Equal(t, text, got, "a refused completion writes nothing")

	done, err := list.Complete(bg, "done", coordinator.CompleteOptions{Slug: "#a"})
	require.NoError(t, err)
	assert.Equal(t, "a", done.Task.Slug)

	_, err = list.Complete(bg, "again", coordinator.CompleteOptions{Slug: "a"})
	requireCode(t, err, taskdoc.CodeInvalidTransition)
}

// TestCompleteNamedTaskAgainIsARetry: a completion that names its task,
// when that task is completed already with the same note, is a retry of
// the call that completed it: answered with that completion (Replayed),
// the next task untouched, nothing written. Another note is no retry.
func TestCompleteNamedTaskAgainIsARetry(t *testing.T) {
	text := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: in_progress\n- Main-Workflow: m\n\n### B\n\n- Status: pending\n\n### C\n\n- Status: pending\n"
	list, _, root := openList(t, map[string]string{coordinator.File: text})

	first, err := list.Complete(bg, "wrote  the\nparser", coordinator.CompleteOptions{Slug: "a"})
	require.NoError(t, err)
	require.False(t, first.Replayed)
	written := mustRead(t, root, coordinator.File)

	again, err := list.Complete(bg, "wrote  the\nparser", coordinator.CompleteOptions{Slug: "#a"})
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, "a", again.Task.Slug)
	assert.Equal(t, taskdoc.StatusCompleted, again.Task.Status)
	assert.Equal(t, first.Note, again.Note)
	assert.Equal(t, first.Date, again.Date)
	assert.Equal(t, written, mustRead(t, root, coordinator.File), "a retry writes nothing: b stays in progress, not completed")

	_, err = list.Complete(bg, "another note", coordinator.CompleteOptions{Slug: "a"})
	requireCode(t, err, taskdoc.CodeInvalidTransition)
	assert.Equal(t, written, mustRead(t, root, coordinator.File))
}

// TestCompleteNamedLastTaskAgainIsARetry: the completion of the list's
// last task finishes and archives it; the same call again (its answer was
// lost) is answered with that completion from the archive, as a request
// key's retry is, and writes nothing, also once a new list was created.
func TestCompleteNamedLastTaskAgainIsARetry(t *testing.T) {
	text := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: pending\n\n### B\n\n- Status: in_progress\n- Main-Workflow: m\n"
	list, _, root := openList(t, map[string]string{coordinator.File: text})
	_, err := list.Complete(bg, "did b", coordinator.CompleteOptions{Slug: "b"})
	require.NoError(t, err)
	first, err := list.Complete(bg, "did a", coordinator.CompleteOptions{Slug: "a"})
	require.NoError(t, err)
	require.NotEmpty(t, first.ArchivedTo)

	for _, step := range []string{"no list", "a new list"} {
		if step == "a new list" {
			_, err := list.Create(bg, taskdoc.NewTask{Title: "C", Content: "- Status: pending\n- Main-Workflow: m\n"})
			require.NoError(t, err)
		}
		files := filetest.Snapshot(t, root)
		again, err := list.Complete(bg, "did a", coordinator.CompleteOptions{Slug: "a"})
		require.NoError(t, err, step)
		assert.True(t, again.Replayed, step)
		assert.Equal(t, "a", again.Task.Slug, step)
		assert.Equal(t, taskdoc.StatusCompleted, again.Task.Status, step)
		assert.Equal(t, first.ArchivedTo, again.ArchivedTo, step)
		assert.Equal(t, first.Note, again.Note, step)
		assert.Equal(t, first.Date, again.Date, step)
		assert.Nil(t, again.Next, step)
		assert.Equal(t, files, filetest.Snapshot(t, root), "%s: a retry writes nothing", step)
	}

	_, err = list.Complete(bg, "another note", coordinator.CompleteOptions{Slug: "a"})
	requireCode(t, err, taskdoc.CodeInvalidTransition)
}
