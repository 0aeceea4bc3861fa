package coordinator_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// BenchmarkCycle100 is a whole coordinator session of 100 tasks: one create,
// 100 starts and completes, and the archive made by the last complete.
func BenchmarkCycle100(b *testing.B) {
	list, _, root := openList(b, scenarioFiles())
	batch := []taskdoc.NewTask{first("task 0")}
	for i := 1; i < 100; i++ {
		batch = append(batch, plain(fmt.Sprintf("task %d", i)))
	}
	b.ResetTimer()
	for range b.N {
		_, err := list.Create(bg, batch...)
		require.NoError(b, err)
		for range 100 {
			_, err := list.Start(bg, coordinator.StartOptions{})
			require.NoError(b, err)
			done, err := list.Complete(bg, "done", coordinator.CompleteOptions{})
			require.NoError(b, err)
			if done.ArchivedTo != "" {
				// Archives of one second clash; keep the -N search short.
				b.StopTimer()
				require.NoError(b, os.Remove(filepath.Join(root, filepath.FromSlash(done.ArchivedTo))))
				b.StartTimer()
			}
		}
	}
}

// bigList is a 1,000-task list whose first 500 tasks are completed; the 501st
// has status, the rest are pending.
func bigList(status taskdoc.Status) string {
	var b strings.Builder
	b.WriteString("# Coordinator Tasks\n\nSequential coordinator task list. Auto-archives when all tasks complete.\n\n## Tasks\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "\n### Task %d\n\n", i)
		switch {
		case i < 500:
			b.WriteString("- Status: completed\n- Completed: 2026-11-21\n- Note: done\n")
		case i == 500:
			fmt.Fprintf(&b, "- Status: %s\n", status)
		default:
			b.WriteString("- Status: pending\n")
		}
		if i == 0 {
			b.WriteString("- Main-Workflow: tdd-incremental-orchestration\n")
		}
		fmt.Fprintf(&b, "\nStep %d of the plan: change one thing, run the tests, and write down what was learned.\n", i)
	}
	return b.String()
}

// BenchmarkStart1000 starts the next task (marking it in progress) on a
// 1,000-task list.
func BenchmarkStart1000(b *testing.B) {
	benchOnBigList(b, taskdoc.StatusPending, func(list *coordinator.List) error {
		_, err := list.Start(bg, coordinator.StartOptions{})
		return err
	})
}

// BenchmarkComplete1000 completes the task in progress on a 1,000-task list
// and starts the next one.
func BenchmarkComplete1000(b *testing.B) {
	benchOnBigList(b, taskdoc.StatusInProgress, func(list *coordinator.List) error {
		_, err := list.Complete(bg, "done", coordinator.CompleteOptions{})
		return err
	})
}

// BenchmarkResume1000 is Start when a task is already in progress: a read,
// no write.
func BenchmarkResume1000(b *testing.B) {
	list, _, root := openList(b, nil)
	filetest.Write(b, root, activeFile, bigList(taskdoc.StatusInProgress))
	b.SetBytes(int64(len(bigList(taskdoc.StatusInProgress))))
	b.ResetTimer()
	for range b.N {
		_, err := list.Start(bg, coordinator.StartOptions{})
		require.NoError(b, err)
	}
}

// benchOnBigList runs op on a fresh copy of the big list each time.
func benchOnBigList(b *testing.B, status taskdoc.Status, op func(*coordinator.List) error) {
	list, _, root := openList(b, nil)
	text := bigList(status)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		filetest.Write(b, root, activeFile, text)
		b.StartTimer()
		require.NoError(b, op(list))
	}
}
