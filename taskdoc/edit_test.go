package taskdoc_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

const editDoc = "# Auth\n\n## Tasks\n\n### Setup\n\n- Status: pending\n\nBody.\n\n### Done task\n\n- Status: completed\n- Completed: 2026-01-02\n- Note: shipped\n\n## Notes\n\nEnd.\n"

func parseEditDoc(t *testing.T) *taskdoc.Document {
	t.Helper()
	doc, err := taskdoc.Parse([]byte(editDoc))
	require.NoError(t, err)
	return doc
}

func TestEditErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(d *taskdoc.Document) (*taskdoc.Document, error)
		code taskdoc.Code
		msg  string
	}{
		{"unknown status", func(d *taskdoc.Document) (*taskdoc.Document, error) { return edited(d.SetStatus("setup", "done")) }, taskdoc.CodeUnknownStatus, `unknown status "done"`},
		{"unknown status via field", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.SetField("setup", "status", "later"))
		}, taskdoc.CodeUnknownStatus, "later"},
		{"missing task", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.SetStatus("nope", taskdoc.StatusBlocked))
		}, taskdoc.CodeTaskNotFound, "setup, done-task"},
		{"complete twice", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.Complete("done-task", "again", goldenDate))
		}, taskdoc.CodeInvalidTransition, "already completed"},
		{"empty note", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.Complete("setup", " \n\t", goldenDate))
		}, taskdoc.CodeNoteRequired, "needs a note"},
		{"note not UTF-8", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.Complete("setup", "caf\xe9", goldenDate))
		}, taskdoc.CodeInvalidUTF8, "note"},
		{"duplicate on create", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.AddTask(taskdoc.NewTask{Title: "SETUP"}))
		}, taskdoc.CodeDuplicateTask, `"setup" already exists`},
		{"duplicate on rename", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.EditTask("setup", taskdoc.Edit{Title: "Done task"}))
		}, taskdoc.CodeDuplicateTask, `"done-task" already exists`},
		{"empty title", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.AddTask(taskdoc.NewTask{Title: "  "}))
		}, taskdoc.CodeInvalidTask, "needs a title"},
		{"title with newline", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.AddTask(taskdoc.NewTask{Title: "a\nb"}))
		}, taskdoc.CodeInvalidTask, "single line"},
		{"title without slug", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.AddTask(taskdoc.NewTask{Title: "!!!"}))
		}, taskdoc.CodeInvalidTask, "no letter or digit"},
		{"after missing task", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.AddTask(taskdoc.NewTask{Title: "New", After: "nope"}))
		}, taskdoc.CodeTaskNotFound, "nope"},
		{"content with a task-level heading", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.AddTask(taskdoc.NewTask{Title: "New", Content: "- Status: pending\n\n### Sneaky"}))
		}, taskdoc.CodeInvalidTask, `level-3 heading "Sneaky", which would end the task`},
		{"content with a section heading", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.EditTask("setup", taskdoc.Edit{Content: "Body\n\n## Breaks the section"}))
		}, taskdoc.CodeInvalidTask, "level-2 heading"},
		{"content with a setext section heading", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.EditTask("setup", taskdoc.Edit{Content: "Body\n\nBreaks\n======"}))
		}, taskdoc.CodeInvalidTask, "level-1 heading"},
		{"unclosed fence swallows the next task", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.EditTask("setup", taskdoc.Edit{Content: "```\nopen"}))
		}, taskdoc.CodeInvalidTask, `swallow the heading "Done task"`},
		{"unclosed comment swallows the section end", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.AddTask(taskdoc.NewTask{Title: "New", Content: "<!-- open"}))
		}, taskdoc.CodeInvalidTask, `swallow the heading "Notes"`},
		{"field key", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.SetField("setup", "Bad:key", "x"))
		}, taskdoc.CodeInvalidTask, "invalid field key"},
		{"field value on two lines", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.SetField("setup", "Owner", "a\nb"))
		}, taskdoc.CodeInvalidTask, "single line"},
		{"field value not UTF-8", func(d *taskdoc.Document) (*taskdoc.Document, error) {
			return edited(d.SetField("setup", "Owner", "\xff"))
		}, taskdoc.CodeInvalidUTF8, "field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parseEditDoc(t)
			out, err := tt.edit(doc)
			requireTypedError(t, err, out)
			assert.Equal(t, tt.code, taskdoc.CodeOf(err), "%v", err)
			assert.Contains(t, err.Error(), tt.msg)
			assert.NotContains(t, err.Error(), string(tt.code), "the message repeats the code")
			assert.Equal(t, editDoc, string(doc.Source), "the document changed")
		})
	}
}

