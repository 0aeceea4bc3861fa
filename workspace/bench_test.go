package workspace

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/testkit/floor"
	"github.com/taskmd/taskmd/taskdoc"
)

// The floor of design.md §5 is measured beside each benchmark: the same
// parse and edit, with the raw temp write + fsync + rename + directory fsync
// (and, across processes, a raw flock) instead of the workspace.

const benchName = "docs/bench.md"

// benchDoc is a dense 50 KB document: 200 tasks, each with a sub-heading in
// its body, about 400 headings.
func benchDoc() []byte {
	var b strings.Builder
	b.WriteString("# Bench\n\nA dense document for benchmarks.\n\n## Tasks\n")
	for i := range 200 {
		fmt.Fprintf(&b, "\n### Task %d\n\n- Status: pending\n- Workflow: tdd-incremental\n\n", i)
		fmt.Fprintf(&b, "Implement part %d of the feature. %s\n\n@/specs/part-%d.md\n\n#### Notes\n\nKeep it small.\n",
			i, strings.Repeat("Lorem ipsum dolor sit amet. ", 3), i)
	}
	return []byte(b.String())
}

// flip parses cur and toggles the status of task slug: one field edit.
func flip(cur []byte, slug string) ([]byte, error) {
	doc, err := taskdoc.Parse(cur)
	if err != nil {
		return nil, err
	}
	task, err := doc.Task(slug)
	if err != nil {
		return nil, err
	}
	next := taskdoc.StatusInProgress
	if task.Status == taskdoc.StatusInProgress {
		next = taskdoc.StatusPending
	}
	nd, _, err := doc.SetStatus(slug, next)
	if err != nil {
		return nil, err
	}
	return nd.Source, nil
}

// timer adds up the durations of one side of an interleaved benchmark.
type timer struct {
	total time.Duration
	began time.Time
}

func (t *timer) start() { t.began = time.Now() }
func (t *timer) stop()  { t.total += time.Since(t.began) }

// interleave runs floor and ours, taking turns at going first, so that
// neither always pays for the other's journal commit.
func interleave(i int, floor, ours func()) {
	if i%2 == 0 {
		floor()
		ours()
		return
	}
	ours()
	floor()
}

// reportBeside reports the floor, our figure and their ratio per operation.
func reportBeside(b *testing.B, floor, ours timer, unit string) {
	n := float64(b.N)
	b.ReportMetric(float64(floor.total.Nanoseconds())/n, "floor-ns/op")
	b.ReportMetric(float64(ours.total.Nanoseconds())/n, unit)
	b.ReportMetric(float64(ours.total)/float64(floor.total), "x-floor")
}

// BenchmarkUpdate50KB interleaves the floor and Update so that both see the
// same disk conditions, and reports each and their ratio.
func BenchmarkUpdate50KB(b *testing.B) {
	ws, dir := newWorkspace(b)
	ctx := context.Background()
	doc := benchDoc()
	b.Logf("document: %d bytes", len(doc))
	writeFile(b, dir, benchName, doc)
	writeFile(b, dir, "floor/bench.md", doc)
	floorPath := filepath.Join(dir, "floor", "bench.md")
	update := func(cur []byte, _ bool) ([]byte, error) { return flip(cur, "task-100") }

	var floorTime, ours timer
	for i := 0; b.Loop(); i++ {
		interleave(i, func() {
			floorTime.start()
			cur, err := os.ReadFile(floorPath)
			require.NoError(b, err)
			next, err := flip(cur, "task-100")
			require.NoError(b, err)
			require.NoError(b, floor.DurableWrite(floorPath, next))
			floorTime.stop()
		}, func() {
			ours.start()
			_, err := ws.Update(ctx, benchName, update)
			require.NoError(b, err)
			ours.stop()
		})
	}
	reportBeside(b, floorTime, ours, "update-ns/op")
}

// BenchmarkWrite50KB is the storage part alone: Update with a precomputed
// result beside the raw durable write, interleaved.
func BenchmarkWrite50KB(b *testing.B) {
	ws, dir := newWorkspace(b)
	ctx := context.Background()
	one := benchDoc()
	two, err := flip(one, "task-100")
	require.NoError(b, err)
	writeFile(b, dir, "floor/bench.md", one)
	floorPath := filepath.Join(dir, "floor", "bench.md")

	var floorTime, ours timer
	for i := 0; b.Loop(); i++ {
		data := one
		if i%2 == 0 {
			data = two
		}
		interleave(i, func() {
			floorTime.start()
			require.NoError(b, floor.DurableWrite(floorPath, data))
			floorTime.stop()
		}, func() {
			ours.start()
			_, err := ws.Update(ctx, benchName, func([]byte, bool) ([]byte, error) { return data, nil })
			require.NoError(b, err)
			ours.stop()
		})
	}
	reportBeside(b, floorTime, ours, "write-ns/op")
}

