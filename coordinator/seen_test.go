package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// A list's operation made with the task and status its caller saw
// (taskflow.WithSeen, a person's page) is CONFLICT under the list's lock,
// and writes nothing, when the task is in another status now or the
// operation would land on another task; made with what the list holds,
// it is made.
func TestListOperationsCheckWhatWasSeen(t *testing.T) {
	text := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: in_progress\n- Main-Workflow: m\n\n### B\n\n- Status: blocked\n- Blocked: waits\n\n### C\n\n- Status: pending\n"
	list, _, root := openList(t, map[string]string{coordinator.File: text})
	unchanged := func() {
		t.Helper()
		got, _ := readFile(t, root, coordinator.File)
		assert.Equal(t, text, got, "a refused operation writes nothing")
	}

	_, err := list.SetStatus(taskflow.WithSeen(bg, "b", taskdoc.StatusPending), "b", taskdoc.StatusSkipped, "")
	requireCode(t, err, taskdoc.CodeConflict)
	unchanged()
	_, err = list.Complete(taskflow.WithSeen(bg, "a", taskdoc.StatusPending), "done", coordinator.CompleteOptions{Slug: "a"})
	requireCode(t, err, taskdoc.CodeConflict)
	unchanged()
	_, err = list.Start(taskflow.WithSeen(bg, "c", taskdoc.StatusPending), coordinator.StartOptions{})
	requireCode(t, err, taskdoc.CodeConflict) // the list's task to start is a, in progress
	unchanged()

	_, err = list.Complete(taskflow.WithSeen(bg, "a", taskdoc.StatusInProgress), "done", coordinator.CompleteOptions{Slug: "a"})
	require.NoError(t, err)
	got, err := list.SetStatus(taskflow.WithSeen(bg, "b", taskdoc.StatusBlocked), "b", taskdoc.StatusPending, "")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPending, got.Status)
}