func TestCompleteMultiLineNote(t *testing.T) {
	doc := parseEditDoc(t)
	nd, task, err := doc.Complete("setup", "first line\n\n  second line\r\n", goldenDate)
	require.NoError(t, err)
	after := assertEditProperty(t, doc.Source, nd, task, "setup")
	requireField(t, after, "setup", "Note", "first line second line")
}

func TestCompleteReopenedTaskReplacesItsFields(t *testing.T) {
	src := "## Tasks\n\n### A\n\n- Status: pending\n- Completed: 2026-01-02\n- Note: old\n"
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(t, err)
	nd, task, err := doc.Complete("a", "new", goldenDate)
	require.NoError(t, err)
	assert.Equal(t, "## Tasks\n\n### A\n\n- Status: completed\n- Completed: 2026-11-23\n- Note: new\n", string(nd.Source))
	assertEditProperty(t, doc.Source, nd, task, "a")
}

func TestEditKeepsUnrelatedFieldsAndKeySpelling(t *testing.T) {
	src := "## Tasks\n\n### A\n\n- STATUS:   pending\n- X-Custom: kept\n- Note:\n"
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(t, err)
	nd, _, err := doc.SetStatus("a", taskdoc.StatusBlocked)
	require.NoError(t, err)
	assert.Equal(t, "## Tasks\n\n### A\n\n- STATUS:   blocked\n- X-Custom: kept\n- Note:\n", string(nd.Source))
	nd, _, err = doc.SetField("a", "note", "filled")
	require.NoError(t, err)
	assert.Equal(t, "## Tasks\n\n### A\n\n- STATUS:   pending\n- X-Custom: kept\n- Note: filled\n", string(nd.Source))
	nd, _, err = doc.SetField("a", "x-custom", "")
	require.NoError(t, err)
	assert.Equal(t, "## Tasks\n\n### A\n\n- STATUS:   pending\n- X-Custom:\n- Note:\n", string(nd.Source))
}

func TestSetStatusAddsMissingStatusFirst(t *testing.T) {
	tests := []struct{ src, want string }{
		{"## Tasks\n\n### A\n\n- Workflow: x\n", "## Tasks\n\n### A\n\n- Status: blocked\n- Workflow: x\n"},
		{"## Tasks\n\n### A\n\nBody.\n", "## Tasks\n\n### A\n\n- Status: blocked\n\nBody.\n"},
		{"## Tasks\n\n### A\nBody.\n", "## Tasks\n\n### A\n\n- Status: blocked\n\nBody.\n"},
		{"## Tasks\n\n### A\n\n### B\n", "## Tasks\n\n### A\n\n- Status: blocked\n\n### B\n"},
		{"## Tasks\n\n### A", "## Tasks\n\n### A\n\n- Status: blocked"},
		{"## Tasks\n\n### A\n\n#### Sub\n\nx\n", "## Tasks\n\n### A\n\n- Status: blocked\n\n#### Sub\n\nx\n"},
	}
	for _, tt := range tests {
		doc, err := taskdoc.Parse([]byte(tt.src))
		require.NoError(t, err)
		nd, task, err := doc.SetStatus("a", taskdoc.StatusBlocked)
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(nd.Source))
		after := assertEditProperty(t, doc.Source, nd, task, "a")
		requireTaskStatus(t, after, "a", taskdoc.StatusBlocked)
	}
}

func TestRemoveFieldDropsEmptyList(t *testing.T) {
	tests := []struct{ src, key, want string }{
		{"## Tasks\n\n### A\n\n- Status: pending\n\nBody.\n", "status", "## Tasks\n\n### A\n\nBody.\n"},
		{"## Tasks\n\n### A\n\n- Status: pending\n\n### B\n", "Status", "## Tasks\n\n### A\n\n### B\n"},
		{"## Tasks\n\n### A\n\n- Status: pending\n- Note: a\n- note: b\n", "NOTE", "## Tasks\n\n### A\n\n- Status: pending\n"},
		{"## Tasks\n\n### A\n\n- Status: pending\n", "Missing", "## Tasks\n\n### A\n\n- Status: pending\n"},
	}
	for _, tt := range tests {
		doc, err := taskdoc.Parse([]byte(tt.src))
		require.NoError(t, err)
		nd, task, err := doc.RemoveField("a", tt.key)
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(nd.Source))
		assertEditProperty(t, doc.Source, nd, task, "a")
	}
}

