package taskdoc_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestEditsKeepNeighboursApart holds minimal documents in which an edit's
// new lines used to merge with what follows them, changing the meaning
// of text the edit did not touch (or being refused for it).
func TestEditsKeepNeighboursApart(t *testing.T) {
	day := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, src string
		edit      func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error)
		want      string
		newBody   string // "" when the edit keeps the body
	}{{
		// The task's text would read as a lazy continuation of the new
		// item, and the setext heading after the task would be lost.
		name: "setext heading right after an empty task",
		src:  "## Tasks\n\n### A\nNext\n---\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("a", taskdoc.StatusBlocked)
		},
		want: "## Tasks\n\n### A\n\n- Status: blocked\n\nNext\n---\n",
	}, {
		// The new content's paragraph would take in the heading's text.
		name: "setext heading right after a fenced block",
		src:  "## Tasks\n\n### A\n```\ncode\n```\nNext\n---\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("a", taskdoc.Edit{Content: "plain"})
		},
		want:    "## Tasks\n\n### A\n\nplain\n\nNext\n---\n",
		newBody: "plain",
	}, {
		// The text before the removed task would take in the heading's.
		name: "removed task between text and a setext heading",
		src:  "## Tasks\n\n### B\ntext\n### A\nNext\n---\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return removed(d.RemoveTask("a")) },
		want: "## Tasks\n\n### B\ntext\n\nNext\n---\n",
	}, {
		// A "-" list in the body would join a new "-" metadata list.
		name: "body list with the same bullet",
		src:  "## Tasks\n\n### A\n\n- [ ] step one\n- [ ] step two\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("a", taskdoc.StatusInProgress)
		},
		want: "## Tasks\n\n### A\n\n* Status: in_progress\n\n- [ ] step one\n- [ ] step two\n",
	}, {
		name: "body list after bold fields",
		src:  "## Tasks\n\n### A\n\n**Status:** pending\n\n* step\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.Complete("a", "done", day)
		},
		want: "## Tasks\n\n### A\n\n**Status:** completed\n\n- Completed: 2026-03-04\n- Note: done\n\n* step\n",
	}, {
		// A line indented as far as the item's text would continue it.
		name: "indented body",
		src:  "## Tasks\n\n### A\n\n  indented text\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetField("a", "Owner", "me")
		},
		want: "## Tasks\n\n### A\n\n-  Owner: me\n\n  indented text\n",
	}, {
		name: "tab-indented body",
		src:  "## Tasks\n\n### A\n\n\tcode\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetField("a", "Owner", "me")
		},
		want: "## Tasks\n\n### A\n\n-    Owner: me\n\n\tcode\n",
	}, {
		// The first line of a setext heading may start with '#'; it was
		// taken for an ATX heading one line long.
		name: "setext heading whose text starts with #",
		src:  "## Tasks\n\n### A\n#5 ideas\n---\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("a", taskdoc.StatusBlocked)
		},
		want: "## Tasks\n\n### A\n\n- Status: blocked\n\n#5 ideas\n---\n",
	}, {
		// The document's line ending is a lone "\r"; the "\r" written
		// before a "\n" of the source must not read as one "\r\n".
		name: "mixed lone CR and LF",
		src:  "# D\r\r## Tasks\n\n### A\n\nNext\n---\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("a", taskdoc.StatusBlocked)
		},
		want: "# D\r\r## Tasks\n\n### A\n\r- Status: blocked\r\n\nNext\n---\n",
	}, {
		// Deleting the "\n"-ended item after a lone "\r" would join that
		// "\r" and the blank line's "\n", and Body would continue Status.
		name: "removed item between lone CR and LF",
		src:  "## Tasks\n\n### A\n\n- Status: pending\r- Note: x\n\nBody\n",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return d.RemoveField("a", "Note") },
		want: "## Tasks\n\n### A\n\n- Status: pending\r\n\nBody\n",
	}, {
		name: "lone CR line endings",
		src:  "# D\r## Tasks\r### A\r- Status: pending\r",
		edit: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.Complete("a", "done", day)
		},
		want: "# D\r## Tasks\r### A\r- Status: completed\r- Completed: 2026-03-04\r- Note: done\r",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(tt.src))
			require.NoError(t, err)
			nd, task, err := tt.edit(doc)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(nd.Source))
			after := assertEditProperty(t, doc.Source, nd, task, "a")
			was, _ := doc.Task("a")
			now, err := after.Task("a")
			if errors.Is(err, taskdoc.ErrTaskNotFound) {
				return // removed
			}
			require.NoError(t, err)
			if tt.newBody == "" {
				tt.newBody = was.Body
			}
			assert.Equal(t, tt.newBody, now.Body)
		})
	}
}

// TestFieldEditKeepsTheBody: removing the metadata list would make the
// body's own "Key: value" list the task's metadata.
func TestFieldEditKeepsTheBody(t *testing.T) {
	doc := mustParse(t, []byte("## Tasks\n\n### A\n\n- Status: pending\n\n* Owner: named in the body\n"))
	task, err := doc.Task("a")
	require.NoError(t, err)
	require.Equal(t, "* Owner: named in the body", task.Body)
	nd, task, err := doc.RemoveField("a", "Status")
	require.ErrorIs(t, err, taskdoc.ErrEditChangedOutside)
	require.Nil(t, nd)
	require.Nil(t, task)
}

