package taskdoc_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestCrossLinks pins which link reference labels tie a task to text
// outside it. Spans are written as the text they cover, and found in the
// source by their place: the nth occurrence of that text.
func TestCrossLinks(t *testing.T) {
	type at struct {
		text string
		nth  int // 0 is the first occurrence
	}
	type want struct {
		slug, label string
		defines     bool
		span        at
		outside     at
	}
	tests := []struct {
		name string
		src  string
		want []want
	}{
		{
			name: "no definitions anywhere",
			src:  "# D\n\n## Tasks\n\n### A\n\nsee [x] and [y][x]\n",
		},
		{
			name: "a task uses a definition outside it",
			src:  "# D\n\n[spec]: /s.md\n\n## Tasks\n\n### A\n\nread [the spec][spec]\n\n### B\n\nnothing\n",
			want: []want{{slug: "a", label: "spec", span: at{"[spec]", 1}, outside: at{"[spec]", 0}}},
		},
		{
			name: "a task defines a label used outside it",
			src:  "# D\n\nsee [Spec]\n\n## Tasks\n\n### A\n\n[spec]: /s.md\n\n### B\n\nalso [SPEC]\n",
			want: []want{
				{slug: "a", label: "spec", defines: true, span: at{"[spec]", 0}, outside: at{"[Spec]", 0}},
				{slug: "b", label: "SPEC", span: at{"[SPEC]", 0}, outside: at{"[spec]", 0}},
			},
		},
		{
			name: "a task defines a label another task defines",
			src:  "# D\n\n## Tasks\n\n### A\n\n[x]: /a\n\n### B\n\n[x]: /b\n",
			want: []want{
				{slug: "a", label: "x", defines: true, span: at{"[x]", 0}, outside: at{"[x]", 1}},
				{slug: "b", label: "x", defines: true, span: at{"[x]", 1}, outside: at{"[x]", 0}},
			},
		},
		{
			name: "definitions and uses inside one task are its own",
			src:  "# D\n\n[other]: /o\n\n## Tasks\n\n### A\n\nsee [x]\n\n[x]: /a\n\n### B\n\nplain\n",
		},
		{
			name: "a use matched across case and spaces, written as the task writes it",
			src:  "# D\n\n## Tasks\n\n### A\n\nsee [The   Spec]\n\n## Notes\n\n[the spec]: /s\n",
			want: []want{{slug: "a", label: "The Spec", span: at{"[The   Spec]", 0}, outside: at{"[the spec]", 0}}},
		},
		{
			name: "a label in a definition under a list item",
			src:  "# D\n\n## Tasks\n\n### A\n\n- [x]: /a\n\n## Notes\n\nsee [x]\n",
			want: []want{{slug: "a", label: "x", defines: true, span: at{"[x]", 0}, outside: at{"[x]", 1}}},
		},
		{
			name: "escaped brackets are no label",
			src:  "# D\n\n[x]: /a\n\n## Tasks\n\n### A\n\nnot \\[x\\] a link\n",
		},
		{
			name: "CRLF and front matter",
			src:  "---\na: 1\n---\r\n# D\r\n\r\n## Tasks\r\n\r\n### A\r\n\r\nuse [y]\r\n\r\n### B\r\n\r\n[y]: /y\r\n",
			want: []want{
				{slug: "a", label: "y", span: at{"[y]", 0}, outside: at{"[y]", 1}},
				{slug: "b", label: "y", defines: true, span: at{"[y]", 1}, outside: at{"[y]", 0}},
			},
		},
	}
	find := func(t *testing.T, src string, a at) taskdoc.Span {
		t.Helper()
		from := 0
		for range a.nth {
			i := strings.Index(src[from:], a.text)
			require.GreaterOrEqual(t, i, 0, "%q occurs fewer than %d times", a.text, a.nth+1)
			from += i + len(a.text)
		}
		i := strings.Index(src[from:], a.text)
		require.GreaterOrEqual(t, i, 0, "no %q", a.text)
		return taskdoc.Span{Start: from + i, End: from + i + len(a.text)}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(tt.src))
			require.NoError(t, err)
			var wants []taskdoc.CrossLink
			for _, w := range tt.want {
				wants = append(wants, taskdoc.CrossLink{Slug: w.slug, Label: w.label, Defines: w.defines,
					Span: find(t, tt.src, w.span), Outside: find(t, tt.src, w.outside)})
			}
			assert.Equal(t, wants, doc.CrossLinks())
		})
	}
}

// TestCrossLinksAfterEdit reads the labels of a document an edit made,
// which is built from the old one and a parse of the edited task.
func TestCrossLinksAfterEdit(t *testing.T) {
	doc, err := taskdoc.Parse([]byte("# D\n\n[x]: /x\n\n## Tasks\n\n### A\n\nplain\n"))
	require.NoError(t, err)
	assert.Empty(t, doc.CrossLinks())
	doc, _, err = doc.EditTask("a", taskdoc.Edit{Content: "see [x]"})
	require.NoError(t, err)
	links := doc.CrossLinks()
	require.Len(t, links, 1)
	assert.Equal(t, "[x]", string(doc.Source[links[0].Span.Start:links[0].Span.End]))
	assert.Equal(t, "[x]", string(doc.Source[links[0].Outside.Start:links[0].Outside.End]))
}
