package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/internal/testkit/floor"
)

// BenchmarkCompleteSubagentTask measures complete_subagent_task through a
// real server process on a 100-task document: the round trip an agent sees
// (JSON-RPC over pipes, schema validation, locked read-parse-edit-durable
// write, result). When every task is completed the document is rewritten,
// with the timer stopped.
func BenchmarkCompleteSubagentTask(b *testing.B) {
	benchComplete(b, 100, pendingDocument(100), func(i int) string { return fmt.Sprintf("task-%d", i) })
}

// BenchmarkCompleteSubagentTask1000 is the same on the suite's 1,000-task
// plan, about 190 KB: the server keeps the document's parse between calls,
// so a completion costs a parse of the task, not of the document.
func BenchmarkCompleteSubagentTask1000(b *testing.B) {
	benchComplete(b, 1000, string(benchsuite.Plan(1000)), benchsuite.Slug)
}

// benchComplete completes every task of document in turn through the
// server, writing the document again off the clock when all were used.
// After each call, with the timer stopped, it reads the document and
// writes its bytes durably to another file (floor.DurableWrite): the
// floor, reported beside the call's latencies as floor-median-µs/op, so
// that a slow disk shows as a slow floor, not as a slow server.
func benchComplete(b *testing.B, tasks int, document string, slug func(int) string) {
	root := newRoot(b, map[string]string{"docs/load.md": document})
	c := startServer(b, root)
	docPath, floorPath := filepath.Join(root, "docs", "load.md"), filepath.Join(root, "floor.md")

	latencies := make([]time.Duration, 0, b.N)
	floors := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		if i > 0 && i%tasks == 0 {
			b.StopTimer()
			filetest.Write(b, root, "docs/load.md", document)
			b.StartTimer()
		}
		args := map[string]any{"document": "/load.md#" + slug(i%tasks), "note": "benchmark"}
		start := time.Now()
		res := c.call("complete_subagent_task", args)
		latencies = append(latencies, time.Since(start))
		if res.IsError {
			b.Fatal(text(res))
		}

		b.StopTimer()
		start = time.Now()
		data, err := os.ReadFile(docPath)
		if err == nil {
			err = floor.DurableWrite(floorPath, data)
		}
		if err != nil {
			b.Fatal(err)
		}
		floors = append(floors, time.Since(start))
		b.StartTimer()
	}
	reportLatencies(b, latencies)
	slices.Sort(floors)
	b.ReportMetric(float64(floors[len(floors)/2].Microseconds()), "floor-median-µs/op")
}

// BenchmarkViewSubagentTask measures a read of one task of the same
// document through the server: the cost of the round trip and of parsing,
// without the durable write that dominates a completion.
func BenchmarkViewSubagentTask(b *testing.B) {
	root := newRoot(b, map[string]string{"docs/load.md": pendingDocument(100)})
	c := startServer(b, root)

	latencies := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		args := map[string]any{"document": fmt.Sprintf("/load.md#task-%d", i%100)}
		start := time.Now()
		res := c.call("view_subagent_task", args)
		latencies = append(latencies, time.Since(start))
		if res.IsError {
			b.Fatal(text(res))
		}
	}
	reportLatencies(b, latencies)
}

// reportLatencies adds the median and the 90th percentile to the mean
// (ns/op): a few slow fsyncs skew the mean.
func reportLatencies(b *testing.B, latencies []time.Duration) {
	b.StopTimer()
	slices.Sort(latencies)
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds()), "median-µs/op")
	b.ReportMetric(float64(latencies[len(latencies)*9/10].Microseconds()), "p90-µs/op")
}
