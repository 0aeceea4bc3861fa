package checkpoint

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// FuzzParseWorkerCheckpoint: any bytes parse or fail with a *taskdoc.Error,
// never a panic; what parses renders, and the rendering parses back to
// the same value and renders to the same bytes. JSON too: what parses
// converts to JSON and back unchanged.
func FuzzParseWorkerCheckpoint(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(string(data))
	}
	f.Add("---\nworker: w\n---\n## Completed\n- [x] a\n  b\n```\n## Notes\n")
	f.Add("## Status\n\ndone\n## Files\n- `a` (b\n- x (y)\n## X ##\n##\n")
	f.Add("---\r\nsequence: \"3\"\r\ntime: 2026-01-18T10:15:23.5+02:00\r\n---\r## In Progress\r* [X] \\[x]\r")
	f.Add("+++\nworker = \"w\"\nsequence = 2\n+++\n## Remaining\n1) one\n\n   two\n")
	f.Fuzz(func(t *testing.T, src string) {
		c, err := Parse([]byte(src))
		if err != nil {
			var e *taskdoc.Error
			require.True(t, errors.As(err, &e), "%v is not a *taskdoc.Error", err)
			return
		}
		out, err := c.Render()
		require.NoError(t, err, "%#v", c)
		back, err := Parse(out)
		require.NoError(t, err, "%q", out)
		require.Equal(t, c, back, "%q", out)
		again, err := back.Render()
		require.NoError(t, err)
		require.Equal(t, string(out), string(again))
		js, err := c.JSON()
		require.NoError(t, err)
		fromJSON, err := ParseJSON(js)
		require.NoError(t, err, "%s", js)
		require.Equal(t, c, fromJSON, "%s", js)
	})
}

// FuzzParseWorkerCheckpointJSON: any bytes parse or fail with a
// *taskdoc.Error; what parses renders as Markdown that parses back to it.
func FuzzParseWorkerCheckpointJSON(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "resume.json"))
	require.NoError(f, err)
	f.Add(string(data))
	f.Add(`{"agentId":"w","resumeInstructions":"x","context":{"decisions":[1,{"a":[]}]}}`)
	f.Add(`{"workState":{"completed":["\u0000"]}}`)
	f.Fuzz(func(t *testing.T, src string) {
		c, err := ParseJSON([]byte(src))
		if err != nil {
			var e *taskdoc.Error
			require.True(t, errors.As(err, &e), "%v is not a *taskdoc.Error", err)
			return
		}
		out, err := c.Render()
		require.NoError(t, err)
		back, err := Parse(out)
		require.NoError(t, err, "%q", out)
		require.Equal(t, c, back, "%q", out)
	})
}

// TestWorkerRenderParseProperty: for random checkpoints built from awkward
// pieces, Parse ∘ Render is the identity on the normal form, and the
// normal form is what Render writes (normalising twice changes nothing).
func TestWorkerRenderParseProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b c", " ", "  ", "\t", "[ ]", "[x]", "\\", "\\[", "`", "``", "#", "## ", "- ", "* ",
		"1. ", "(", ")", " (x)", ":", "\"", "'", "yes", "1.0", "null", "~", "---", "```", "~~~", "\n", "\r\n",
		"é", "✓", "\u2028", "\u00a0", "<b>", "&amp;", "{}", "[]", "|"}
	word := func(n int) string {
		var b strings.Builder
		for range r.IntN(n) + 1 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	list := func() []string {
		var out []string
		for range r.IntN(4) {
			out = append(out, word(5))
		}
		return out
	}
	tried, rendered := 0, 0
	for range 5000 {
		c := Checkpoint{
			Worker: []string{"", "w", "worker-1", "a_b"}[r.IntN(4)], Task: []string{"", "/a.md", "/api/auth.md#x-y"}[r.IntN(3)],
			Status: Status([]string{"", "partial", "DONE", "Blocked"}[r.IntN(4)]), Phase: []string{"", "working", "Pivoted"}[r.IntN(3)],
			PivotMode: PivotMode([]string{"", "hard", "Graceful"}[r.IntN(3)]), PivotReason: word(4), Clarification: word(3),
			Sequence: r.IntN(3), OriginalTask: word(8), Completed: list(), InProgress: list(), Remaining: list(),
			Blocked: list(), ParallelWork: list(), Decisions: list(), Notes: word(10), Resumption: word(10),
		}
		if r.IntN(2) == 0 {
			c.Time = time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600))
		}
		for range r.IntN(3) {
			c.FilesChanged = append(c.FilesChanged, FileChange{Path: word(3), Note: word(2)})
			c.Extra = append(c.Extra, Section{Heading: "x " + word(3), Body: word(6)})
		}
		tried++
		n, err := c.normal()
		if err != nil {
			var e *taskdoc.Error
			require.True(t, errors.As(err, &e))
			continue
		}
		rendered++
		out, err := c.Render()
		require.NoError(t, err)
		back, err := Parse(out)
		require.NoError(t, err, "%q", out)
		require.Equal(t, n, back, "%q", out)
		nn, err := n.normal()
		require.NoError(t, err)
		require.Equal(t, n, nn)
	}
	t.Logf("%d of %d random checkpoints rendered", rendered, tried)
	require.Greater(t, rendered, tried/10)
}
