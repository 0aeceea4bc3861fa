package taskdoc_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/taskdoc"
)

// corpusDoc is a generated document with one spec example in the body of
// one task (the host) and a plain task beside it (the neighbour).
type corpusDoc struct {
	src       []byte
	example   taskdoc.Span // where the example's bytes are
	host      string       // slug of the task holding the example
	neighbour string       // slug of the task the test edits
	// headings are the offsets where the generated headings start; the
	// example may swallow some of them.
	headings []int
}

// corpusPlacements put the example before the edited task and after it.
var corpusPlacements = []struct {
	name  string
	build func(example string) corpusDoc
}{
	{"before", func(ex string) corpusDoc { return buildCorpusDoc(ex, true) }},
	{"after", func(ex string) corpusDoc { return buildCorpusDoc(ex, false) }},
}

func buildCorpusDoc(example string, inFirst bool) corpusDoc {
	var b strings.Builder
	c := corpusDoc{host: "second", neighbour: "first"}
	if inFirst {
		c.host, c.neighbour = "first", "second"
	}
	heading := func(s string) {
		c.headings = append(c.headings, b.Len())
		b.WriteString(s)
	}
	body := func(isHost bool) {
		b.WriteString("- Status: pending\n\n")
		if !isHost {
			b.WriteString("body\n\n")
			return
		}
		c.example.Start = b.Len()
		b.WriteString(example)
		c.example.End = b.Len()
		b.WriteString("\n")
	}
	heading("# Doc\n")
	b.WriteString("\n")
	heading("## Tasks\n")
	b.WriteString("\n")
	heading("### First\n")
	b.WriteString("\n")
	body(inFirst)
	heading("### Second\n")
	b.WriteString("\n")
	body(!inFirst)
	heading("## Notes\n")
	b.WriteString("\nafter\n")
	c.src = []byte(b.String())
	return c
}

// Categories of examples. The first four keep the outline of the generated
// document; the others change it on purpose (the example holds a heading, or
// opens a block that swallows the headings after it).
const (
	catIntact        = "intact"
	catBodyHeadings  = "intact: headings inside the task body"
	catLinkRefs      = "intact: link reference definitions"
	catJoinsMetadata = "intact: continues the metadata list"
	catSwallows      = "changed: swallows a following heading"
	catEndsSection   = "changed: ends the Tasks section"
	catAddsTasks     = "changed: adds tasks"
)

func classifyCorpusDoc(doc *taskdoc.Document, c corpusDoc, example string) string {
	starts := map[int]bool{}
	inBody := false
	for _, h := range doc.Headings {
		starts[h.Span.Start] = true
		if h.Span.Start >= c.example.Start && h.Span.Start < c.example.End {
			inBody = true
		}
	}
	for _, at := range c.headings {
		if !starts[at] {
			return catSwallows
		}
	}
	switch {
	case doc.TasksSpan.End < c.example.End:
		return catEndsSection
	case len(doc.Tasks) != 2:
		return catAddsTasks
	case inBody:
		return catBodyHeadings
	}
	host, err := doc.Task(c.host)
	if err == nil && len(host.Fields) != 1 {
		return catJoinsMetadata
	}
	if definesLinkReferences(example) {
		return catLinkRefs
	}
	return catIntact
}

// definesLinkReferences reports whether goldmark finds a link reference
// definition in md: such an example changes how links elsewhere in the
// document resolve, though not the outline.
func definesLinkReferences(md string) bool {
	ctx := parser.NewContext()
	goldmark.New().Parser().Parse(text.NewReader([]byte(md)), parser.WithContext(ctx))
	return len(ctx.References()) > 0
}

// corpusEdits are the neighbour edits run on every generated document.
var corpusEdits = []struct {
	name   string
	apply  func(d *taskdoc.Document, slug string) (*taskdoc.Document, *taskdoc.Task, error)
	status taskdoc.Status
}{
	{"set-status", func(d *taskdoc.Document, slug string) (*taskdoc.Document, *taskdoc.Task, error) {
		return d.SetStatus(slug, taskdoc.StatusInProgress)
	}, taskdoc.StatusInProgress},
	{"complete", func(d *taskdoc.Document, slug string) (*taskdoc.Document, *taskdoc.Task, error) {
		return d.Complete(slug, "done with the neighbour", fuzzDate)
	}, taskdoc.StatusCompleted},
}

// corpusCost counts how the corpus edits were decided: op 0 the
// neighbour's edits, op 1 the host's.
var corpusCost editCost

func TestCommonMarkCorpus(t *testing.T) {
	corpusCost = editCost{}
	defer corpusCost.report(t)
	examples := taskdoc.SpecExamples(t)
	for _, place := range corpusPlacements {
		counts := map[string]int{}
		members := map[string][]int{}
		for _, ex := range examples {
			name := fmt.Sprintf("%s/example-%03d", place.name, ex.Example)
			c := place.build(ex.Markdown)
			var category string
			t.Run(name, func(t *testing.T) {
				category = checkCorpusExample(t, c, ex.Markdown)
			})
			if category == "" {
				category = "failed: see the subtest"
			}
			counts[category]++
			members[category] = append(members[category], ex.Example)
		}
		logCorpusCategories(t, place.name, counts, members)
		assert.GreaterOrEqual(t, counts[catIntact], 500,
			"most spec examples are plain body text; a drop means the outline is misread")
	}
}

