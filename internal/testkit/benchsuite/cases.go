package benchsuite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/floor"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// A Case is one row of the suite: an operation and its floor, each a
// benchmark function (testing.Benchmark runs them outside go test).
type Case struct {
	Name      string // "complete/1000/warm"
	Op        func(b *testing.B)
	FloorName string // "read + durable write"
	Floor     func(b *testing.B)
}

// Sizes are the sizes the suite runs at.
type Sizes struct {
	Tasks     []int // tasks of the edited document: 10, 100, 1,000, 10,000
	Documents []int // documents listed: 100, 1,000, 10,000
	// DesignDocs is how many design documents (about 3.4 KB each, where the
	// Documents rows list 700-byte ones) a listing row lists; 0: none.
	DesignDocs int
	Cycle      int   // tasks of the coordinator cycle: 1,000
	Crowd      int   // documents beside the edited one in its folder: 10,000
	Processes  []int // processes working one plan: 1, 2, 4, 8
}

// DefaultSizes are the sizes.
func DefaultSizes() Sizes {
	return Sizes{Tasks: []int{10, 100, 1000, 10000}, Documents: []int{100, 1000, 10000}, DesignDocs: 2000,
		Cycle: 1000, Crowd: 10000, Processes: []int{1, 2, 4, 8}}
}

var ctx = context.Background()

// Cases is the suite at sizes s; its workspaces are made under dir, which
// the caller removes when it is done.
func Cases(dir string, s Sizes) []Case {
	var cases []Case
	src := Plan(1000)
	cases = append(cases, Case{
		Name:      "parse/1000",
		Op:        func(b *testing.B) { parseLoop(b, src) },
		FloorName: "bare goldmark parse",
		Floor: func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				floor.Parse(src)
			}
		},
	})
	for _, n := range s.Tasks {
		for _, op := range []string{"start", "complete"} {
			for _, warm := range []bool{false, true} {
				cases = append(cases, editCase(dir, op, n, warm))
			}
		}
	}
	if s.Crowd > 0 {
		cases = append(cases, crowdedCase(dir, s.Crowd))
	}
	if s.Cycle > 0 {
		cases = append(cases, cycleCase(dir, s.Cycle))
	}
	for _, n := range s.Documents {
		cases = append(cases, listCase(dir, n, smallDocs, cold), listCase(dir, n, smallDocs, warm), listCase(dir, n, smallDocs, indexed))
	}
	if n := s.DesignDocs; n > 0 {
		cases = append(cases, listCase(dir, n, designDocs, cold), listCase(dir, n, designDocs, warm))
	}
	for _, n := range s.Processes {
		cases = append(cases, processCases(dir, n)...)
	}
	return cases
}

