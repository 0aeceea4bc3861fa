package subagent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

// BenchmarkOps measures start, complete and a create of 100 tasks on a
// document of 100 and of 1,000 tasks (benchFiles), each on a fresh copy
// of the document: lock, read, parse, edit, durable write, and for start
// the task's workflow and reference.
func BenchmarkOps(b *testing.B) {
	ctx := context.Background()
	batch := make([]taskdoc.NewTask, 100)
	for i := range batch {
		batch[i] = taskdoc.NewTask{Title: fmt.Sprintf("New step %d", i), Content: "- Status: pending\n\nOne more step."}
	}
	const address = "/bench.md#implement-step-50"
	ops := []struct {
		name string
		op   func(*subagent.Tasks) error
	}{
		{"start", func(s *subagent.Tasks) error { _, err := s.Start(ctx, address); return err }},
		{"complete", func(s *subagent.Tasks) error { _, err := s.Complete(ctx, address, "done"); return err }},
		{"create100", func(s *subagent.Tasks) error { _, err := s.Create(ctx, "/bench.md", batch...); return err }},
	}
	for _, op := range ops {
		for _, n := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/tasks=%d", op.name, n), func(b *testing.B) {
				files := benchFiles(n)
				doc := files["docs/bench.md"]
				tasks, root := setup(b, files)
				b.SetBytes(int64(len(doc)))
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					require.NoError(b, os.WriteFile(filepath.Join(root, "docs/bench.md"), []byte(doc), 0o644))
					b.StartTimer()
					require.NoError(b, op.op(tasks))
				}
			})
		}
	}
}
