package journal_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
)

// What people do to a journal by hand reads as the package doc says.
func TestReadHandEdits(t *testing.T) {
	notes, err := os.ReadFile(filepath.Join("testdata", "notes.md"))
	require.NoError(t, err)
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		require.NoError(t, err)
		return v
	}
	cases := []struct {
		name    string
		journal string
		want    []journal.Entry // oldest first
	}{
		{"annotated", string(notes), []journal.Entry{
			{Sequence: 1, Time: at("2026-11-20T09:00:00Z"), Agent: "worker-0", Type: journal.TypePlan, Summary: "Sign with RS256, keys from the vault"},
			{Sequence: 2, Time: at("2026-11-20T09:30:00Z"), Type: journal.TypeProgress, Summary: "Wrote the signer and its tests (wrapped by hand)",
				FilesChanged: []string{"signer.go", "signer_test.go"}, Detail: "go test ./..."},
		}},
		{"empty file", "", nil},
		{"title only", "# Checkpoints\n", nil},
		{"lone CR line endings", "# T\r\r## 1 · plan · 2026-11-20T09:00:00Z\r\rOld Mac\r\r```\ra\r\rb\r```\r",
			[]journal.Entry{{Sequence: 1, Time: at("2026-11-20T09:00:00Z"), Type: journal.TypePlan, Summary: "Old Mac", Detail: "a\n\nb"}}},
		{"loose spacing and other bullets", "## 4·Decision·2026-11-20T10:00:00+01:00·  ana  \nSummary right under\n* key:  plain, key \n+ FILES: `a`,`b` , c.go\n  ~~~~ js\n  x\n   y\n ~~~~\n",
			[]journal.Entry{{Sequence: 4, Time: at("2026-11-20T09:00:00Z"), Agent: "ana", Type: journal.TypeDecision, Summary: "Summary right under",
				Key: "plain, key", FilesChanged: []string{"a", "b", "c.go"}, Detail: "x\n y"}}},
		{"gaps in sequences, later notes", "## 2 · plan · 2026-11-20T09:00:00Z\n\nA\n\n## Person's heading\n\n```\nnot detail\n```\n\n## 10 · complete · 2026-11-20T09:00:00Z\n\nB\n\n# Appendix\n",
			[]journal.Entry{
				{Sequence: 2, Time: at("2026-11-20T09:00:00Z"), Type: journal.TypePlan, Summary: "A"},
				{Sequence: 10, Time: at("2026-11-20T09:00:00Z"), Type: journal.TypeComplete, Summary: "B"},
			}},
		{"sub-heading stops the detail search", "## 1 · plan · 2026-11-20T09:00:00Z\n\nA\n\n### Ana\n\n```\nnot detail\n```\n",
			[]journal.Entry{{Sequence: 1, Time: at("2026-11-20T09:00:00Z"), Type: journal.TypePlan, Summary: "A"}}},
		{"indented code is no heading", "    ## 1 · plan · nonsense\n\n## 1 · plan · 2026-11-20T09:00:00Z\n\nA\n",
			[]journal.Entry{{Sequence: 1, Time: at("2026-11-20T09:00:00Z"), Type: journal.TypePlan, Summary: "A"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j, root := setup(t, map[string]string{journalFile: c.journal})
			got, err := j.List(context.Background(), task, journal.Query{})
			require.NoError(t, err)
			want := []journal.Entry{}
			for i := len(c.want) - 1; i >= 0; i-- {
				want = append(want, c.want[i])
			}
			assert.Equal(t, want, got)

			// Add appends after the highest sequence and keeps every byte.
			added, err := j.Add(context.Background(), task, journal.Entry{Type: journal.TypeProgress, Summary: "appended"})
			require.NoError(t, err)
			next := 1
			if len(c.want) > 0 {
				next = c.want[len(c.want)-1].Sequence + 1
			}
			assert.Equal(t, next, added.Sequence)
			after := filetest.Read(t, root, journalFile)
			assert.True(t, strings.HasPrefix(after, c.journal))
			got, err = j.List(context.Background(), task, journal.Query{})
			require.NoError(t, err)
			assert.Equal(t, append([]journal.Entry{added}, want...), got)
		})
	}
}

