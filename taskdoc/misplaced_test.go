package taskdoc_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// misplacedDoc has a task written description first, then its metadata,
// as people often write one, between two tasks written as the format says.
const misplacedDoc = "# Plan\n\n## Tasks\n\n### First\n\n- Status: pending\n\nDo it.\n\n" +
	"### Late\n\nDescription first.\n\n- Status: in_progress\n- Workflow: tdd\n\n" +
	"### Last\n\nSteps:\n\n- Note: mind the cache\n- Error: none so far\n\nResponse:\n\n- Status: 200\n"

// TestMisplacedMetadataIsReported: Parse reads a metadata list written
// after the description as body (the task is pending), and says so in
// Diagnostics with the line and column of the list; lists in a
// description that only look like metadata are not reported.
func TestMisplacedMetadataIsReported(t *testing.T) {
	doc := mustParse(t, []byte(misplacedDoc))
	late, err := doc.Task("late")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPending, late.Status, "the list is not the metadata")
	assert.Empty(t, late.Fields)
	assert.Equal(t, []taskdoc.Diagnostic{{Code: taskdoc.CodeMisplacedMetadata, Slug: "late", Line: 15, Column: 1,
		Msg: `the metadata list of task "late" comes after its description, where it is not read as metadata: ` +
			"move the list above the description, right under the heading"}}, doc.Diagnostics())

	// The shape two edits used to leave: a Status list added above the
	// one written below the description.
	twice := mustParse(t, []byte("## Tasks\n\n### T\n\n- Status: in_progress\n\nDescription.\n\n  * Status: pending\n"))
	require.Len(t, twice.Diagnostics(), 1)
	assert.Equal(t, 9, twice.Diagnostics()[0].Line)
	assert.Equal(t, 3, twice.Diagnostics()[0].Column)

	assert.Empty(t, mustParse(t, []byte("## Tasks\n\n### T\n\nDescription.\n\n1. Status: pending\n")).Diagnostics(), "an ordered list")
	assert.Empty(t, mustParse(t, []byte("## Tasks\n\n### T\n\nDescription.\n\nMore.\n\n- Status: pending\n")).Diagnostics(), "not after the first paragraph")
}

// TestMisplacedMetadataIsNeverAnsweredByASecondList: an edit of the
// metadata of such a task is MISPLACED_METADATA pointing at the list, and
// writes nothing; content written that way into another task or a new
// one is refused too; the task's own content is written as given; and the
// task is fixed by moving the list above the description.
func TestMisplacedMetadataIsNeverAnsweredByASecondList(t *testing.T) {
	doc := mustParse(t, []byte(misplacedDoc))
	edits := map[string]func() (*taskdoc.Document, *taskdoc.Task, error){
		"start": func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.SetStatus("late", taskdoc.StatusInProgress)
		},
		"set field": func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.SetField("late", "Owner", "ana") },
		"complete":  func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.Complete("late", "done", time.Now()) },
		"into another": func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.EditTask("first", taskdoc.Edit{Content: "Why.\n\n- Status: blocked"})
		},
		"new task": func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.AddTask(taskdoc.NewTask{Title: "New", Content: "Why.\n\n- Depends-On: #first"})
		},
		"new tasks": func() (*taskdoc.Document, *taskdoc.Task, error) {
			nd, added, err := doc.AddTasks([]taskdoc.NewTask{{Title: "A"}, {Title: "B", Content: "Why.\n\n- Status: pending"}})
			if len(added) > 0 {
				return nd, added[0], err
			}
			return nd, nil, err
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			nd, task, err := edit()
			requireTypedError(t, err, nd)
			assert.Nil(t, task)
			require.Equal(t, taskdoc.CodeMisplacedMetadata, taskdoc.CodeOf(err))
			assert.Contains(t, err.Error(), "move the list above the description")
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Positive(t, e.Line)
		})
	}

	// A round trip of such a task's content changes nothing, and the list
	// is still reported: a content edit writes what it is given, and adds
	// no list of its own.
	nd, task, err := doc.EditTask("late", taskdoc.Edit{Content: mustTask(t, doc, "late").Content()})
	require.NoError(t, err)
	assert.Equal(t, string(doc.Source), string(nd.Source))
	assert.Equal(t, "late", task.Slug)
	require.Len(t, nd.Diagnostics(), 1)

	// A new title alone writes no metadata.
	nd, task, err = doc.EditTask("late", taskdoc.Edit{Title: "Later"})
	require.NoError(t, err)
	assertEditProperty(t, doc.Source, nd, task, "late")
	require.Len(t, nd.Diagnostics(), 1)

	// Moving the list up fixes the task.
	nd, task, err = doc.EditTask("late", taskdoc.Edit{Content: "- Status: in_progress\n- Workflow: tdd\n\nDescription first."})
	require.NoError(t, err)
	assertEditProperty(t, doc.Source, nd, task, "late")
	assert.Equal(t, taskdoc.StatusInProgress, task.Status)
	assert.Empty(t, nd.Diagnostics())
	nd, _, err = nd.SetStatus("late", taskdoc.StatusCompleted)
	require.NoError(t, err)
	assert.Empty(t, nd.Diagnostics())
}

// TestDiagnosticsFollowEdits: the Document an edit or Reparse returns
// reports what Parse of its bytes reports.
func TestDiagnosticsFollowEdits(t *testing.T) {
	doc := mustParse(t, []byte(misplacedDoc))
	nd, _, err := doc.SetStatus("first", taskdoc.StatusInProgress)
	require.NoError(t, err)
	nd, _, err = nd.EditTask("first", taskdoc.Edit{Content: "- Status: in_progress\n\nA\nlonger\nbody."})
	require.NoError(t, err)
	want := mustParse(t, nd.Source).Diagnostics()
	require.Len(t, want, 1)
	assert.Equal(t, 17, want[0].Line)
	assert.Equal(t, want, nd.Diagnostics())
	rd, err := doc.Reparse(nd.Source)
	require.NoError(t, err)
	assert.Equal(t, want, rd.Diagnostics())
	nd, err = nd.RemoveTask("late")
	require.NoError(t, err)
	assert.Empty(t, nd.Diagnostics())
}

func mustTask(t *testing.T, doc *taskdoc.Document, slug string) *taskdoc.Task {
	t.Helper()
	task, err := doc.Task(slug)
	require.NoError(t, err)
	return task
}
