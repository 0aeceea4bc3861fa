package subagent_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

const benchTasks = 1000

// benchFiles are the files of a workspace holding docs/bench.md, the
// suite's plan of n tasks (benchsuite.Plan), and the files it refers to.
func benchFiles(n int) map[string]string {
	files := maps.Clone(benchsuite.Support)
	files["docs/bench.md"] = string(benchsuite.Plan(n))
	return files
}

// benchTasksOn sets up a workspace with the benchmark document, the
// workflow and the reference, and returns a function that restores the
// document, for when every task has been used.
func benchTasksOn(b *testing.B) (*subagent.Tasks, func()) {
	files := benchFiles(benchTasks)
	doc := files["docs/bench.md"]
	tasks, root := setup(b, files)
	reset := func() {
		require.NoError(b, os.WriteFile(filepath.Join(root, "docs/bench.md"), []byte(doc), 0o644))
	}
	return tasks, reset
}

// Start of a pending task in a 1,000-task document: lock, read, parse,
// splice the status, reparse, load workflow and reference, durable write.
func BenchmarkStart(b *testing.B) {
	tasks, reset := benchTasksOn(b)
	ctx := context.Background()
	benchsuite.Cycle(b, benchTasks, reset, func(i int) error {
		_, err := tasks.Start(ctx, "/bench.md#"+benchsuite.Slug(i))
		return err
	})
}

// Start of a task in progress already: the resume path, which writes
// nothing.
func BenchmarkStartResume(b *testing.B) {
	tasks, _ := benchTasksOn(b)
	ctx := context.Background()
	const address = "/bench.md#implement-step-500"
	if _, err := tasks.Start(ctx, address); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := tasks.Start(ctx, address); err != nil {
			b.Fatal(err)
		}
	}
}

// Complete of a task in a 1,000-task document.
func BenchmarkComplete(b *testing.B) {
	tasks, reset := benchTasksOn(b)
	ctx := context.Background()
	benchsuite.Cycle(b, benchTasks, reset, func(i int) error {
		_, err := tasks.Complete(ctx, "/bench.md#"+benchsuite.Slug(i), "done")
		return err
	})
}

// A bare parse of the same document: the floor that Start and Complete
// are measured against.
func BenchmarkParse(b *testing.B) {
	src := benchsuite.Plan(benchTasks)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := taskdoc.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScenario is the task systems' ad-hoc scenario at scale, one iteration
// per document: create n tasks in batches of 100 (one call each), start and
// complete every task, then list the document. It is the whole-workload
// figure, so that cost growing with the square of the task count shows.
func BenchmarkScenario(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("tasks=%d", n), func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				b.StopTimer()
				tasks, _ := setup(b, map[string]string{"workflows/tdd-incremental-orchestration.md": "# TDD\n"})
				b.StartTimer()
				runScenario(ctx, b, tasks, n)
			}
		})
	}
}

func runScenario(ctx context.Context, b *testing.B, tasks *subagent.Tasks, n int) {
	for first := 0; first < n; first += 100 {
		batch := make([]taskdoc.NewTask, 0, 100)
		for i := first; i < min(first+100, n); i++ {
			batch = append(batch, taskdoc.NewTask{
				Title:   fmt.Sprintf("Implement step %d", i),
				Content: "- Status: pending\n- Workflow: tdd-incremental-orchestration\n\nImplement the step and test it.",
			})
		}
		if _, err := tasks.Create(ctx, "/api/scenario.md", batch...); err != nil {
			b.Fatal(err)
		}
	}
	for i := range n {
		address := fmt.Sprintf("/api/scenario.md#implement-step-%d", i)
		if _, err := tasks.Start(ctx, address); err != nil {
			b.Fatal(err)
		}
		if _, err := tasks.Complete(ctx, address, "done"); err != nil {
			b.Fatal(err)
		}
	}
	done, err := tasks.List(ctx, "/api/scenario.md", taskdoc.StatusCompleted)
	if err != nil || len(done) != n {
		b.Fatalf("listed %d completed tasks (err %v), want %d", len(done), err, n)
	}
}

// BenchmarkCompleteCold is Complete without the workspace's document
// cache: every call parses the whole document.
func BenchmarkCompleteCold(b *testing.B) {
	doc := string(benchsuite.Plan(benchTasks))
	root := b.TempDir()
	filetest.WriteAll(b, root, map[string]string{"docs/bench.md": doc})
	ws, err := workspace.Open(root, workspace.WithDocumentCache(0))
	require.NoError(b, err)
	defer ws.Close()
	tasks := subagent.New(ws)
	ctx := context.Background()
	reset := func() { filetest.Write(b, root, "docs/bench.md", doc) }
	benchsuite.Cycle(b, benchTasks, reset, func(i int) error {
		_, err := tasks.Complete(ctx, "/bench.md#"+benchsuite.Slug(i), "done")
		return err
	})
}

// BenchmarkFloorReadWrite is the floor of a warm edit: lock, read and
// durably write a document of the same size (one byte changed), with no
// parse at all.
func BenchmarkFloorReadWrite(b *testing.B) {
	root := b.TempDir()
	filetest.WriteAll(b, root, map[string]string{"docs/bench.md": string(benchsuite.Plan(benchTasks))})
	ws, err := workspace.Open(root)
	require.NoError(b, err)
	defer ws.Close()
	ctx := context.Background()
	for b.Loop() {
		err := ws.Lock(ctx, []string{"docs/bench.md"}, func(tx *workspace.Tx) error {
			cur, err := tx.ReadData("docs/bench.md")
			if err != nil {
				return err
			}
			out := append([]byte(nil), cur...)
			out[len(out)-2] ^= 1
			return tx.Write("docs/bench.md", out)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
