package taskdoc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestErrorsPointAtTheByte: errors about a heading or a block give its
// offset, line, column and text. A refused edit points into the document
// it would have written (want), a repeated slug into the one read.
func TestErrorsPointAtTheByte(t *testing.T) {
	const repeated = "## Tasks\n\n### Same\n\nOne.\n\n### same!\n\nTwo.\n"
	const setext = "Tasks\n=====\n\nOne\n---\n\nbody\n"
	const bodyList = "## Tasks\n\n### A\n\n- Status: pending\n\n* Owner: named in the body\n"
	tests := []struct {
		name    string
		src     string
		do      func(d *taskdoc.Document) error
		code    taskdoc.Code
		want    string // the document the error points into
		excerpt string // the line it points at, which starts there
	}{
		{"repeated slug", repeated, func(d *taskdoc.Document) error {
			_, err := d.Task("same")
			return err
		}, taskdoc.CodeDuplicateTask, repeated, "### same!"},
		{"slug taken on add", editDoc, func(d *taskdoc.Document) error {
			_, _, err := d.AddTask(taskdoc.NewTask{Title: "SETUP"})
			return err
		}, taskdoc.CodeDuplicateTask, editDoc, "### Setup"},
		{"slug taken on rename", editDoc, func(d *taskdoc.Document) error {
			_, _, err := d.EditTask("setup", taskdoc.Edit{Title: "Done task"})
			return err
		}, taskdoc.CodeDuplicateTask, editDoc, "### Done task"},
		{"heading at the task level", editDoc, func(d *taskdoc.Document) error {
			_, _, err := d.AddTask(taskdoc.NewTask{Title: "New", Content: "- Status: pending\n\n### Sneaky"})
			return err
		}, taskdoc.CodeInvalidTask,
			strings.Replace(editDoc, "## Notes", "### New\n\n- Status: pending\n\n### Sneaky\n\n## Notes", 1), "### Sneaky"},
		{"setext heading above the task level", editDoc, func(d *taskdoc.Document) error {
			_, _, err := d.EditTask("setup", taskdoc.Edit{Content: "Body\n\nBreaks\n======"})
			return err
		}, taskdoc.CodeInvalidTask,
			strings.Replace(editDoc, "- Status: pending\n\nBody.\n", "Body\n\nBreaks\n======\n", 1), "Breaks"},
		{"unclosed fence", editDoc, func(d *taskdoc.Document) error {
			_, _, err := d.EditTask("setup", taskdoc.Edit{Content: "Text.\n\n```\nopen"})
			return err
		}, taskdoc.CodeInvalidTask,
			strings.Replace(editDoc, "- Status: pending\n\nBody.\n", "Text.\n\n```\nopen\n", 1), "```"},
		{"heading too high, full parse", setext, func(d *taskdoc.Document) error {
			_, _, err := d.AddTask(taskdoc.NewTask{Title: "Two", Content: "# Too high"})
			return err
		}, taskdoc.CodeInvalidTask, setext + "\nTwo\n---\n\n# Too high\n", "# Too high"},
		{"body would become metadata", bodyList, func(d *taskdoc.Document) error {
			_, _, err := d.RemoveField("a", "Status")
			return err
		}, taskdoc.CodeEditChangedOutside, "## Tasks\n\n### A\n\n* Owner: named in the body\n", "### A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(tt.src))
			require.NoError(t, err)
			err = tt.do(doc)
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code, "%v", err)
			offset := strings.Index(tt.want, tt.excerpt)
			require.GreaterOrEqual(t, offset, 0, "the test's document lacks %q", tt.excerpt)
			line, column := taskdoc.Position([]byte(tt.want), offset)
			assert.Equal(t, offset, e.Offset, "offset")
			assert.Equal(t, line, e.Line, "line")
			assert.Equal(t, column, e.Column, "column")
			assert.Equal(t, tt.excerpt, e.Excerpt)
			assert.Contains(t, e.Error(), fmt.Sprintf("(line %d, column %d: %q)", line, column, tt.excerpt))
		})
	}
}

func TestErrorExcerptOfALongLine(t *testing.T) {
	long := "Intro " + strings.Repeat("word ", 40) + "\xff and more " + strings.Repeat("text ", 30)
	err := taskdoc.CheckUTF8([]byte("# A\n\n" + long + "\n"))
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 3, e.Line)
	assert.Contains(t, e.Excerpt, "\xff", "the excerpt shows the bad byte")
	assert.True(t, strings.HasPrefix(e.Excerpt, "…") && strings.HasSuffix(e.Excerpt, "…"), "%q", e.Excerpt)
	assert.LessOrEqual(t, len([]rune(e.Excerpt)), 62)
}
