package coordinator_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// opsList is an n-task list: every tenth task (and, on a short list, every
// task but the last) is completed, the first open one is in progress when
// inProgress, the others are pending. Clearing it removes min(n-1, 100)
// tasks.
func opsList(n int, inProgress bool) string {
	var b strings.Builder
	b.WriteString("# Coordinator Tasks\n\nSequential coordinator task list.\n\n## Tasks\n")
	completed, open := 0, false
	for i := range n {
		fmt.Fprintf(&b, "\n### Task %d\n\n", i)
		switch {
		case completed < 100 && i < n-1 && (n <= 100 || i%10 == 0):
			b.WriteString("- Status: completed\n- Completed: 2026-11-21\n- Note: done\n")
			completed++
		case !open && inProgress:
			b.WriteString("- Status: in_progress\n")
			open = true
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

// BenchmarkOps measures the operations of a list of 100 and of 1,000 tasks,
// each on a fresh copy of the list (lock, read, parse, edit, durable write):
// start (marks the next task in progress), complete (completes it and
// starts the next), clear (removes the completed tasks: 99 of 100, 100 of
// 1,000) and create (adds 100 tasks in one call).
func BenchmarkOps(b *testing.B) {
	batch := make([]taskdoc.NewTask, 100)
	for i := range batch {
		batch[i] = taskdoc.NewTask{Title: fmt.Sprintf("New step %d", i), Content: "- Status: pending\n\nOne more step."}
	}
	ops := []struct {
		name       string
		inProgress bool
		op         func(*coordinator.List) error
	}{
		{"start", false, func(l *coordinator.List) error { _, err := l.Start(bg, coordinator.StartOptions{}); return err }},
		{"complete", true, func(l *coordinator.List) error {
			_, err := l.Complete(bg, "done", coordinator.CompleteOptions{})
			return err
		}},
		{"clear", false, func(l *coordinator.List) error { _, err := l.Clear(bg); return err }},
		{"create100", false, func(l *coordinator.List) error { _, err := l.Create(bg, batch...); return err }},
	}
	for _, op := range ops {
		for _, n := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/tasks=%d", op.name, n), func(b *testing.B) {
				list, _, root := openList(b, nil)
				text := opsList(n, op.inProgress)
				b.SetBytes(int64(len(text)))
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					filetest.Write(b, root, activeFile, text)
					b.StartTimer()
					require.NoError(b, op.op(list))
				}
			})
		}
	}
}
