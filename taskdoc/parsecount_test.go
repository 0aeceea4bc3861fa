package taskdoc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestParseIsOneDocumentParse(t *testing.T) {
	src := benchDocument(100)
	docs, regions := parsecount.During(func() {
		_, err := taskdoc.Parse(src)
		require.NoError(t, err)
	})
	require.Equal(t, int64(1), docs)
	require.Equal(t, int64(0), regions)
	docs, regions = parsecount.During(func() {
		_, err := taskdoc.ParseFrontMatter(src)
		require.NoError(t, err)
	})
	require.Equal(t, int64(0), docs+regions, "front matter alone needs no Markdown parse")
}

// TestEditsParseOnlyTheirTask: on a large document each common edit,
// verified and turned into a Document, costs one parse of the edited
// range and no parse of the document.
func TestEditsParseOnlyTheirTask(t *testing.T) {
	doc, err := taskdoc.Parse(benchDocument(1000))
	require.NoError(t, err)
	slug := benchSlug(1000)
	edits := map[string]func() (*taskdoc.Document, *taskdoc.Task, error){
		"status":   func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.SetStatus(slug, taskdoc.StatusInProgress) },
		"complete": func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.Complete(slug, "done", fuzzDate) },
		"field":    func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.SetField(slug, "Owner", "ana") },
		"unset":    func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.RemoveField(slug, "Workflow") },
		"rename": func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.EditTask(slug, taskdoc.Edit{Title: "Renamed"})
		},
		"add": func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.AddTask(taskdoc.NewTask{Title: "New"}) },
		"add after": func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.AddTask(taskdoc.NewTask{Title: "New", After: slug})
		},
		"remove": func() (*taskdoc.Document, *taskdoc.Task, error) { return removed(doc.RemoveTask(slug)) },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			var nd *taskdoc.Document
			var task *taskdoc.Task
			docs, regions := parsecount.During(func() { nd, task, err = edit() })
			require.NoError(t, err)
			require.Equal(t, int64(0), docs, "a full parse")
			require.Equal(t, int64(1), regions)
			edited := slug
			if strings.HasPrefix(name, "add") {
				edited = "new"
			}
			assertEditProperty(t, doc.Source, nd, task, edited)
		})
	}
}

// TestAddTasksParsesNoDocument: creating 100 tasks in a 1,000-task
// document parses the new tasks, not the document, and the Document it
// returns is the one a parse gives.
func TestAddTasksParsesNoDocument(t *testing.T) {
	doc, err := taskdoc.Parse(benchDocument(1000))
	require.NoError(t, err)
	tasks := make([]taskdoc.NewTask, 100)
	for i := range tasks {
		tasks[i] = taskdoc.NewTask{Title: fmt.Sprintf("Added step %d", i), Content: goldenContent}
	}
	for name, after := range map[string]string{"append": "", "after": benchSlug(1000)} {
		t.Run(name, func(t *testing.T) {
			tasks[0].After = after
			for k := 1; k < len(tasks) && after != ""; k++ {
				tasks[k].After = taskdoc.Slug(tasks[k-1].Title)
			}
			var nd *taskdoc.Document
			var added []*taskdoc.Task
			docs, _ := parsecount.During(func() { nd, added, err = doc.AddTasks(tasks) })
			require.NoError(t, err)
			require.Equal(t, int64(0), docs, "a full parse")
			requireAdded(t, nd, added, tasks, name)
		})
	}
}

// TestEditsAtLineEndingEdgesParseNoDocument: appending after a last line
// without a line ending gives that line one, and a lone "\r" before text
// that starts with "\n" becomes a "\r\n": the line before the edit ends
// elsewhere, and the Document is still built without a full parse.
func TestEditsAtLineEndingEdgesParseNoDocument(t *testing.T) {
	docs := map[string]string{
		"no final newline after body":    "## Tasks\n\n### A\n\n- Status: pending\n\nBody.",
		"no final newline after heading": "## Tasks\n\n### A",
		"no final newline after fields":  "## Tasks\n\n### A\n\n**Status:** pending\n**Note:** x",
		"empty section":                  "# D\n\n## Tasks",
		"lone CR":                        "# D\r## Tasks\r### A\r- Status: pending\r",
		"lone CR before LF":              "## Tasks\n\n### A\n\n- Status: pending\r",
		"CRLF":                           "## Tasks\r\n\r\n### A\r\n\r\n- Status: pending\r\n",
	}
	for name, src := range docs {
		t.Run(name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(src))
			require.NoError(t, err)
			var nd *taskdoc.Document
			var task *taskdoc.Task
			full, _ := parsecount.During(func() { nd, task, err = doc.AddTask(taskdoc.NewTask{Title: "B", Content: "Body of B."}) })
			require.NoError(t, err)
			require.Equal(t, int64(0), full, "a full parse:\n%q", nd.Source)
			assertEditProperty(t, doc.Source, nd, task, "b")
		})
	}
}