func TestEditTask(t *testing.T) {
	doc := parseEditDoc(t)
	nd, renamed, err := doc.EditTask("setup", taskdoc.Edit{Title: "Set up CI"})
	require.NoError(t, err)
	assert.Equal(t, strings.Replace(editDoc, "### Setup", "### Set up CI", 1), string(nd.Source))
	assertEditProperty(t, doc.Source, nd, renamed, "setup")
	assert.Equal(t, "set-up-ci", renamed.Slug)

	task, err := doc.Task("setup")
	require.NoError(t, err)
	nd, same, err := doc.EditTask("setup", taskdoc.Edit{Content: task.Content()})
	require.NoError(t, err)
	assert.Equal(t, editDoc, string(nd.Source), "Content round-trips through EditTask")
	assertEditProperty(t, doc.Source, nd, same, "setup")

	nd, same, err = doc.EditTask("setup", taskdoc.Edit{})
	require.NoError(t, err)
	assert.Same(t, doc, nd, "an empty edit returns the document itself")
	assert.Same(t, task, same)
}

func TestAddTaskCreatesTasksSection(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "## Tasks\n\n### New\n\n- Status: pending\n"},
		{"# Doc\n", "# Doc\n\n## Tasks\n\n### New\n\n- Status: pending\n"},
		{"# Doc\n\nText", "# Doc\n\nText\n\n## Tasks\n\n### New\n\n- Status: pending"},
	}
	for _, tt := range tests {
		doc, err := taskdoc.Parse([]byte(tt.src))
		require.NoError(t, err)
		nd, task, err := doc.AddTask(taskdoc.NewTask{Title: "New", Content: "- Status: pending\n"})
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(nd.Source))
		assertEditProperty(t, doc.Source, nd, task, "new")
	}
}

func TestAddTaskAfterUnclosedFenceAtEnd(t *testing.T) {
	doc, err := taskdoc.Parse([]byte("## Tasks\n\n### A\n\n```\ncode that never closes\n"))
	require.NoError(t, err)
	nd, task, err := doc.AddTask(taskdoc.NewTask{Title: "B"})
	requireTypedError(t, err, nd)
	assert.Nil(t, task)
	assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
}

func TestDocumentIsSafeForConcurrentUse(t *testing.T) {
	doc := parseEditDoc(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var nd *taskdoc.Document
			var err error
			switch i % 4 {
			case 0:
				nd, _, err = doc.Complete("setup", "done", goldenDate)
			case 1:
				nd, _, err = doc.SetField("setup", "Owner", "ana")
			case 2:
				nd, _, err = doc.AddTask(taskdoc.NewTask{Title: "Other"})
			default:
				nd, err = doc.RemoveTask("done-task")
			}
			if assert.NoError(t, err) {
				assert.NotEqual(t, editDoc, string(nd.Source))
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, editDoc, string(doc.Source))
}

func TestRenameTaskWithEmptyHeading(t *testing.T) {
	tests := []struct{ src, want string }{
		{"## Tasks\n\n###\n\nbody\n", "## Tasks\n\n### Named\n\nbody\n"},
		{"## Tasks\n\n### ###\n\nbody\n", "## Tasks\n\n### Named ###\n\nbody\n"},
		{"## Tasks\n\n###", "## Tasks\n\n### Named"},
	}
	for _, tt := range tests {
		doc, err := taskdoc.Parse([]byte(tt.src))
		require.NoError(t, err)
		nd, task, err := doc.EditTask("", taskdoc.Edit{Title: "Named"})
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(nd.Source))
		assertEditProperty(t, doc.Source, nd, task, "")
	}
}

func TestNewFieldsKeepTheListsStyle(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"loose list stays loose",
			"## Tasks\n\n### A\n\n- Workflow: x\n\n- Owner: ana\n\nBody\n",
			"## Tasks\n\n### A\n\n- Status: completed\n\n- Workflow: x\n\n- Owner: ana\n\n- Completed: 2026-11-23\n\n- Note: done\n\nBody\n"},
		{"after nested items",
			"## Tasks\n\n### A\n\n* Status: pending\n* Workflow: x\n  * nested\n\nBody\n",
			"## Tasks\n\n### A\n\n* Status: completed\n* Workflow: x\n  * nested\n* Completed: 2026-11-23\n* Note: done\n\nBody\n"},
		{"bold keys in a list",
			"## Tasks\n\n### A\n\n- **Status:** pending\n",
			"## Tasks\n\n### A\n\n- **Status:** completed\n- **Completed:** 2026-11-23\n- **Note:** done\n"},
		{"no blank line under the heading",
			"## Tasks\n\n### A\n- Status: pending\n### B\n",
			"## Tasks\n\n### A\n- Status: completed\n- Completed: 2026-11-23\n- Note: done\n### B\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(tt.src))
			require.NoError(t, err)
			nd, task, err := doc.Complete("a", "done", goldenDate)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(nd.Source))
			assertEditProperty(t, doc.Source, nd, task, "a")
		})
	}
}
