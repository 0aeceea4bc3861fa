package coordinator_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
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