func parseLoop(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := taskdoc.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// editCase starts or completes one task after another of an n-task plan:
// warm on a workspace that keeps its parses, cold on one that does not
// (every call parses, as a new process would).
func editCase(dir, op string, n int, warm bool) Case {
	temp := "cold"
	floorName := "read + bare parse + durable write"
	if warm {
		temp, floorName = "warm", "read + durable write"
	}
	name := fmt.Sprintf("%s/%d/%s", op, n, temp)
	src := Plan(n)
	return Case{
		Name:      name,
		FloorName: floorName,
		Op: func(b *testing.B) {
			root := mkdir(b, dir, name)
			if err := writeSupport(root); err != nil {
				b.Fatal(err)
			}
			editLoop(b, root, op, n, warm)
		},
		Floor: func(b *testing.B) {
			root := mkdir(b, dir, name+"-floor")
			if err := writeFile(root, "docs/plan.md", src); err != nil {
				b.Fatal(err)
			}
			file := filepath.Join(root, "docs", "plan.md")
			for b.Loop() {
				data, err := os.ReadFile(file)
				if err != nil {
					b.Fatal(err)
				}
				if !warm {
					floor.Parse(data)
				}
				data[len(data)-2] ^= 1
				if err := floor.DurableWrite(file, data); err != nil {
					b.Fatal(err)
				}
			}
		},
	}
}

// editLoop starts or completes one task after another of an n-task plan
// written in the workspace at root, rewriting the plan when every task
// was done, with the timer stopped: warm on a workspace that keeps its
// parses (and has read the plan), cold on one that does not.
func editLoop(b *testing.B, root, op string, n int, warm bool) {
	var opts []workspace.Option
	if !warm {
		opts = append(opts, workspace.WithDocumentCache(0))
	}
	ws, err := workspace.Open(root, opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	tasks := subagent.New(ws)
	src := Plan(n)
	reset := func() {
		if err := writeFile(root, "docs/plan.md", src); err != nil {
			b.Fatal(err)
		}
		if warm { // the process has read it before
			if _, err := ws.Parse("docs/plan.md", src); err != nil {
				b.Fatal(err)
			}
		}
	}
	reset()
	b.ReportAllocs()
	Cycle(b, n, reset, func(i int) error {
		addr := "/plan.md#" + Slug(i)
		if op == "start" {
			_, err := tasks.Start(ctx, addr)
			return err
		}
		_, err := tasks.Complete(ctx, addr, "done")
		return err
	})
}

// crowdedCase completes tasks of a 100-task document that shares its
// folder with n others: what a write costs must not grow with the folder.
func crowdedCase(dir string, n int) Case {
	name := fmt.Sprintf("complete/100/warm, %d beside", n)
	inner := editCase(dir, "complete", 100, true)
	var once sync.Once
	var root string
	setup := func(b *testing.B) string {
		once.Do(func() {
			var err error
			if root, err = os.MkdirTemp(dir, "crowd-*"); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				if err := writeFile(root, fmt.Sprintf("docs/other-%05d.md", i), smallDoc(i, "")); err != nil {
					b.Fatal(err)
				}
			}
			if err := writeSupport(root); err != nil {
				b.Fatal(err)
			}
		})
		return root
	}
	return Case{
		Name:      name,
		FloorName: inner.FloorName,
		Op: func(b *testing.B) {
			editLoop(b, setup(b), "complete", 100, true)
		},
		Floor: inner.Floor,
	}
}

// cycleCase is a whole coordinator session of n tasks: one create, then
// a start and n completes (each starts the next), the last archiving the
// list.
func cycleCase(dir string, n int) Case {
	name := fmt.Sprintf("coordinator-cycle/%d", n)
	batch := []taskdoc.NewTask{{Title: "Task 0", Content: "- Status: pending\n- Main-Workflow: tdd\n\nFirst step."}}
	for i := 1; i < n; i++ {
		batch = append(batch, taskdoc.NewTask{Title: fmt.Sprintf("Task %d", i), Content: fmt.Sprintf("- Status: pending\n\nDo step %d.", i)})
	}
	var size sync.Once
	var listSize int
	sizeOf := func(b *testing.B) int {
		size.Do(func() {
			doc, err := taskdoc.Parse(coordinatorList())
			if err != nil {
				b.Fatal(err)
			}
			full, _, err := doc.AddTasks(batch)
			if err != nil {
				b.Fatal(err)
			}
			listSize = len(full.Source)
		})
		return listSize
	}
	return Case{
		Name:      name,
		FloorName: fmt.Sprintf("%d × (read + durable write of the list)", n+1),
		Op: func(b *testing.B) {
			root := mkdir(b, dir, name)
			if err := writeSupport(root); err != nil {
				b.Fatal(err)
			}
			ws, err := workspace.Open(root)
			if err != nil {
				b.Fatal(err)
			}
			defer ws.Close()
			list := coordinator.New(ws)
			for b.Loop() {
				if _, err := list.Create(ctx, batch...); err != nil {
					b.Fatal(err)
				}
				if _, err := list.Start(ctx, coordinator.StartOptions{}); err != nil {
					b.Fatal(err)
				}
				for range n {
					done, err := list.Complete(ctx, "done", coordinator.CompleteOptions{})
					if err != nil {
						b.Fatal(err)
					}
					if done.ArchivedTo != "" {
						b.StopTimer()
						if err := os.Remove(filepath.Join(root, filepath.FromSlash(done.ArchivedTo))); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
					}
				}
			}
		},
		Floor: func(b *testing.B) {
			root := mkdir(b, dir, name+"-floor")
			data := make([]byte, sizeOf(b))
			file := filepath.Join(root, "active.md")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				for range n + 1 {
					cur, err := os.ReadFile(file)
					if err != nil {
						b.Fatal(err)
					}
					if err := floor.DurableWrite(file, cur); err != nil {
						b.Fatal(err)
					}
				}
			}
		},
	}
}

