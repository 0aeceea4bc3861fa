package taskdoc

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/parsecount"
)

// requireReparse checks that d.Reparse(src) is exactly Parse(src): the same
// Document, unexported fields too, or the same error. It reports whether
// the reparse was local (no full parse).
func requireReparse(t testing.TB, d *Document, src []byte, msg string) (local bool) {
	t.Helper()
	var got *Document
	var gerr error
	full, _ := parsecount.During(func() { got, gerr = d.Reparse(src) })
	want, werr := Parse(src)
	if werr != nil {
		require.Error(t, gerr, msg)
		require.Equal(t, werr.Error(), gerr.Error(), msg)
		return false
	}
	require.NoError(t, gerr, msg)
	require.Equal(t, want, got, msg)
	return full == 0
}

// TestReparseAgreesWithParse replaces the first task's content of each
// local host by every CommonMark spec example, and also adds a task, and
// edits the second task's title: Reparse from the old document gives what
// a full parse gives, and decides most of them locally.
func TestReparseAgreesWithParse(t *testing.T) {
	local, total := 0, 0
	eachHostedExample(t, func(h int, d *Document, ex SpecExample, content string) {
		task := &d.Tasks[0]
		out := splice(d.Source, []change{d.contentChange(task, d.meta(0), content)})
		total++
		if requireReparse(t, d, out, fmt.Sprintf("host %d, example %d\n%s", h, ex.Example, out)) {
			local++
		}
		// Raw: the example's bytes in place of the task's body, as a
		// person's editor might leave them.
		raw := splice(d.Source, []change{{task.HeadingSpan.End, task.Span.End, ex.Markdown}})
		requireReparse(t, d, raw, fmt.Sprintf("host %d, example %d raw\n%s", h, ex.Example, raw))
	})
	t.Logf("%d of %d reparses decided locally", local, total)
	require.Greater(t, local, total/2, "most one-task changes should be reparsed locally")
}

// TestReparseRandomEdits: random byte edits (insertions, deletions,
// replacements of Markdown-significant text) at random places of a
// document, in one task or across several; Reparse always agrees with
// Parse.
func TestReparseRandomEdits(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\ntitle: x\n---\n# Plan\n\nIntro [ref].\n\n[ref]: https://example.com\n\n## Tasks\n")
	for i := range 12 {
		fmt.Fprintf(&b, "\n### Task %d\n- Status: pending\n- Assignee: a%d\n\nBody %d with `code` and *emphasis*.\n\n- item\n- item\n", i, i, i)
		if i%4 == 1 {
			b.WriteString("\n```go\nfunc x() {}\n```\n")
		}
	}
	b.WriteString("\n## Notes\n\nEnd.\n")
	base := []byte(b.String())
	d, err := Parse(base)
	require.NoError(t, err)
	pieces := []string{"", "\n", "### New task\n", "## Section\n", "- Status: completed\n", "```\n", "<div>\n", "> quote\n",
		"    indented\n", "text", "\r\n", "[ref]: /x\n", "---\n", "====\n", "### Task 3\n", "Title\n---\n", "## Tasks\n", "# Top\n", "- [ ] box\n", "#", "\t", "<!--", "-->"}
	r := rand.New(rand.NewPCG(1, 2))
	local := 0
	const rounds = 6000
	for round := range rounds {
		out := append([]byte(nil), base...)
		// One to three edits, from the end backwards so that the task
		// spans of d still locate them; most stay inside a task, as other
		// processes' edits do.
		var desc []string
		at := len(out)
		for range 1 + r.IntN(3) {
			at = r.IntN(at + 1)
			if k := r.IntN(len(d.Tasks)); r.IntN(4) > 0 && d.Tasks[k].Span.End <= at {
				s := d.Tasks[k].Span
				at = s.Start + r.IntN(s.End-s.Start+1)
			}
			cut := min(len(out)-at, r.IntN(30))
			piece := pieces[r.IntN(len(pieces))]
			out = append(out[:at:at], append([]byte(piece), out[at+cut:]...)...)
			desc = append(desc, fmt.Sprintf("at %d cut %d piece %q", at, cut, piece))
		}
		if requireReparse(t, d, out, fmt.Sprintf("round %d: %s\n%s", round, strings.Join(desc, ", "), out)) {
			local++
		}
	}
	t.Logf("%d of %d random edits reparsed locally", local, rounds)
	require.Greater(t, local, rounds/4)
}

