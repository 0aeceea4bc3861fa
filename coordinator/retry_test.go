package coordinator_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/taskdoc"
)

// Complete calls whose answers are lost at random, each sent again with
// its request key until an answer arrives, complete each task exactly once
// with its own note, across lists that archive themselves.
func TestRetriedCompletesCompleteEachTaskOnce(t *testing.T) {
	calls, perList := 1000, 50
	if testing.Short() {
		calls = 200
	}
	list, _, root := openList(t, nil)
	rng := rand.New(rand.NewPCG(8, 9))
	retries := 0
	for made := 0; made < calls; {
		tasks := []taskdoc.NewTask{first("step 0")}
		for i := 1; i < perList; i++ {
			tasks = append(tasks, plain(fmt.Sprintf("step %d", i)))
		}
		_, err := list.Create(bg, tasks...)
		require.NoError(t, err)
		for range perList {
			key, note := fmt.Sprintf("call-%d", made), fmt.Sprintf("note %d", made)
			for attempt := 0; ; attempt++ {
				done, err := list.Complete(bg, note, coordinator.CompleteOptions{RequestKey: key})
				require.NoError(t, err, "call %d, attempt %d", made, attempt)
				assert.Equal(t, attempt > 0, done.Replayed, "call %d, attempt %d", made, attempt)
				assert.Equal(t, note, done.Note)
				if rng.IntN(3) > 0 {
					break // the answer arrived
				}
				retries++
			}
			made++
		}
	}
	seen := map[string]int{}
	for _, name := range archives(t, root) {
		for _, task := range parseFile(t, root, name).Tasks {
			require.Equal(t, taskdoc.StatusCompleted, task.Status)
			seen[field(t, task, "Note")]++
		}
	}
	require.Len(t, seen, calls, "every call completed one task")
	for note, n := range seen {
		require.Equal(t, 1, n, "%s completed %d tasks", note, n)
	}
	t.Logf("%d calls, %d answers lost and sent again", calls, retries)
}

// A retry after the answer of the call that finished and archived the list
// was lost names the archive; a different key completes nothing twice.
func TestRetryAfterArchive(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("Only"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k1"})
	require.NoError(t, err)
	require.NotEmpty(t, done.ArchivedTo)
	again, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k1"})
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, done.ArchivedTo, again.ArchivedTo)
	assert.Equal(t, done.Task, again.Task)
	_, err = list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k2"})
	assert.ErrorIs(t, err, taskdoc.ErrNoAvailableTasks)
	assert.Len(t, archives(t, root), 1)

	_, err = list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "two\nlines"})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
}

// The call that finished and archived a list lost its answer; before it is
// sent again, another agent starts a new list. The retry must be answered
// from the archive, not complete the new list's first task.
func TestRetryKeyAfterArchiveAndNewList(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("Only"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k1"})
	require.NoError(t, err)
	require.NotEmpty(t, done.ArchivedTo)

	_, err = list.Create(bg, first("Fresh"), plain("Later"))
	require.NoError(t, err)

	again, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k1"})
	require.NoError(t, err)
	assert.True(t, again.Replayed, "the retry is answered with the earlier completion")
	assert.Equal(t, "only", again.Task.Slug)
	assert.Equal(t, taskdoc.StatusPending, statuses(t, root, activeFile)["fresh"],
		"the retry completed a task of the new list")
}

// Clear removes the completed task that recorded the key: the retry of the
// call that completed it is still answered, from the call's record, and
// completes nothing.
func TestRetryKeyAfterClear(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("A"), plain("B"), plain("C"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "did a", coordinator.CompleteOptions{RequestKey: "k-a"})
	require.NoError(t, err)
	require.Equal(t, "a", done.Task.Slug)
	n, err := list.Clear(bg)
	require.NoError(t, err)
	require.Equal(t, 1, n)

	again, err := list.Complete(bg, "did a", coordinator.CompleteOptions{RequestKey: "k-a"})
	if err == nil {
		assert.NotEqual(t, "b", again.Task.Slug, "the retry completed B")
		assert.Equal(t, taskdoc.StatusInProgress, statuses(t, root, activeFile)["b"],
			"the retry completed B")
	}
}

// An edit of a completed task that keeps Status, Completed and Note but
// drops the Request field needs Reopen: the key is what answers a retry.
func TestRetryEditDropsRequest(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("A"), plain("B"), plain("C"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "did a", coordinator.CompleteOptions{RequestKey: "k-a"})
	require.NoError(t, err)
	require.Equal(t, "k-a", field(t, done.Task, "Request"))

	content := "- Status: completed\n- Completed: " + done.Date + "\n- Note: did a\n- Main-Workflow: tdd-incremental-orchestration\n\nFirst step, reworded."
	_, err = list.Edit(bg, "a", taskdoc.Edit{Content: content})
	if err != nil {
		return // refused without Reopen: sound
	}
	again, err := list.Complete(bg, "did a", coordinator.CompleteOptions{RequestKey: "k-a"})
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, taskdoc.StatusInProgress, statuses(t, root, activeFile)["b"],
		"the retry completed B: an edit without Reopen dropped the recorded key")
}

