package journal

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// FuzzRoundTrip: every entry that Add accepts reads back as Add returned
// it, after any journal that reads, and appending keeps the journal's
// bytes and its entries.
func FuzzRoundTrip(f *testing.F) {
	f.Add("# Checkpoints\n", "summary", "detail", "agent", "key", "a.go")
	f.Add("", "## 1 · plan · 2026-11-23T10:00:00Z", "```\n````\n", "a · b", "`k`", "``")
	f.Add("## 3 · plan · 2026-11-23T10:00:00Z\r\n\r\nx\r\n", `\- x`, "a\r\nb\rc\n", "", " ", "x, y")
	f.Add("## 2 · error · 2026-11-23T10:00:00Z\n\nx\n\n~~~\n", "- Files: x", "~~~", "w", "k", "f")
	f.Add("\uFEFF# T\rnotes", "1. step", "\n\n", "w #", "k,", "` x `")
	f.Fuzz(func(t *testing.T, journal, summary, detail, agent, key, file string) {
		old, err := parseJournal([]byte(journal), "j.md")
		if err != nil {
			return
		}
		e, err := normalise(Entry{Type: TypeDecision, Summary: summary, Detail: detail, Agent: agent, Key: key, FilesChanged: []string{file}})
		if err != nil {
			return
		}
		e.Sequence = 1
		if len(old) > 0 {
			e.Sequence = old[len(old)-1].Sequence + 1
		}
		e.Time = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
		out := appendEntry([]byte(journal), e)
		require.True(t, strings.HasPrefix(string(out), journal))
		got, err := parseJournal(out, "j.md")
		require.NoError(t, err, "%q", out)
		require.Equal(t, append(old, e), got, "%q", out)
	})
}

// FuzzParse: any bytes parse or fail with a PARSE_ERROR, never a panic,
// and the entries read have increasing sequences.
func FuzzParse(f *testing.F) {
	f.Add("## 1 · plan · 2026-11-23T10:00:00Z\n\nA\n\n- Files: `a`\n\n```\nd\n```\n")
	f.Add("## 1\n")
	f.Add("```\n## 1 · plan\n")
	f.Add("  ~~~~ x\n ~~~~~\n## 2 · x · y · z\n")
	f.Fuzz(func(t *testing.T, journal string) {
		got, err := parseJournal([]byte(journal), "j.md")
		if err != nil {
			return
		}
		for i := 1; i < len(got); i++ {
			require.Greater(t, got[i].Sequence, got[i-1].Sequence)
		}
	})
}
