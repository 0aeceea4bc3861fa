package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// Skipping the last open task finishes the list; the retry archives it (as
// the next operation of a List does) and is answered from the archive
// without an error and without writing. A call that would change the
// archived task is TASK_NOT_FOUND, as is any call once a new list holds
// no such task.
func TestSetStatusRetryOnFinishedList(t *testing.T) {
	text := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: completed\n- Main-Workflow: m\n- Completed: 2026-01-01\n- Note: done\n\n### B\n\n- Status: pending\n"
	list, _, root := openList(t, map[string]string{coordinator.File: text})
	got, err := list.SetStatus(bg, "b", taskdoc.StatusSkipped, "")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusSkipped, got.Status)

	again, err := list.SetStatus(bg, "b", taskdoc.StatusSkipped, "no longer needed")
	require.NoError(t, err, "the retry")
	assert.Equal(t, got, again)
	_, ok := readFile(t, root, coordinator.File)
	assert.False(t, ok, "the retry archives the finished list")
	names := archives(t, root)
	require.Len(t, names, 1)
	archived := mustRead(t, root, names[0])
	assert.Contains(t, archived, "### B\n\n- Status: skipped\n")

	again, err = list.SetStatus(bg, "b", taskdoc.StatusSkipped, "")
	require.NoError(t, err, "another retry")
	assert.Equal(t, got, again)

	_, err = list.SetStatus(bg, "b", taskdoc.StatusPending, "")
	requireCode(t, err, taskdoc.CodeTaskNotFound)
	_, err = list.SetStatus(bg, "zzz", taskdoc.StatusSkipped, "")
	requireCode(t, err, taskdoc.CodeTaskNotFound)
	assert.Equal(t, archived, mustRead(t, root, names[0]))

	_, err = list.Create(bg, first("Next list"))
	require.NoError(t, err)
	_, err = list.SetStatus(bg, "b", taskdoc.StatusSkipped, "")
	requireCode(t, err, taskdoc.CodeTaskNotFound)
}