// A retry with IncludeFullWorkflow is answered with the next task's
// Workflow, as the first answer was.
func TestRetryReplayDropsNextWorkflow(t *testing.T) {
	list, _, _ := openList(t, map[string]string{"workflows/w.md": "# W\n\nSteps.\n"})
	_, err := list.Create(bg, first("A"), taskdoc.NewTask{Title: "B", Content: "- Status: pending\n- Workflow: w\n\nDo B."})
	require.NoError(t, err)
	opt := coordinator.CompleteOptions{RequestKey: "k", IncludeFullWorkflow: true}
	done, err := list.Complete(bg, "did a", opt)
	require.NoError(t, err)
	require.NotNil(t, done.Next)
	require.NotNil(t, done.Next.Workflow)

	again, err := list.Complete(bg, "did a", opt)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.NotNil(t, again.Next)
	assert.Equal(t, done.Next.Task.Slug, again.Next.Task.Slug)
	assert.NotNil(t, again.Next.Workflow, "the retried answer lost the next task's workflow")
}

// The list the keyed call finished was archived, and then another list was
// archived by hand: the key is in an archive that is not the newest, and
// the retry is still answered.
func TestRetryKeyNotInNewestArchive(t *testing.T) {
	list, _, _ := openList(t, nil)
	_, err := list.Create(bg, first("Only"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k1"})
	require.NoError(t, err)
	require.NotEmpty(t, done.ArchivedTo)
	_, err = list.Create(bg, first("Other"))
	require.NoError(t, err)
	_, err = list.Archive(bg)
	require.NoError(t, err)

	again, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k1"})
	require.NoError(t, err, "a retry of a completed call")
	assert.True(t, again.Replayed)
	assert.Equal(t, done.ArchivedTo, again.ArchivedTo)
}

// The archive copy is made but the list cannot be removed: ArchiveError is
// set, and ArchivedTo must then be "" (as Completed documents), not the
// name of a copy while the list is still in coordinator/active.md.
func TestRetryArchiveErrorWithArchivedTo(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("Only"))
	require.NoError(t, err)
	hooks.BeforeRemoveUnchanged = func() {
		hooks.Read = func(name string) error {
			if name == activeFile {
				return assert.AnError
			}
			return nil
		}
	}
	t.Cleanup(func() {
		hooks.BeforeRemoveUnchanged = func() {}
		hooks.Read = func(string) error { return nil }
	})
	done, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k"})
	hooks.BeforeRemoveUnchanged = func() {}
	hooks.Read = func(string) error { return nil }
	require.NoError(t, err)
	require.Error(t, done.ArchiveError)
	_, stillThere := readFile(t, root, activeFile)
	require.True(t, stillThere)
	assert.Empty(t, done.ArchivedTo, "ArchivedTo names an archive although the archive failed")
}

// The archive step fails for good (ArchiveDir is taken by a file). The
// first call succeeds with ArchiveError; its retry must be answered the
// same way, not fail.
func TestRetryAfterPersistentArchiveError(t *testing.T) {
	list, _, _ := openList(t, map[string]string{"archived/coordinator": "not a folder\n"})
	_, err := list.Create(bg, first("Only"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k"})
	require.NoError(t, err)
	require.Error(t, done.ArchiveError)

	again, err := list.Complete(bg, "done", coordinator.CompleteOptions{RequestKey: "k"})
	require.NoError(t, err, "the retry of a call that succeeded")
	assert.True(t, again.Replayed)
	assert.Error(t, again.ArchiveError)
}

// The task that recorded the key was reopened since: the retry of the call
// that completed it is CONFLICT, and completes nothing else.
func TestRetryKeyOnReopenedTask(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("A"), plain("B"), plain("C"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "did a", coordinator.CompleteOptions{RequestKey: "k-a"})
	require.NoError(t, err)
	content := strings.Replace(done.Task.Content(), "Status: completed", "Status: pending", 1)
	_, err = list.Edit(bg, "a", taskdoc.Edit{Content: content, Reopen: true})
	require.NoError(t, err)

	again, err := list.Complete(bg, "did a", coordinator.CompleteOptions{RequestKey: "k-a"})
	if err == nil {
		assert.NotEqual(t, "b", again.Task.Slug, "the retry of A's completion completed B")
	}
	assert.Equal(t, taskdoc.StatusInProgress, statuses(t, root, activeFile)["b"])
}