// TestParseReadsLikeCommonMark holds documents that Parse used to read
// differently from a CommonMark reader such as GitHub.
func TestParseReadsLikeCommonMark(t *testing.T) {
	t.Run("lone CR ends a line", func(t *testing.T) {
		doc, err := taskdoc.Parse([]byte("# D\r## Tasks\r\r### A\r- Status: blocked\r"))
		require.NoError(t, err)
		require.Len(t, doc.Headings, 3)
		assert.Equal(t, "D", doc.Headings[0].Text)
		assert.Equal(t, "\r", doc.Newline)
		task, err := doc.Task("a")
		require.NoError(t, err)
		assert.Equal(t, taskdoc.StatusBlocked, task.Status)
		assert.Equal(t, 4, task.Line)
	})
	t.Run("last task before the next section", func(t *testing.T) {
		// The list under "## Notes" looks like the reference server's
		// Completed/Note list; it was read as the empty task's.
		doc, err := taskdoc.Parse([]byte("## Tasks\n\n### A\n\n## Notes\n\n* Note: not a task's\n"))
		require.NoError(t, err)
		task, err := doc.Task("a")
		require.NoError(t, err)
		assert.Empty(t, task.Fields)
		assert.Equal(t, taskdoc.Span{Start: 10, End: 17}, task.Span)
	})
	t.Run("line breaks in a setext heading", func(t *testing.T) {
		// GitHub's anchor drops a heading's line break (a control
		// character); inside a code span the break reads as a space.
		doc, err := taskdoc.Parse([]byte("Foo\r\nbar\r\n---\r\n\n`a\r\nb`\n===\n"))
		require.NoError(t, err)
		require.Len(t, doc.Headings, 2)
		assert.Equal(t, "Foo bar", doc.Headings[0].Text)
		assert.Equal(t, "foobar", doc.Headings[0].Slug)
		assert.Equal(t, "a b", doc.Headings[1].Text)
		assert.Equal(t, "a-b", doc.Headings[1].Slug)
	})
	t.Run("space next to raw HTML at an end of a heading", func(t *testing.T) {
		// GitHub's anchor is made from the rendered text, untrimmed.
		doc, err := taskdoc.Parse([]byte("## Foo <!-- c -->\n## <img src=x> Bar\n## Baz &#32;\n## a <b>b</b>\n"))
		require.NoError(t, err)
		var texts, slugs []string
		for _, h := range doc.Headings {
			texts, slugs = append(texts, h.Text), append(slugs, h.Slug)
		}
		assert.Equal(t, []string{"Foo", "Bar", "Baz", "a b"}, texts)
		assert.Equal(t, []string{"foo-", "-bar", "baz--", "a-b"}, slugs)
	})
	t.Run("empty heading after a tab in a list item", func(t *testing.T) {
		// goldmark places it past the tab's columns, at the next line
		// or beyond the end of the input.
		for _, src := range []string{"*\n\t#\n", "*\n\t#"} {
			doc, err := taskdoc.Parse([]byte(src))
			require.NoError(t, err, "%q", src)
			require.Len(t, doc.Headings, 1)
			assert.Equal(t, taskdoc.Span{Start: 2, End: len(src)}, doc.Headings[0].Span, "%q", src)
			assert.Equal(t, 2, doc.Headings[0].Line)
		}
	})
	t.Run("empty list item ended by CRLF", func(t *testing.T) {
		// goldmark read "*\r\n" as text continuing the item above.
		doc, err := taskdoc.Parse([]byte("## Tasks\r\n\r\n### A\r\n\r\n* Note: x\r\n*\r\n"))
		require.NoError(t, err)
		task, err := doc.Task("a")
		require.NoError(t, err)
		note, _ := task.Field("Note")
		assert.Equal(t, "x", note)
	})
	t.Run("setext heading whose text starts with #", func(t *testing.T) {
		doc, err := taskdoc.Parse([]byte("# D\n#5 ideas\n---\n"))
		require.NoError(t, err)
		require.Len(t, doc.Headings, 2)
		assert.Equal(t, taskdoc.Heading{Level: 2, Text: "#5 ideas", Slug: "5-ideas", Line: 2,
			Span: taskdoc.Span{Start: 4, End: 17}, TopLevel: true}, doc.Headings[1])
	})
}

// TestThematicBreakThatLooksLikeFrontMatter: a document opening with
// "---" has no front matter until a line closes it, so an edit that
// writes such a line would turn everything above it into front matter.
func TestThematicBreakThatLooksLikeFrontMatter(t *testing.T) {
	src := "---\n\n# D\n\n## Tasks\n\n### A\n\n- Status: pending\n"
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(t, err)
	require.Nil(t, doc.FrontMatter.Raw)

	_, _, err = doc.AddTask(taskdoc.NewTask{Title: "B", Content: "x\n\n---"})
	require.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	_, _, err = doc.EditTask("a", taskdoc.Edit{Content: "---\nk: v"})
	require.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))

	nd, task, err := doc.SetStatus("a", taskdoc.StatusBlocked)
	require.NoError(t, err)
	assert.Equal(t, "---\n\n# D\n\n## Tasks\n\n### A\n\n- Status: blocked\n", string(nd.Source))
	assertEditProperty(t, doc.Source, nd, task, "a")
}

func mustParse(t *testing.T, src []byte) *taskdoc.Document {
	t.Helper()
	doc, err := taskdoc.Parse(src)
	require.NoError(t, err)
	return doc
}
