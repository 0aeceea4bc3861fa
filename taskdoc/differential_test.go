package taskdoc_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/taskdoc"
)

// diffBodies are task bodies that test the claim that an edit only needs
// to parse the edited task: each opens, continues or closes a block in a
// way that could reach across a task boundary.
var diffBodies = []string{
	"",
	"- Status: pending\n- Workflow: x\n\nBody.\n",
	"- Status: pending\nlazy continuation\n",
	"- Status: pending\n\n- Note: loose\n",
	"* status: blocked\n  - nested: sub\n\nText\n",
	"1. Status: pending\n",
	"**Status:** in_progress\n**Workflow:** w\n",
	"- Status: pending\n\n---\n",
	"Para\n---\n",
	"Para\n===\n",
	"    ### indented code\n",
	"```\n### fenced\n```\n",
	"~~~\nunclosed tilde fence\n",
	"<script>\n### x\n</script>\n",
	"<!--\ncomment\n-->\n",
	"<?pi\n?>\n",
	"<!DOCTYPE x>\n",
	"<![CDATA[\nx\n]]>\n",
	"<div>\n### not a heading\n</div>\n",
	"<custom-tag>\n",
	"[ref]: /url\n",
	"Use [ref] here.\n",
	"> quote\nlazy\n",
	"- item\n\n  still item\n",
	"\tcode with tab\n",
	"#### Sub ####\n\ntext\n",
	"###\n",
	"### \n",
	"#5 not a heading\n",
	"text with trailing backslash\\\n",
	"Line\twith\ttabs and \x01 control\n",
	strings.Repeat("long ", 400) + "\n",
	"- Status: pending",
	"+ Status: pending\n+ Note: a: b: c\n",
	"- **Status**: pending\n- **Note:** x\n",
	"-  Status :  pending\n",
	"Body @/specs/a.md#x.\n\n* Completed: 2026-01-01\n* Note: done\n",
	"* Completed: 2026-01-01\n* Note: done\n",
	"Two line\nsetext\n---\n",
	"- a\n\n\n- b\n",
	"| a | b |\n|---|---|\n| 1 | 2 |\n",
	"<table>\n\n### inside html 6\n",
	"<a href=\"x\">\n### after html 7\n",
	"[used]\n\n[used]: /there\n",
	"***\n",
	"+++\n",
}

var diffTitles = []string{
	"One", "Two!", "Two?", "Café Über", "a_b-c", "`code` span", "Tasks", "x ###", "  Spaced  ", "Ünïcode 日本",
}

// genDoc builds a document from pieces chosen by r.
func genDoc(r *rand.Rand) string {
	var b strings.Builder
	switch r.IntN(6) {
	case 0:
		b.WriteString("\ufeff")
	case 1:
		b.WriteString("---\nk: v\n---\n")
	case 2:
		b.WriteString("---\n\n")
	}
	b.WriteString("# Doc\n\n")
	if r.IntN(4) == 0 {
		b.WriteString(diffBodies[r.IntN(len(diffBodies))] + "\n")
	}
	if r.IntN(5) == 0 {
		b.WriteString("Tasks\n-----\n\n")
	} else {
		b.WriteString("## Tasks\n\n")
	}
	n := 1 + r.IntN(4)
	for range n {
		title := diffTitles[r.IntN(len(diffTitles))]
		if r.IntN(8) == 0 {
			b.WriteString(title + "\n---\n")
		} else {
			b.WriteString("### " + title + "\n")
		}
		if r.IntN(2) == 0 {
			b.WriteString("\n")
		}
		for range r.IntN(3) {
			b.WriteString(diffBodies[r.IntN(len(diffBodies))])
			if r.IntN(3) > 0 {
				b.WriteString("\n")
			}
		}
	}
	if r.IntN(3) == 0 {
		b.WriteString("## After\n\n" + diffBodies[r.IntN(len(diffBodies))])
	}
	s := b.String()
	switch r.IntN(8) {
	case 0:
		s = strings.ReplaceAll(s, "\n", "\r\n")
	case 1:
		s = strings.TrimRight(s, "\n")
	case 2: // mixed line endings
		s = strings.Replace(s, "\n", "\r\n", r.IntN(5))
	case 3: // a lone "\r" ends a line too
		s = strings.ReplaceAll(s, "\n", "\r")
	case 4:
		s = strings.Replace(s, "\n", "\r", 2+r.IntN(12))
	}
	return s
}

var diffArgs = []string{"Next step|value", "Title|```", "Title|<!--", "Key|[x]: /y", "A #|### inner",
	"Setext|---", "Note|*a* _b_ `c` [d] <e> # f", "Café|- Status: completed", "x|\r\n", "T|<div>"}

