package taskdoc_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// deepList is a bullet list nested depth levels deep, each level indented
// two more spaces: goldmark's time grows with the cube of the depth (about
// 30 seconds at 2,000 levels).
func deepList(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(" ", 2*i) + "- item\n")
	}
	return b.String()
}

func deepQuote(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat("> ", i+1) + "quote\n")
	}
	return b.String()
}

func definitions(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[label %d]: /url/%d\n", i, i)
	}
	return b.String()
}

// subheadings is n headings "#### H1", "#### H2", ...
func subheadings(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "#### H%d\n", i+1)
	}
	return b.String()
}

// headingMarkup is a heading whose text is n emphasis delimiters, which
// goldmark's inline parser reads in time quadratic in n.
func headingMarkup(n int) string {
	return "## " + strings.Repeat("*a_", n/2) + "\n"
}

// TestLimitsRefusePathologicalDocuments: documents past a documented
// limit are DOCUMENT_TOO_COMPLEX at once, pointing at the line where the
// limit is passed; documents at the limit parse.
func TestLimitsRefusePathologicalDocuments(t *testing.T) {
	head := "# D\n\n"
	tasks := "## Tasks\n\n### A\n\n- Status: pending\n"
	tests := []struct {
		name string
		src  string
		line int // 0: the document parses
	}{
		{"list at the limit", head + deepList(taskdoc.MaxNesting) + "\n" + tasks, 0},
		{"list past the limit", head + deepList(taskdoc.MaxNesting+1) + "\n" + tasks, 3 + taskdoc.MaxNesting},
		{"2,000-deep list", head + deepList(2000) + "\n" + tasks, 3 + taskdoc.MaxNesting},
		{"one-line list", head + strings.Repeat("- ", 2000) + "x\n\n" + tasks, 3},
		{"quotes at the limit", head + deepQuote(taskdoc.MaxNesting) + "\n" + tasks, 0},
		{"2,000-deep quotes", head + deepQuote(2000) + "\n" + tasks, 3 + taskdoc.MaxNesting},
		{"a deep list in a task", head + tasks + "\n" + deepList(2000), 9 + taskdoc.MaxNesting},
		{"definitions at the limit", head + definitions(taskdoc.MaxDefinitions) + "\n" + tasks, 0},
		{"definitions past the limit", head + definitions(taskdoc.MaxDefinitions+1) + "\n" + tasks, 3 + taskdoc.MaxDefinitions},
		{"deep indentation without markers", head + strings.Repeat(" ", 1000) + "code\n\n" + tasks, 0},
		{"headings at the limit", head + subheadings(taskdoc.MaxHeadings-3) + "\n" + tasks, 0},
		{"headings past the limit", head + subheadings(taskdoc.MaxHeadings) + "\n" + tasks, 2 + taskdoc.MaxHeadings},
		{"setext headings at the limit", head + strings.Repeat("t\n-\n", taskdoc.MaxHeadings-3) + "\n" + tasks, 0},
		{"setext headings past the limit", head + strings.Repeat("t\n-\n", taskdoc.MaxHeadings) + "\n" + tasks, 2 + 2*taskdoc.MaxHeadings},
		{"setext headings of =", head + strings.Repeat("t\n===\n", taskdoc.MaxHeadings) + "\n" + tasks, 2 + 2*taskdoc.MaxHeadings},
		{"headings in list items", head + strings.Repeat("- # t\n", taskdoc.MaxHeadings) + "\n" + tasks, 2 + taskdoc.MaxHeadings},
		{"headings in block quotes", head + strings.Repeat("> t\n> ---\n", taskdoc.MaxHeadings) + "\n" + tasks, 2 + 2*taskdoc.MaxHeadings},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc *taskdoc.Document
			var err error
			elapsed := fastest(func() { doc, err = taskdoc.Parse([]byte(tt.src)) })
			if tt.line == 0 {
				require.NoError(t, err)
				require.Len(t, doc.Tasks, 1)
				return
			}
			requireTypedError(t, err, nil)
			require.Nil(t, doc)
			require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err))
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.line, e.Line, "%v", err)
			assertAtOnce(t, elapsed, len(tt.src), "refusing")
		})
	}
}

// TestHeadingMarkupLimit: a heading with more inline markup than
// MaxHeadingMarkup is read as plain text, at once; one at the limit is
// read as Markdown.
func TestHeadingMarkupLimit(t *testing.T) {
	at := "## " + strings.Repeat("*a* ", taskdoc.MaxHeadingMarkup/2) + "\n"
	doc := mustParse(t, []byte(at))
	require.Len(t, doc.Headings, 1)
	assert.NotContains(t, doc.Headings[0].Text, "*", "read as Markdown")

	for _, n := range []int{taskdoc.MaxHeadingMarkup + 2, 100000} {
		src := headingMarkup(n)
		var doc *taskdoc.Document
		elapsed := fastest(func() { doc = mustParse(t, []byte(src)) })
		require.Len(t, doc.Headings, 1)
		assert.Equal(t, strings.TrimSpace(src[3:]), doc.Headings[0].Text, "read as plain text")
		assert.Equal(t, taskdoc.Slug(doc.Headings[0].Text), doc.Headings[0].Slug)
		assertAtOnce(t, elapsed, len(src), fmt.Sprintf("reading %d characters of markup", n))
	}
}

