package taskdoc_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/taskmd/taskmd/taskdoc"
)

// renderer is full CommonMark, inlines and all, as a reader of the
// document sees it. taskdoc never renders; the tests do, to check that an
// edit keeps the meaning of every block outside its task.
var renderer = goldmark.New()

// renderBlocks renders each top-level block of src's Markdown (after its
// front matter) on its own, and returns those starting before from and
// those starting at or after to (offsets of src).
func renderBlocks(t testing.TB, src []byte, fm []byte, from, to int) (before, after []string) {
	t.Helper()
	body := 0
	if fm != nil {
		body = bytes.Index(src, fm) + len(fm)
	}
	md := src[body:]
	root := renderer.Parser().Parse(text.NewReader(md))
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		var b bytes.Buffer
		require.NoError(t, renderer.Renderer().Render(&b, md, n))
		switch at := body + blockStart(n); {
		case at < from:
			before = append(before, b.String())
		case at >= to:
			after = append(after, b.String())
		}
	}
	return before, after
}

// blockStart is the offset of a block's first line in the source parsed.
func blockStart(n ast.Node) int {
	if l := n.Lines(); l != nil && l.Len() > 0 {
		return l.At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeBlock {
			return blockStart(c)
		}
	}
	return max(n.Pos(), 0)
}

// assertSameRendering checks that every block outside the task an edit
// changed (slug; an added task is found in after) renders to the same
// HTML before and after the edit, with the link reference definitions of
// the whole document in effect.
func assertSameRendering(t testing.TB, before, after []byte, slug string) {
	t.Helper()
	old := mustParseTB(t, before)
	got := mustParseTB(t, after)
	delta := len(after) - len(before)
	var oldWin, newWin taskdoc.Span
	if task, err := old.Task(slug); err == nil {
		oldWin = task.Span
		newWin = taskdoc.Span{Start: task.Span.Start, End: task.Span.End + delta}
	} else {
		added, err := got.Task(slug)
		require.NoError(t, err, "task %q is in neither document", slug)
		start := len(before) - (len(after) - added.Span.End)
		oldWin = taskdoc.Span{Start: start, End: start}
		newWin = taskdoc.Span{Start: start, End: added.Span.End}
	}
	wasBefore, wasAfter := renderBlocks(t, before, old.FrontMatter.Raw, oldWin.Start, oldWin.End)
	isBefore, isAfter := renderBlocks(t, after, got.FrontMatter.Raw, newWin.Start, newWin.End)
	require.Equal(t, wasBefore, isBefore, "blocks before the edited task render differently:\n--- before\n%s\n--- after\n%s", before, after)
	require.Equal(t, wasAfter, isAfter, "blocks after the edited task render differently:\n--- before\n%s\n--- after\n%s", before, after)
}

func mustParseTB(t testing.TB, src []byte) *taskdoc.Document {
	t.Helper()
	doc, err := taskdoc.Parse(src)
	require.NoError(t, err, "%s", src)
	return doc
}

var renderLabels = []string{"a", "B", "spec", "my spec", "Spec"}

// renderUse is a reference to a label in one of its forms.
func renderUse(r *rand.Rand) string {
	l := renderLabels[r.IntN(len(renderLabels))]
	switch r.IntN(4) {
	case 0:
		return "[text][" + l + "]"
	case 1:
		return "[" + l + "][]"
	case 2:
		return "![alt][" + l + "]"
	}
	return "[" + l + "]"
}

// renderDef is a definition of a label, its own paragraph.
func renderDef(r *rand.Rand) string {
	l := renderLabels[r.IntN(len(renderLabels))]
	if r.IntN(3) == 0 {
		return fmt.Sprintf("[%s]: /u%d \"t%d\"", l, r.IntN(3), r.IntN(2))
	}
	return fmt.Sprintf("[%s]: /u%d", l, r.IntN(3))
}

// renderPiece is a paragraph: text with uses, definitions, or both.
func renderPiece(r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return renderDef(r)
	case 1:
		return renderDef(r) + "\n" + renderDef(r)
	case 2:
		return "> Quoted " + renderUse(r) + "."
	case 3:
		return "- item " + renderUse(r)
	}
	return "See " + renderUse(r) + " and " + renderUse(r) + "."
}

func genRenderDoc(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("# Doc\n\n")
	for range r.IntN(3) {
		b.WriteString(renderPiece(r) + "\n\n")
	}
	b.WriteString("## Tasks\n\n")
	for k := range 1 + r.IntN(3) {
		fmt.Fprintf(&b, "### Task %d\n\n- Status: pending\n\n", k)
		for range r.IntN(3) {
			b.WriteString(renderPiece(r) + "\n\n")
		}
	}
	if r.IntN(2) == 0 {
		b.WriteString("## Notes\n\n")
		for range 1 + r.IntN(2) {
			b.WriteString(renderPiece(r) + "\n\n")
		}
	}
	s := b.String()
	if r.IntN(4) == 0 {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

// renderEdit is one edit of the property test, and the task it changes.
type renderEdit struct {
	name  string
	slug  string
	apply func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error)
}

func chooseRenderEdit(r *rand.Rand, doc *taskdoc.Document) renderEdit {
	slug := doc.Tasks[r.IntN(len(doc.Tasks))].Slug
	content := renderPiece(r) + "\n\n" + renderPiece(r)
	switch r.IntN(6) {
	case 0:
		return renderEdit{"add " + content, "new", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.AddTask(taskdoc.NewTask{Title: "New", Content: content})
		}}
	case 1:
		return renderEdit{"add after " + slug + ": " + content, "new", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.AddTask(taskdoc.NewTask{Title: "New", Content: content, After: slug})
		}}
	case 2:
		return renderEdit{"edit " + slug + ": " + content, slug, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask(slug, taskdoc.Edit{Content: content})
		}}
	case 3:
		return renderEdit{"remove " + slug, slug, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask(slug))
		}}
	case 4:
		value := renderDef(r)
		return renderEdit{"field " + slug + ": " + value, slug, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetField(slug, "Ref", value)
		}}
	}
	note := "done, see " + renderUse(r)
	return renderEdit{"complete " + slug + ": " + note, slug, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
		return d.Complete(slug, note, fuzzDate)
	}}
}

// TestEditsKeepRenderingOutsideTheTask: on generated documents with link
// reference definitions and uses inside and outside tasks, every edit the
// package accepts leaves every block outside the edited task rendering to
// the same HTML (full CommonMark, every definition in effect), and returns
// the Document a parse gives; every refusal is a typed error.
func TestEditsKeepRenderingOutsideTheTask(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	docs := 600
	if testing.Short() {
		docs = 100
	}
	accepted, refused := 0, 0
	for n := range docs {
		src := genRenderDoc(r)
		doc := mustParseTB(t, []byte(src))
		for range 4 {
			e := chooseRenderEdit(r, doc)
			nd, task, err := e.apply(doc)
			if err != nil {
				requireTypedError(t, err, nd)
				refused++
				continue
			}
			accepted++
			ok := t.Run(fmt.Sprint(n), func(t *testing.T) {
				t.Logf("%s\n%q", e.name, src)
				assertSameRendering(t, doc.Source, nd.Source, e.slug)
				assertEditProperty(t, doc.Source, nd, task, e.slug)
			})
			if !ok {
				t.FailNow()
			}
		}
	}
	t.Logf("%d edits accepted, %d refused", accepted, refused)
	require.Greater(t, accepted, refused, "most edits leave the labels used outside alone")
	require.Positive(t, refused, "no edit touched a label used outside its task")
}
