package coordinator_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// A hand-written "- Status:" with no value reads as pending, for List and
// for Start and Complete alike: it does not block the list.
func TestStartBlankStatusReadsAsPending(t *testing.T) {
	list, _, root := openList(t, map[string]string{
		activeFile: "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status:\n- Main-Workflow: tdd\n\nDo a.\n\n### B\n\n- Status: pending\n\nDo b.\n",
	})
	tasks, err := list.List(bg, taskdoc.StatusPending)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, slugsOf(tasks), "List reads a blank Status as pending")

	started, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err, "the first pending task, as List reports it, must start")
	require.Equal(t, "a", started.Task.Slug)
	require.Equal(t, taskdoc.StatusInProgress, statuses(t, root, activeFile)["a"])

	done, err := list.Complete(bg, "did a", coordinator.CompleteOptions{})
	require.NoError(t, err)
	require.Equal(t, "a", done.Task.Slug)
}

// When completing the last task cannot archive the list (here
// archived/coordinator is a file), the completion is written and the call
// succeeds, saying the archive failed; it never fails after writing.
func TestCompleteLastTaskArchiveFailureAfterWrite(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("Only"))
	require.NoError(t, err)
	filetest.Write(t, root, "archived/coordinator", "not a folder\n")
	before := mustRead(t, root, activeFile)

	done, err := list.Complete(bg, "done", coordinator.CompleteOptions{})
	after, _ := readFile(t, root, activeFile)
	if err != nil {
		require.Equal(t, before, after, "Complete failed (%v) but rewrote %s", err, activeFile)
		return
	}
	require.Equal(t, taskdoc.StatusCompleted, done.Task.Status)
	require.Error(t, done.ArchiveError)
	assert.Empty(t, done.ArchivedTo)
	assert.Equal(t, taskdoc.StatusCompleted, statuses(t, root, activeFile)["only"])
}

// An error about an archive file names that file, not the list: a failed
// archive write must not read as "no list".
func TestArchiveErrorKeepsItsPath(t *testing.T) {
	list, _, root := openList(t, map[string]string{
		activeFile:             "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: completed\n- Main-Workflow: tdd\n- Completed: 2026-11-21\n- Note: n\n\nDo a.\n",
		"archived/coordinator": "not a folder\n",
	})
	_, err := list.Create(bg, first("Next"))
	require.Error(t, err)
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	_, statErr := os.Stat(filepath.Join(root, activeFile))
	require.NoError(t, statErr, "the list exists")
	if e.Code == taskdoc.CodeDocumentNotFound {
		require.NotEqual(t, coordinator.Address, e.Path,
			"%v: the list exists; the missing thing is under %s", err, "archived/coordinator")
	}
}

// A coordinator error names the list once (not "/coordinator/active.md:
// coordinator/active.md: ..."), and its cause stays reachable.
func TestCoordinatorErrorNamesTheListOnce(t *testing.T) {
	list, _, _ := openList(t, nil)
	_, err := list.Create(bg, first("Only"), plain("Two"))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err = list.Start(ctx, coordinator.StartOptions{})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, strings.Count(err.Error(), "coordinator/active.md"), "message: %q", err.Error())
}