// TestEditsAgreeWithFullParse runs every edit on every task of generated
// documents and checks each result against a full parse of it: bytes
// outside the task unchanged, headings and tasks outside it unchanged, the
// edit visible, a field edit's body unchanged, and the returned Document
// and task equal to the full parse's. It also counts the edits that needed
// a full parse (see editCost).
func TestEditsAgreeWithFullParse(t *testing.T) {
	seed, docs := uint64(1), 400
	if testing.Short() {
		docs = 60
	}
	// A longer search: TASKDOC_DIFF_SEED=7 go test -run TestEditsAgree.
	if s := os.Getenv("TASKDOC_DIFF_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
		seed, docs = n, 20000
	}
	r := rand.New(rand.NewPCG(seed, 2))
	var cost editCost
	defer cost.report(t)
	for n := range docs {
		src := genDoc(r)
		doc, err := taskdoc.Parse([]byte(src))
		if err != nil { // a "---" look-alike that is not front matter
			require.ErrorIs(t, err, taskdoc.ErrParse, "%q", src)
			continue
		}
		for pick := range max(1, len(doc.Tasks)) {
			for op := range uint8(7) {
				arg := diffArgs[(n+pick+int(op))%len(diffArgs)]
				e := chooseEdit(doc, op, uint8(pick), arg)
				var nd *taskdoc.Document
				var task *taskdoc.Task
				full, _ := parsecount.During(func() { nd, task, err = e.apply(doc) })
				cost.add(op, full, err)
				name := fmt.Sprintf("doc %d op %d task %d arg %q\n%q", n, op, pick, arg, src)
				if err != nil {
					requireTypedError(t, err, nd)
					// Setting a known status, or plain text, is never refused,
					// but for plain text replacing a link reference definition
					// that text outside the task uses (see
					// TestDefinitionsKeepTheirMeaningOutsideTheTask).
					plainEdit := op == 4 && arg == diffArgs[0] && len(doc.Tasks) > 0 &&
						taskdoc.CodeOf(err) != taskdoc.CodeDuplicateTask && !replacesDefinition(doc, e.slug, err)
					if (op == 0 && taskdoc.CodeOf(err) == taskdoc.CodeEditChangedOutside) || plainEdit {
						t.Errorf("%s: refused: %v", name, err)
					}
					continue
				}
				ok := t.Run(fmt.Sprint(n), func(t *testing.T) {
					t.Log(name)
					after := checkSplice(t, doc, nd.Source, e.span)
					e.shows(t, after)
					if op <= 2 || op == 6 { // a field edit keeps the body
						was, _ := doc.Task(e.slug)
						now, err := after.Task(e.slug)
						require.NoError(t, err)
						require.Equal(t, was.Body, now.Body, "the body changed:\n%s", nd.Source)
					}
					// The returned Document equals a parse of its bytes, every
					// task and all.
					assertEditProperty(t, doc.Source, nd, task, editedSlug(doc, after, e))
				})
				if !ok {
					t.FailNow()
				}
			}
		}
	}
}

// replacesDefinition reports whether err refuses an edit of the task slug
// for the link reference definitions it holds.
func replacesDefinition(doc *taskdoc.Document, slug string, err error) bool {
	task, terr := doc.Task(slug)
	if terr != nil || !strings.Contains(err.Error(), "link reference definition") {
		return false
	}
	// goldmark ends no line at a lone "\r".
	text := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(doc.Source[task.Span.Start:task.Span.End]))
	return definesLinkReferences(text)
}

// editCost counts how the edits of a test were decided: from a parse of
// the edited range alone, or with a full parse of the result.
type editCost struct {
	local, full      [7]int // successful edits, by op
	refused, refFull int    // refused edits, and those a full parse refused
}

func (c *editCost) add(op uint8, documentParses int64, err error) {
	switch {
	case err != nil:
		c.refused++
		if documentParses > 0 {
			c.refFull++
		}
	case documentParses == 0:
		c.local[op%7]++
	default:
		c.full[op%7]++
	}
}

// report logs the counts and fails when the full parse, meant for the
// rare documents where the local argument does not hold, decides more
// than a tenth of the successful edits.
func (c *editCost) report(t *testing.T) {
	local, full := 0, 0
	for op := range c.local {
		if c.local[op]+c.full[op] > 0 {
			t.Logf("op %d: %d local, %d full parse", op, c.local[op], c.full[op])
		}
		local, full = local+c.local[op], full+c.full[op]
	}
	t.Logf("successful edits: %d local, %d full parse; refused: %d, %d of them by a full parse",
		local, full, c.refused, c.refFull)
	if full*10 > local+full {
		t.Errorf("%d of %d edits needed a full parse", full, local+full)
	}
}
