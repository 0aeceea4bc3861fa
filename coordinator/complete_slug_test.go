package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
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
