package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestControlCharactersAreRefused: no edit writes a control character
// (NUL, the C0 controls but tab, line feed and carriage return, and DEL)
// into a title, content, note, field key or value; the error names the
// character and where it is in the text given.
func TestControlCharactersAreRefused(t *testing.T) {
	doc := mustParse(t, []byte("# D\n\n## Tasks\n\n### A\n\n- Status: pending\n"))
	tests := []struct {
		name  string
		edit  func() (*taskdoc.Document, *taskdoc.Task, error)
		msg   []string // what the message names
		where string
	}{
		{"NUL in a new title", func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.AddTask(taskdoc.NewTask{Title: "B\x00"})
		}, []string{"U+0000", "title", "column 2"}, ""},
		{"bell in new content", func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.AddTask(taskdoc.NewTask{Title: "B", Content: "line one\nring \x07 bell"})
		}, []string{"U+0007", "content", "line 2, column 6"}, ""},
		{"escape in a batch", func() (*taskdoc.Document, *taskdoc.Task, error) {
			nd, added, err := doc.AddTasks([]taskdoc.NewTask{{Title: "B"}, {Title: "C", Content: "\x1b[31mred"}})
			if len(added) > 0 {
				return nd, added[0], err
			}
			return nd, nil, err
		}, []string{"U+001B", "content"}, ""},
		{"vertical tab in a renamed title", func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.EditTask("a", taskdoc.Edit{Title: "A\vB"})
		}, []string{"U+000B", "title"}, "a"},
		{"form feed in edited content", func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.EditTask("a", taskdoc.Edit{Content: "page\fbreak"})
		}, []string{"U+000C", "content"}, "a"},
		{"DEL in a field value", func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.SetField("a", "Owner", "ana\x7f")
		}, []string{"U+007F", "value"}, "a"},
		{"control in a field key", func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.SetField("a", "Own\x01er", "ana")
		}, []string{"U+0001", "key"}, "a"},
		{"backspace in a note", func() (*taskdoc.Document, *taskdoc.Task, error) {
			return doc.Complete("a", "done\b", fuzzDate)
		}, []string{"U+0008", "note"}, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nd, task, err := tt.edit()
			requireTypedError(t, err, nd)
			assert.Nil(t, task)
			require.Equal(t, taskdoc.CodeControlCharacter, taskdoc.CodeOf(err))
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			for _, m := range tt.msg {
				assert.Contains(t, e.Msg, m)
			}
			if tt.where != "" {
				assert.Equal(t, tt.where, e.Slug)
			}
		})
	}
}

// TestControlCharactersInDocumentsStillParse: a document that already
// holds control characters parses, and its tasks can be edited with text
// free of them; tab, line feed and carriage return are allowed in edits.
func TestControlCharactersInDocumentsStillParse(t *testing.T) {
	src := "# D\x01\n\n## Tasks\n\n### A\x7f\n\nBody \x00 with NUL.\n\n### B\n"
	doc := mustParse(t, []byte(src))
	require.Len(t, doc.Tasks, 2)
	nd, task, err := doc.SetStatus("b", taskdoc.StatusBlocked)
	require.NoError(t, err)
	assertEditProperty(t, doc.Source, nd, task, "b")
	nd, task, err = doc.EditTask("b", taskdoc.Edit{Content: "- Owner:\tana\r\n\r\n\tindented\tbody"})
	require.NoError(t, err)
	assertEditProperty(t, doc.Source, nd, task, "b")
	nd, task, err = doc.SetField("a", "Owner", "ana\tand bo")
	require.NoError(t, err)
	assertEditProperty(t, doc.Source, nd, task, "a")
}

// TestEditKeepsControlCharactersItReplaces: writing a task's Content back
// (or its title) keeps the control characters the task already holds, in
// a code example, say; only those an edit adds are refused.
func TestEditKeepsControlCharactersItReplaces(t *testing.T) {
	src := "# D\n\n## Tasks\n\n### A\x7f\n\n- Status: pending\n\nRead the record:\n\n```\nkey\x0bvalue\x00end\n```\n\n### B\n"
	doc := mustParse(t, []byte(src))
	a, err := doc.Task("a")
	require.NoError(t, err)
	nd, task, err := doc.EditTask("a", taskdoc.Edit{Title: a.Title, Content: a.Content()})
	require.NoError(t, err)
	assertEditProperty(t, doc.Source, nd, task, "a")
	assert.Equal(t, a.Body, task.Body)
	assert.Equal(t, src, string(nd.Source))

	// Moving them about keeps their count: still nothing added.
	_, _, err = doc.EditTask("a", taskdoc.Edit{Content: "- Status: pending\n\n```\n\x00\x0b\n```"})
	require.NoError(t, err)

	// One more NUL than the task holds is added, and named where it is.
	_, _, err = doc.EditTask("a", taskdoc.Edit{Content: a.Content() + "\n\nand \x00 again"})
	require.Equal(t, taskdoc.CodeControlCharacter, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "U+0000")
	assert.Contains(t, err.Error(), "column 5")
	// A control character the task does not hold is added, however many
	// others it holds.
	_, _, err = doc.EditTask("a", taskdoc.Edit{Content: "\x0b\x01"})
	require.Equal(t, taskdoc.CodeControlCharacter, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "U+0001")
	// The content's are not the title's.
	_, _, err = doc.EditTask("a", taskdoc.Edit{Title: "A\x00"})
	require.Equal(t, taskdoc.CodeControlCharacter, taskdoc.CodeOf(err))
}

// TestDocumentTitleRule: a new document's title follows one rule, which
// NewDocument applies too: line breaks folded, control characters and
// invalid UTF-8 refused, never written.
func TestDocumentTitleRule(t *testing.T) {
	title, err := taskdoc.DocumentTitle("  Auth\r\n\tService ")
	require.NoError(t, err)
	assert.Equal(t, "Auth Service", title)
	for in, code := range map[string]taskdoc.Code{
		"x\x00y": taskdoc.CodeControlCharacter, "x\x7f": taskdoc.CodeControlCharacter,
		"x\u0085y": taskdoc.CodeControlCharacter, "x\xffy": taskdoc.CodeInvalidUTF8, " \n\t": taskdoc.CodeInvalidArguments,
	} {
		_, err := taskdoc.DocumentTitle(in)
		assert.Equal(t, code, taskdoc.CodeOf(err), "%q", in)
		assert.Equal(t, "## Tasks\n", string(taskdoc.NewDocument(in)), "%q", in)
	}
	assert.Equal(t, "# A B\n\n## Tasks\n", string(taskdoc.NewDocument("A\nB")))
}

// The C1 controls U+0080 to U+009F are control characters too (Unicode Cc),
// invisible in a title, and U+009B is CSI for 8-bit terminals: edits write
// none of them.
func TestC1ControlCharacterInTitleIsRefused(t *testing.T) {
	doc := mustParse(t, []byte("# D\n\n## Tasks\n\n### A\n\nbody\n"))
	for _, title := range []string{"X\u009bY", "X\u0085Y"} {
		_, _, err := doc.EditTask("a", taskdoc.Edit{Title: title})
		require.Equal(t, taskdoc.CodeControlCharacter, taskdoc.CodeOf(err), "title %q", title)
		_, _, err = doc.AddTask(taskdoc.NewTask{Title: "B", Content: "text " + title})
		require.Equal(t, taskdoc.CodeControlCharacter, taskdoc.CodeOf(err), "content %q", title)
	}
}
