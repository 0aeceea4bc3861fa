package taskdoc_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// addOneByOne is what AddTasks must equal: AddTask and Parse per task
// (the parse keeps it independent of the Document AddTask returns).
func addOneByOne(doc *taskdoc.Document, tasks []taskdoc.NewTask) ([]byte, error) {
	var out []byte
	for _, nt := range tasks {
		nd, _, err := doc.AddTask(nt)
		if err != nil {
			return nil, err
		}
		out = nd.Source
		if doc, err = taskdoc.Parse(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// batchShapes are the orders AddTasks is run with: given an existing
// task's slug (or ""), the tasks to add. The first two take one splice;
// the others are added one by one, and all must agree with AddTask.
func batchShapes(existing string, r *rand.Rand) map[string][]taskdoc.NewTask {
	body := func() string { return diffBodies[r.IntN(len(diffBodies))] }
	return map[string][]taskdoc.NewTask{
		"append": {
			{Title: "Batch one", Content: goldenContent},
			{Title: "Batch two", Content: body()},
			{Title: "Batch three", Content: body()},
		},
		"chain-after": {
			{Title: "Batch one", Content: body(), After: existing},
			{Title: "Batch two", Content: goldenContent, After: "batch-one"},
			{Title: "Batch three", Content: body(), After: "batch-two"},
		},
		"same-after": {
			{Title: "Batch one", Content: body(), After: existing},
			{Title: "Batch two", Content: body(), After: existing},
		},
		"into-batch": {
			{Title: "Batch one", Content: body()},
			{Title: "Batch two", Content: body()},
			{Title: "Batch three", Content: body(), After: "batch-one"},
		},
		"after-then-append": {
			{Title: "Batch one", Content: body(), After: existing},
			{Title: "Batch two", Content: body()},
		},
		"random-titles": {
			{Title: diffTitles[r.IntN(len(diffTitles))], Content: body()},
			{Title: diffTitles[r.IntN(len(diffTitles))], Content: body()},
		},
	}
}

// requireSameAsOneByOne checks AddTasks against AddTask one by one on
// doc, for every batch shape.
func requireSameAsOneByOne(t *testing.T, name string, doc *taskdoc.Document, r *rand.Rand) {
	existing := ""
	if len(doc.Tasks) > 0 {
		existing = doc.Tasks[r.IntN(len(doc.Tasks))].Slug
	}
	for shape, tasks := range batchShapes(existing, r) {
		want, wantErr := addOneByOne(doc, tasks)
		nd, added, err := doc.AddTasks(tasks)
		msg := fmt.Sprintf("%s, %s: %+q\n%q", name, shape, tasks, doc.Source)
		if wantErr != nil {
			require.Error(t, err, msg)
			require.Equal(t, wantErr.Error(), err.Error(), msg)
			requireTypedError(t, err, nd)
			require.Nil(t, added, msg)
			continue
		}
		require.NoError(t, err, msg)
		require.Equal(t, string(want), string(nd.Source), msg)
		requireAdded(t, nd, added, tasks, msg)
	}
}

// requireAdded checks what AddTasks returned: a Document equal to a parse
// of its bytes, and one task per new task, in the order given, pointing
// into its Tasks, each the task a parse finds there with its title.
func requireAdded(t *testing.T, nd *taskdoc.Document, added []*taskdoc.Task, tasks []taskdoc.NewTask, msg string) {
	t.Helper()
	parsed, err := taskdoc.Parse(nd.Source)
	require.NoError(t, err, msg)
	require.Equal(t, parsed, nd, "the returned Document differs from a parse of its bytes: %s", msg)
	require.Len(t, added, len(tasks), msg)
	prev := -1
	for k, task := range added {
		i := slices.IndexFunc(nd.Tasks, func(x taskdoc.Task) bool { return x.Span == task.Span })
		require.GreaterOrEqual(t, i, 0, msg)
		require.Same(t, &nd.Tasks[i], task, "added task %d does not point into the Document: %s", k, msg)
		if tasks[k].After == "" || (k > 0 && tasks[k].After == added[k-1].Slug) {
			require.Greater(t, i, prev, "added tasks out of order: %s", msg)
		}
		prev = i
		if plain(tasks[k].Title) {
			require.Equal(t, tasks[k].Title, task.Title, msg)
			require.Equal(t, taskdoc.Slug(tasks[k].Title), task.Slug, msg)
		}
		// A later task after the same one goes in between.
		if after := tasks[k].After; after != "" &&
			!slices.ContainsFunc(tasks[k+1:], func(nt taskdoc.NewTask) bool { return nt.After == after }) {
			before, err := nd.Task(tasks[k].After)
			require.NoError(t, err, msg)
			require.Equal(t, before.Span.End, task.Span.Start, "task %d is not after %q: %s", k, tasks[k].After, msg)
		}
	}
}

// TestAddTasksSameAsAddTask: on every case document and on generated
// ones, AddTasks gives the bytes, or the error, of AddTask one by one.
func TestAddTasksSameAsAddTask(t *testing.T) {
	seed, docs := uint64(3), 300
	if testing.Short() {
		docs = 30
	}
	// A longer search: TASKDOC_DIFF_SEED=7 go test -run TestAddTasksSame.
	if s := os.Getenv("TASKDOC_DIFF_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
		seed, docs = n, 5000
	}
	r := rand.New(rand.NewPCG(seed, 4))
	cases, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, path := range cases {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		doc, err := taskdoc.Parse(src)
		require.NoError(t, err)
		requireSameAsOneByOne(t, path, doc, r)
	}
	for n := range docs {
		src := genDoc(r)
		doc, err := taskdoc.Parse([]byte(src))
		if err != nil {
			continue // a "---" look-alike that is not front matter
		}
		requireSameAsOneByOne(t, fmt.Sprint("generated ", n), doc, r)
	}
}

func TestAddTasksSingleEqualsAddTask(t *testing.T) {
	doc, err := taskdoc.Parse(benchDocument(10))
	require.NoError(t, err)
	for _, nt := range []taskdoc.NewTask{
		{Title: "Write API docs", Content: goldenContent},
		{Title: "Write API docs", After: benchSlug(10)},
	} {
		want, task, err := doc.AddTask(nt)
		require.NoError(t, err)
		got, added, err := doc.AddTasks([]taskdoc.NewTask{nt})
		require.NoError(t, err)
		require.Equal(t, string(want.Source), string(got.Source))
		require.Equal(t, []*taskdoc.Task{task}, added)
	}
}

func TestAddTasksErrors(t *testing.T) {
	doc, err := taskdoc.Parse(benchDocument(10))
	require.NoError(t, err)
	tests := []struct {
		name  string
		tasks []taskdoc.NewTask
		want  taskdoc.Code
	}{
		{"duplicate in batch", []taskdoc.NewTask{{Title: "New A"}, {Title: "New B"}, {Title: "New A!"}}, taskdoc.CodeDuplicateTask},
		{"duplicate of existing", []taskdoc.NewTask{{Title: "New A"}, {Title: "Implement token step 3"}}, taskdoc.CodeDuplicateTask},
		{"heading in third content", []taskdoc.NewTask{{Title: "New A"}, {Title: "New B"}, {Title: "New C", Content: "Body\n\n## Too high"}}, taskdoc.CodeInvalidTask},
		{"invalid UTF-8 in third content", []taskdoc.NewTask{{Title: "New A"}, {Title: "New B"}, {Title: "New C", Content: "\xff"}}, taskdoc.CodeInvalidUTF8},
		{"multi-line third title", []taskdoc.NewTask{{Title: "New A"}, {Title: "New B"}, {Title: "New\nC"}}, taskdoc.CodeInvalidTask},
		{"after unknown task", []taskdoc.NewTask{{Title: "New A"}, {Title: "New B", After: "no-such-task"}}, taskdoc.CodeTaskNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nd, added, err := doc.AddTasks(tt.tasks)
			require.Equal(t, tt.want, taskdoc.CodeOf(err))
			require.Nil(t, nd)
			require.Nil(t, added)
		})
	}
}

func TestAddTasksNone(t *testing.T) {
	src := benchDocument(3)
	doc, err := taskdoc.Parse(src)
	require.NoError(t, err)
	nd, added, err := doc.AddTasks(nil)
	require.NoError(t, err)
	require.Same(t, doc, nd)
	require.Empty(t, added)
}

// BenchmarkAddTasks adds 100 tasks at the end of a 1,000-task document:
// in one AddTasks call, and as AddTask and Parse per task (what callers
// did before AddTasks).
func BenchmarkAddTasks(b *testing.B) {
	src := benchDocument(1000)
	doc, err := taskdoc.Parse(src)
	require.NoError(b, err)
	tasks := make([]taskdoc.NewTask, 100)
	for i := range tasks {
		tasks[i] = taskdoc.NewTask{Title: fmt.Sprintf("Added step %d", i), Content: goldenContent}
	}
	for _, bb := range []struct {
		name string
		add  func(*taskdoc.Document, []taskdoc.NewTask) ([]byte, error)
	}{
		{"batch", func(d *taskdoc.Document, tasks []taskdoc.NewTask) ([]byte, error) {
			nd, _, err := d.AddTasks(tasks)
			if err != nil {
				return nil, err
			}
			return nd.Source, nil
		}},
		{"one-by-one", addOneByOne},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bb.add(doc, tasks); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAddTaskAfterHeadingWithoutLineEnding: adding a task to a document
// whose last line is a task heading without a line ending gives that line
// one; with link references (which take the full-parse check) this was
// once refused as a change to the heading.
func TestAddTaskAfterHeadingWithoutLineEnding(t *testing.T) {
	doc, err := taskdoc.Parse([]byte("# Doc\n\n[used]: /there\n\n## Tasks\n\n### A"))
	require.NoError(t, err)
	nd, task, err := doc.AddTask(taskdoc.NewTask{Title: "B"})
	require.NoError(t, err)
	require.Equal(t, "# Doc\n\n[used]: /there\n\n## Tasks\n\n### A\n\n### B", string(nd.Source))
	assertEditProperty(t, doc.Source, nd, task, "b")
	nd, added, err := doc.AddTasks([]taskdoc.NewTask{{Title: "B"}, {Title: "C", Content: "Body."}})
	require.NoError(t, err)
	require.Equal(t, "# Doc\n\n[used]: /there\n\n## Tasks\n\n### A\n\n### B\n\n### C\n\nBody.", string(nd.Source))
	requireAdded(t, nd, added, []taskdoc.NewTask{{Title: "B"}, {Title: "C", Content: "Body."}}, "")
}