// BenchmarkLock is an uncontended lock and unlock of one name, that of an
// existing file and that of a missing one.
func BenchmarkLock(b *testing.B) {
	ws, dir := newWorkspace(b)
	ctx := context.Background()
	b.Run("floor-flock", func(b *testing.B) {
		path := filepath.Join(dir, "floor.lock")
		for b.Loop() {
			f := flock.New(path)
			require.NoError(b, f.Lock())
			require.NoError(b, f.Unlock())
		}
	})
	writeFile(b, dir, benchName, []byte("# Bench\n"))
	b.Run("workspace", func(b *testing.B) {
		for b.Loop() {
			require.NoError(b, ws.Lock(ctx, []string{benchName}, func(*Tx) error { return nil }))
		}
	})
	// A name that does not exist: its lock file is made and removed again
	// every time, so that none is left behind.
	b.Run("workspace-missing", func(b *testing.B) {
		for b.Loop() {
			require.NoError(b, ws.Lock(ctx, []string{"docs/missing.md"}, func(*Tx) error { return nil }))
		}
	})
}

// BenchmarkLockHandoff measures how long a waiter takes to get a file lock
// after its holder lets go: waitFlock's blocking lock in a goroutine against
// flock's polling TryLockContext, and a bare blocking Lock (which a
// context could not end).
func BenchmarkLockHandoff(b *testing.B) {
	path := filepath.Join(b.TempDir(), "handoff.lock")
	ctx := context.Background()
	waiters := []struct {
		name string
		wait func(*flock.Flock) error
	}{
		{"blocking-goroutine", func(f *flock.Flock) error { return waitFlock(ctx, f) }},
		{"flock-Lock", func(f *flock.Flock) error { return f.Lock() }},
		{"TryLockContext-1ms", func(f *flock.Flock) error { _, err := f.TryLockContext(ctx, time.Millisecond); return err }},
		{"TryLockContext-10ms", func(f *flock.Flock) error { _, err := f.TryLockContext(ctx, 10*time.Millisecond); return err }},
	}
	for _, w := range waiters {
		b.Run(w.name, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				holder := flock.New(path)
				require.NoError(b, holder.Lock())
				got := make(chan time.Time)
				go func() {
					waiter := flock.New(path)
					if err := w.wait(waiter); err != nil {
						panic(err)
					}
					got <- time.Now()
					waiter.Unlock()
				}()
				time.Sleep(300 * time.Microsecond) // the waiter is now waiting
				released := time.Now()
				require.NoError(b, holder.Unlock())
				total += (<-got).Sub(released)
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N), "handoff-µs")
		})
	}
}

// BenchmarkProcesses4 runs 4 processes flipping their own task in one
// document and reports the throughput in updates per second, beside the
// floor: the same processes with a raw flock and raw durable write.
func BenchmarkProcesses4(b *testing.B) {
	for _, side := range []struct{ name, role string }{{"floor", "bench-floor"}, {"workspace", "bench"}} {
		role := side.role
		b.Run(side.name, func(b *testing.B) {
			_, dir := newWorkspace(b)
			writeFile(b, dir, benchName, benchDoc())
			per := max(1, b.N/4)
			var stdins []io.WriteCloser
			var cmds []*exec.Cmd
			for i := range 4 {
				cmd := helper(b, role, dir, i, per, 0, 0)
				stdin, err := cmd.StdinPipe()
				require.NoError(b, err)
				out, err := cmd.StdoutPipe()
				require.NoError(b, err)
				cmd.Stderr = os.Stderr
				require.NoError(b, cmd.Start())
				line, err := bufio.NewReader(out).ReadString('\n')
				require.NoError(b, err)
				require.Equal(b, "ready\n", line)
				stdins = append(stdins, stdin)
				cmds = append(cmds, cmd)
			}
			b.ResetTimer()
			start := time.Now()
			for _, in := range stdins {
				fmt.Fprintln(in, "go")
			}
			var wg sync.WaitGroup
			for _, cmd := range cmds {
				wg.Go(func() { require.NoError(b, cmd.Wait()) })
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(4*per)/elapsed.Seconds(), "ops/s")

			data, err := os.ReadFile(filepath.Join(dir, benchName))
			require.NoError(b, err)
			_, err = taskdoc.Parse(data)
			require.NoError(b, err)
		})
	}
}

// runBenchHelper is the child side of BenchmarkProcesses4.
func runBenchHelper(ws *Workspace, role string, worker, count int) error {
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return err
	}
	slug := fmt.Sprintf("task-%d", worker)
	ctx := context.Background()
	path := filepath.Join(ws.Root(), filepath.FromSlash(benchName))
	for range count {
		if role == "bench" {
			if _, err := ws.Update(ctx, benchName, func(cur []byte, _ bool) ([]byte, error) { return flip(cur, slug) }); err != nil {
				return err
			}
			continue
		}
		lock := flock.New(path + ".lock")
		if err := lock.Lock(); err != nil {
			return err
		}
		cur, err := os.ReadFile(path)
		if err == nil {
			cur, err = flip(cur, slug)
		}
		if err == nil {
			err = floor.DurableWrite(path, cur)
		}
		if uerr := lock.Unlock(); err == nil {
			err = uerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