// TestEditsRespectLimits: an edit whose result would pass a limit is
// refused with DOCUMENT_TOO_COMPLEX, so that every Document an edit returns
// parses; an edit that keeps a document at the limit is accepted.
func TestEditsRespectLimits(t *testing.T) {
	atLimit := mustParse(t, []byte("# D\n\n"+definitions(taskdoc.MaxDefinitions-1)+"\n## Tasks\n\n### A\n\n[own]: /a\n\n### B\n"))
	doc := mustParse(t, []byte("# D\n\n## Tasks\n\n### A\n\n- Status: pending\n"))
	// "# D", the subheadings, "## Tasks", "### A" and "### B".
	atHeadings := mustParse(t, []byte("# D\n\n"+subheadings(taskdoc.MaxHeadings-4)+"\n## Tasks\n\n### A\n\n### B\n"))
	// The task's Status field is the last list item, "### B" the last line.
	atItems := mustParse(t, []byte("# D\n\n"+strings.Repeat("- T\n", taskdoc.MaxListItems-1)+
		"\n## Tasks\n\n### A\n\n- Status: pending\n\n### B\n"))
	atLines := mustParse(t, []byte("# D\n"+strings.Repeat("\n", taskdoc.MaxLines-6)+"## Tasks\n\n### A\n\n### B\n"))
	tests := []struct {
		name    string
		doc     *taskdoc.Document
		edit    func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error)
		refused bool
		slug    string
	}{
		{"a deep list in new content", doc, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.AddTask(taskdoc.NewTask{Title: "B", Content: deepList(taskdoc.MaxNesting + 1)})
		}, true, "b"},
		{"deep quotes in edited content", doc, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("a", taskdoc.Edit{Content: deepQuote(500)})
		}, true, "a"},
		{"heading markup in a title", doc, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("a", taskdoc.Edit{Title: "A " + strings.Repeat("*a_", 20000)})
		}, false, "a"},
		{"a list at the limit", doc, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.AddTask(taskdoc.NewTask{Title: "B", Content: deepList(taskdoc.MaxNesting)})
		}, false, "b"},
		{"one definition too many", atLimit, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.AddTask(taskdoc.NewTask{Title: "C", Content: "[more]: /m"})
		}, true, "c"},
		{"a definition for one removed", atLimit, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("a", taskdoc.Edit{Content: "[other]: /o"})
		}, false, "a"},
		{"a task removed at the limit", atLimit, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask("b"))
		}, false, "b"},
		{"one heading too many", atHeadings, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.AddTask(taskdoc.NewTask{Title: "C"})
		}, true, "c"},
		{"a heading in edited content", atHeadings, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("a", taskdoc.Edit{Content: "#### More"})
		}, true, "a"},
		{"a title edited at the heading limit", atHeadings, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("a", taskdoc.Edit{Title: "A2"})
		}, false, "a"},
		{"a status set at the heading limit", atHeadings, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("b", taskdoc.StatusBlocked)
		}, false, "b"},
		{"a task removed at the heading limit", atHeadings, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask("b"))
		}, false, "b"},
		{"one list item too many", atItems, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("b", taskdoc.StatusBlocked)
		}, true, "b"},
		{"list items in new content", atItems, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.AddTask(taskdoc.NewTask{Title: "C", Content: "- one\n- two"})
		}, true, "c"},
		{"a status set at the item limit", atItems, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("a", taskdoc.StatusBlocked)
		}, false, "a"},
		{"one line too many", atLines, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.AddTask(taskdoc.NewTask{Title: "C"})
		}, true, "c"},
		{"a title edited at the line limit", atLines, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("a", taskdoc.Edit{Title: "A2"})
		}, false, "a"},
		{"a task removed at the line limit", atLines, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask("b"))
		}, false, "b"},
		{"a status set at the limit", atLimit, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("a", taskdoc.StatusBlocked)
		}, false, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nd, task, err := tt.edit(tt.doc)
			if !tt.refused {
				require.NoError(t, err)
				assertEditProperty(t, tt.doc.Source, nd, task, tt.slug)
				return
			}
			requireTypedError(t, err, nd)
			require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err))
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.slug, e.Slug)
			assert.Positive(t, e.Line, "%v", err)
		})
	}
}

// assertAtOnce asserts that elapsed, the time a pathological document of
// size bytes took, is no more than twice what a plain document of the same
// size takes to parse, measured in the same run (plus 20 ms for the
// scheduler): the limits exist because without them the time grows with
// the square or the cube of the nesting (seconds to minutes), and a bound
// relative to the machine holds under the race detector and a loaded CI
// machine where a fixed one does not.
func assertAtOnce(t *testing.T, elapsed time.Duration, size int, what string) {
	t.Helper()
	line := strings.Repeat("word ", 15) + "\n"
	plain := []byte("# D\n\n" + strings.Repeat(line, max(1, size/len(line))) + "\n## Tasks\n\n### A\n")
	floor := fastest(func() { _, _ = taskdoc.Parse(plain) })
	assert.Less(t, elapsed, 2*floor+20*time.Millisecond,
		"%s took %v; a plain document of %d bytes parses in %v", what, elapsed, size, floor)
}

// fastest runs fn three times and returns the shortest run: a time limit
// meant to catch a quadratic parse must not fail because the machine was
// busy with other tests for one run.
func fastest(fn func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		fn()
		best = min(best, time.Since(start))
	}
	return best
}