// coordinatorList is an empty coordinator list.
func coordinatorList() []byte {
	return []byte("# Coordinator Tasks\n\nSequential coordinator task list. Auto-archives when all tasks complete.\n\n## Tasks\n")
}

// How a listing case finds the workspace.
const (
	cold    = iota // a new process: every document parsed
	warm           // a process that listed it before; one document changed since
	indexed        // a new process with query.WithIndex; one document changed since
)

// listCase lists the documents of an n-document workspace of kind
// (query.Documents): cold in a new workspace each time, warm in one that
// listed them before, indexed in a new workspace with the index a listing
// left, with one document changed since in both.
func listCase(dir string, n int, kind docKind, how int) Case {
	temp, floorName := "cold", "walk + read + bare parse, all cores"
	switch how {
	case warm:
		temp, floorName = "warm, one changed", "walk + read, all cores"
	case indexed:
		temp, floorName = "indexed, one changed", "walk + read, all cores"
	}
	name := fmt.Sprintf("list/%d/%s", n, temp)
	if kind.name != "" {
		name = fmt.Sprintf("list/%d %s/%s", n, kind.name, temp)
	}
	var once sync.Once
	var root string
	var files []string
	setup := func(b *testing.B) {
		once.Do(func() {
			var err error
			// Kept for every run of the case: dir holds it.
			if root, err = os.MkdirTemp(dir, fmt.Sprintf("list-%d-*", n)); err != nil {
				b.Fatal(err)
			}
			if err := writeWorkspace(root, n, kind); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				files = append(files, filepath.Join(root, filepath.FromSlash(docName(i))))
			}
		})
	}
	return Case{
		Name:      name,
		FloorName: floorName,
		Op: func(b *testing.B) {
			setup(b)
			var shared *workspace.Workspace
			var opts []query.Option
			if how == indexed {
				opts = append(opts, query.WithIndex())
				ws, err := workspace.Open(root)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := query.Documents(ctx, ws, opts...); err != nil {
					b.Fatal(err)
				}
				ws.Close()
			}
			if how == warm {
				ws, err := workspace.Open(root)
				if err != nil {
					b.Fatal(err)
				}
				defer ws.Close()
				if _, err := query.Documents(ctx, ws); err != nil {
					b.Fatal(err)
				}
				shared = ws
			}
			i := 0
			for b.Loop() {
				ws := shared
				if how != cold {
					b.StopTimer()
					i++
					if err := writeFile(root, docName(i%n), kind.doc(i%n, fmt.Sprintf(" Changed %d.", i))); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				if how != warm {
					var err error
					if ws, err = workspace.Open(root); err != nil {
						b.Fatal(err)
					}
				}
				docs, err := query.Documents(ctx, ws, opts...)
				if err != nil || len(docs) < n {
					b.Fatal(err, len(docs))
				}
				if how != warm {
					ws.Close()
				}
			}
		},
		Floor: func(b *testing.B) {
			setup(b)
			for b.Loop() {
				var names []string
				err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
					if err == nil && !d.IsDir() {
						names = append(names, p)
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
				err = onAllCores(names, func(name string) error {
					data, err := os.ReadFile(name)
					if err == nil && how == cold {
						floor.Parse(data)
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		},
	}
}

// mkdir makes a folder for name under dir, removed when the benchmark
// ends.
func mkdir(b *testing.B, dir, name string) string {
	p, err := os.MkdirTemp(dir, filepath.Base(name)+"-*")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(p) })
	return p
}