// A journal damaged where it matters is a PARSE_ERROR at the line to
// repair, for List and for Add, which writes nothing.
func TestParseErrors(t *testing.T) {
	const ok = "## 1 · plan · 2026-11-20T09:00:00Z\n\nA\n\n"
	cases := []struct {
		name    string
		journal string
		line    int
		msg     string
	}{
		{"unknown type", ok + "## 2 · milestone · 2026-11-20T09:00:00Z\n\nB\n", 5, `entry 2: unknown checkpoint type "milestone"`},
		{"bad time", "# T\n\n## 1 · plan · yesterday\n\nA\n", 3, `entry 1: the time "yesterday" is not written like 2026-11-23T10:00:00Z`},
		{"too few fields", "## 1 plan 2026-11-20T09:00:00Z\n\nA\n", 1, `an entry heading is "## <sequence> · <type> · <time>"`},
		{"heading of a year", ok + "## 2024 plans\n", 5, "an entry heading is"},
		{"bad sequence", "## 1a · plan · 2026-11-20T09:00:00Z\n\nA\n", 1, `the sequence "1a"`},
		{"sequence zero", "## 0 · plan · 2026-11-20T09:00:00Z\n\nA\n", 1, `the sequence "0"`},
		{"no summary", ok + "## 2 · plan · 2026-11-20T09:00:00Z\n\n- Files: a.go\n", 5, "entry 2 has no summary"},
		{"no summary at the end", ok + "## 2 · plan · 2026-11-20T09:00:00Z", 5, "entry 2 has no summary"},
		{"summary is a heading", ok + "## 2 · plan · 2026-11-20T09:00:00Z\n### B\n", 5, "entry 2 has no summary"},
		{"sequence repeated", ok + ok, 5, "entry 1 comes after entry 1"},
		{"sequence decreasing", "## 3 · plan · 2026-11-20T09:00:00Z\n\nA\n\n" + ok, 5, "entry 1 comes after entry 3"},
		{"detail never closed", ok + "## 2 · plan · 2026-11-20T09:00:00Z\n\nB\n\n````text\n```\n", 9, "the detail of entry 2 is a code fence that is never closed: close it with ````"},
		{"notes fence never closed", ok + "Ana's notes:\n\n~~~\n## 2 · plan · 2026-11-20T09:00:00Z\n\nB\n", 7, "this code fence is never closed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j, root := setup(t, map[string]string{journalFile: c.journal})
			_, err := j.List(context.Background(), task, journal.Query{})
			e := requireCode(t, err, taskdoc.CodeParse)
			assert.Equal(t, journalFile, e.Path)
			assert.Equal(t, "implement-jwt-signing", e.Slug)
			assert.Equal(t, c.line, e.Line, "%v", err)
			assert.Equal(t, 1, e.Column)
			assert.Contains(t, e.Error(), c.msg)
			assert.Contains(t, e.Error(), fmt.Sprintf("(line %d, column 1", c.line))
			assert.Equal(t, strings.Split(c.journal, "\n")[c.line-1], e.Excerpt)

			before := filetest.Snapshot(t, root)
			_, err = j.Add(context.Background(), task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
			e2 := requireCode(t, err, taskdoc.CodeParse)
			assert.Equal(t, e, e2)
			assert.Equal(t, before, filetest.Snapshot(t, root))
		})
	}
}

// A BOM and CRLF line endings do not move the line an error names.
func TestParseErrorPosition(t *testing.T) {
	file := "\uFEFF# T\r\n\r\n## 1 · plan · 2026-11-20T09:00:00Z\r\n\r\nA\r\n\r\n## 2 · plan · 2026-11-20\r\n"
	j, _ := setup(t, map[string]string{journalFile: file})
	_, err := j.List(context.Background(), task, journal.Query{})
	e := requireCode(t, err, taskdoc.CodeParse)
	assert.Equal(t, 7, e.Line)
	assert.Equal(t, strings.Index(file, "## 2"), e.Offset)
	assert.Equal(t, "## 2 · plan · 2026-11-20", e.Excerpt)
}

// A journal with LF endings whose last line ends with a lone CR: the new
// section still comes after a blank line, in the file's own line endings,
// not fused into a CRLF.
func TestAppendAfterLoneCR(t *testing.T) {
	file := "# Checkpoints: " + task + "\n\nnote\r"
	j, root := setup(t, map[string]string{journalFile: file})
	_, err := j.Add(context.Background(), task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
	require.NoError(t, err)
	got := filetest.Read(t, root, journalFile)
	require.True(t, strings.HasPrefix(got, file))
	i := strings.Index(got, "## 1 ")
	require.Greater(t, i, 0)
	// Lines between "note" and the heading, split as the package splits them.
	between := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(got[len(file)-1 : i])
	assert.GreaterOrEqual(t, strings.Count(between, "\n"), 2, "no blank line before the appended heading: %q", got)
}