// TestReparseUnchangedIsTheSameDocument: equal bytes give d itself.
func TestReparseUnchangedIsTheSameDocument(t *testing.T) {
	d, err := Parse([]byte(localHosts[0]))
	require.NoError(t, err)
	got, err := d.Reparse([]byte(localHosts[0]))
	require.NoError(t, err)
	require.Same(t, d, got)
	var none *Document
	got, err = none.Reparse([]byte(localHosts[0]))
	require.NoError(t, err)
	require.Equal(t, d, got)
}

// FuzzReparse: a document, and a splice of it (piece in place of cut bytes
// at at): Reparse from the document's parse agrees with a full parse.
func FuzzReparse(f *testing.F) {
	for _, host := range localHosts {
		f.Add([]byte(host), uint(20), uint(3), []byte("- Status: completed\n"), uint(0), uint(0), []byte(""))
		f.Add([]byte(host), uint(60), uint(0), []byte("### Added\n\n"), uint(30), uint(2), []byte("- Note: x\n"))
		f.Add([]byte(host), uint(25), uint(8), []byte("```\n"), uint(10), uint(0), []byte("## Sect\n"))
	}
	f.Fuzz(func(t *testing.T, base []byte, at, cut uint, piece []byte, at2, cut2 uint, piece2 []byte) {
		base = append([]byte{}, base...) // never nil, as a read file is not
		d, err := Parse(base)
		if err != nil {
			return
		}
		// Two splices, the second before the first.
		a := int(at % uint(len(base)+1))
		c := min(int(cut%64), len(base)-a)
		out := append(append(append([]byte{}, base[:a]...), piece...), base[a+c:]...)
		a2 := int(at2 % uint(a+1))
		c2 := min(int(cut2%64), a-a2)
		out = append(append(append([]byte{}, out[:a2]...), piece2...), out[a2+c2:]...)
		requireReparse(t, d, out, fmt.Sprintf("%q at %d cut %d piece %q, at %d cut %d piece %q", base, a, c, piece, a2, c2, piece2))
	})
}

// TestReparseSeveralCompletions: other processes completed, started and
// annotated several tasks since this one last read the document: the
// reparse is local, and is what a parse gives.
func TestReparseSeveralCompletions(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Plan\n\n## Tasks\n")
	for i := range 50 {
		fmt.Fprintf(&b, "\n### Task %d\n\n- Status: pending\n\nStep %d.\n", i, i)
	}
	b.WriteString("\n## Notes\n\nEnd.\n")
	d, err := Parse([]byte(b.String()))
	require.NoError(t, err)
	other := d
	for _, k := range []int{3, 17, 18, 40} {
		slug := fmt.Sprintf("task-%d", k)
		other, _, err = other.Complete(slug, "done by another process", time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC))
		require.NoError(t, err)
	}
	other, _, err = other.SetField("task-25", KeyAssignee, "agent-b")
	require.NoError(t, err)
	require.True(t, requireReparse(t, d, other.Source, "several tasks changed"), "decided locally")

	// A task added at the end and one removed in the middle, too.
	more, _, err := other.AddTask(NewTask{Title: "Late addition", Content: "- Status: pending\n\nAdded by b."})
	require.NoError(t, err)
	more, err = more.RemoveTask("task-30")
	require.NoError(t, err)
	require.True(t, requireReparse(t, d, more.Source, "added and removed"), "decided locally")
}