// checkCorpusExample runs every check on one generated document and returns
// its category.
func checkCorpusExample(t *testing.T, c corpusDoc, example string) string {
	orig := string(c.src)
	doc, err := taskdoc.Parse(c.src)
	require.NoError(t, err, "parse:\n%s", c.src)
	require.Equal(t, orig, string(c.src), "Parse modified its input")
	require.Equal(t, orig, string(doc.Source), "Source differs from the input")
	category := classifyCorpusDoc(doc, c, example)
	intact := strings.HasPrefix(category, "intact")
	if intact {
		requireTasks(t, doc, "first", "second")
		host, err := doc.Task(c.host)
		require.NoError(t, err)
		require.True(t, host.Span.Start <= c.example.Start && c.example.End <= host.Span.End,
			"example [%d,%d) is not inside the span %v of its task", c.example.Start, c.example.End, host.Span)
	}
	for _, edit := range corpusEdits {
		t.Run(edit.name, func(t *testing.T) {
			checkNeighbourEdit(t, doc, c, example, intact, edit.apply, edit.status)
		})
	}
	t.Run("host-set-status", func(t *testing.T) {
		checkHostEdit(t, doc, c, example, intact)
	})
	return category
}

// checkNeighbourEdit edits the task beside the example. When the outline is
// intact the edit must succeed; when the example changed it, the edit may
// instead fail with a typed error. Either way no byte outside the edited
// task changes, so the example survives byte for byte.
func checkNeighbourEdit(t *testing.T, doc *taskdoc.Document, c corpusDoc, example string, intact bool,
	apply func(*taskdoc.Document, string) (*taskdoc.Document, *taskdoc.Task, error), status taskdoc.Status) {
	var nd *taskdoc.Document
	var task *taskdoc.Task
	var err error
	full, _ := parsecount.During(func() { nd, task, err = apply(doc, c.neighbour) })
	corpusCost.add(0, full, err)
	if !intact && err != nil {
		requireTypedError(t, err, nd)
		return
	}
	require.NoError(t, err, "edit of %q:\n%s", c.neighbour, c.src)
	out := nd.Source
	neighbour, err := doc.Task(c.neighbour)
	require.NoError(t, err)
	after := checkSplice(t, doc, out, neighbour.Span)
	assertEditProperty(t, c.src, nd, task, c.neighbour)
	requireTaskStatus(t, after, c.neighbour, status)
	delta := len(out) - len(c.src)
	at := c.example.Start
	switch {
	case c.example.End <= neighbour.Span.Start:
	case c.example.Start >= neighbour.Span.End:
		at += delta
	default:
		require.Fail(t, "the example lies inside the edited task", "span %v, example %v", neighbour.Span, c.example)
	}
	require.Equal(t, example, string(out[at:at+len(example)]), "example bytes changed")
	if intact {
		requireTasks(t, after, "first", "second")
		host, err := after.Task(c.host)
		require.NoError(t, err)
		require.Contains(t, string(out[host.Span.Start:host.Span.End]), example)
	}
}

// checkHostEdit changes the status of the task whose body is the example:
// a metadata edit rewrites the metadata, never the body.
func checkHostEdit(t *testing.T, doc *taskdoc.Document, c corpusDoc, example string, intact bool) {
	var nd *taskdoc.Document
	var task *taskdoc.Task
	var err error
	full, _ := parsecount.During(func() { nd, task, err = doc.SetStatus(c.host, taskdoc.StatusBlocked) })
	corpusCost.add(1, full, err)
	if !intact && err != nil {
		requireTypedError(t, err, nd)
		return
	}
	require.NoError(t, err, "edit of %q:\n%s", c.host, c.src)
	out := nd.Source
	host, err := doc.Task(c.host)
	require.NoError(t, err)
	after := checkSplice(t, doc, out, host.Span)
	assertEditProperty(t, c.src, nd, task, c.host)
	requireTaskStatus(t, after, c.host, taskdoc.StatusBlocked)
	if intact {
		at := c.example.Start + len(out) - len(c.src)
		require.Equal(t, example, string(out[at:at+len(example)]),
			"the body changed when only the status was set:\n%s", out)
	}
}

func requireTasks(t *testing.T, doc *taskdoc.Document, slugs ...string) {
	t.Helper()
	var got []string
	for _, task := range doc.Tasks {
		got = append(got, task.Slug)
	}
	require.Equal(t, slugs, got)
}

func logCorpusCategories(t *testing.T, place string, counts map[string]int, members map[string][]int) {
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		list := ""
		if name != catIntact {
			list = fmt.Sprint(members[name])
		}
		t.Logf("example %s the edited task: %-42s %4d %s", place, name, counts[name], list)
	}
}
