package editor

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkDiff asserts that the edits diff gives from a to b turn a into b
// in every encoding, and returns those of UTF-16.
func checkDiff(t testing.TB, a, b string) []Edit {
	t.Helper()
	var out []Edit
	for _, enc := range Encodings {
		edits := newText([]byte(a), enc).diff([]byte(b))
		got, err := ApplyEdits(a, edits, enc)
		if err != nil {
			t.Fatalf("%s: %q -> %q: %v (edits %+v)", enc, a, b, err, edits)
		}
		if got != b {
			t.Fatalf("%s: %q -> %q: the edits %+v give %q", enc, a, b, edits, got)
		}
		if a == b && len(edits) != 0 {
			t.Fatalf("%s: equal texts get edits %+v", enc, edits)
		}
		if enc == UTF16 {
			out = edits
		}
	}
	return out
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []Edit
	}{
		{name: "equal", a: "a\nb\n", b: "a\nb\n"},
		{name: "empty to text", a: "", b: "x\n",
			want: []Edit{{Range: rng(0, 0, 0, 0), NewText: "x\n"}}},
		{name: "text to empty", a: "x\ny", b: "",
			want: []Edit{{Range: rng(0, 0, 1, 1), NewText: ""}}},
		{name: "one word in a line", a: "- Status: pending\n", b: "- Status: in_progress\n",
			want: []Edit{{Range: rng(0, 10, 0, 17), NewText: "in_progress"}}},
		{name: "after emoji, UTF-16", a: "😀 x: pending\n", b: "😀 x: blocked\n",
			want: []Edit{{Range: rng(0, 6, 0, 13), NewText: "blocked"}}},
		{name: "inserted line", a: "a\nc\n", b: "a\nb\nc\n",
			want: []Edit{{Range: rng(1, 0, 1, 0), NewText: "b\n"}}},
		{name: "two lines apart", a: "a\nb\nc\nd\ne\n", b: "a\nB\nc\nd\nE\n",
			want: []Edit{{Range: rng(1, 0, 1, 1), NewText: "B"}, {Range: rng(4, 0, 4, 1), NewText: "E"}}},
		{name: "CRLF kept", a: "a\r\nb\r\n", b: "a\r\nbb\r\n",
			want: []Edit{{Range: rng(1, 1, 1, 1), NewText: "b"}}},
		{name: "CRLF to lone CR", a: "a\r\nb", b: "a\rb",
			want: []Edit{{Range: rng(0, 1, 1, 0), NewText: "\r"}}},
		{name: "lone CR to CRLF", a: "a\rb", b: "a\r\nb",
			want: []Edit{{Range: rng(0, 1, 1, 0), NewText: "\r\n"}}},
		{name: "LF to CRLF before an empty line", a: "a\n\n", b: "a\r\n",
			want: []Edit{{Range: rng(0, 1, 2, 0), NewText: "\r\n"}}},
		{name: "CRLF split by a line", a: "a\r\nb", b: "a\rx\nb",
			want: []Edit{{Range: rng(0, 1, 1, 0), NewText: "\rx\n"}}},
		{name: "split a character", a: "é", b: "e\u0301",
			want: []Edit{{Range: rng(0, 0, 0, 1), NewText: "e\u0301"}}},
		{name: "lines changed in place, an edit each", a: "- Status: pending\n- Note: 😀 first try\n", b: "- Status: completed\n- Note: 😀 second try\n",
			want: []Edit{{Range: rng(0, 10, 0, 17), NewText: "completed"}, {Range: rng(1, 11, 1, 16), NewText: "second"}}},
		{name: "no final newline", a: "a\nb", b: "a\nb\nc",
			want: []Edit{{Range: rng(1, 1, 1, 1), NewText: "\nc"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkDiff(t, tt.a, tt.b)
			assert.Equal(t, tt.want, got)
		})
	}
}

// A change over more lines than maxDiffLines is one edit, still right.
func TestDiffLong(t *testing.T) {
	a := strings.Repeat("x\n", 2*maxDiffLines)
	b := strings.Repeat("y\n", 2*maxDiffLines)
	edits := checkDiff(t, a, b)
	require.Len(t, edits, 1)
	// A small change in a long text is still trimmed to its characters.
	c := strings.Repeat("x\n", 1000) + "status: pending\n" + strings.Repeat("x\n", 1000)
	d := strings.Replace(c, "pending", "blocked", 1)
	assert.Equal(t, []Edit{{Range: rng(1000, 8, 1000, 15), NewText: "blocked"}}, checkDiff(t, c, d))
}

func rng(l1, c1, l2, c2 int) Range {
	return Range{Start: Position{Line: l1, Character: c1}, End: Position{Line: l2, Character: c2}}
}

// FuzzDiff: for any two texts, the edits diff gives turn the first into
// the second, in every encoding, in order and without overlapping
// (ApplyEdits refuses edits that are not).
func FuzzDiff(f *testing.F) {
	seeds := [][2]string{
		{"", ""},
		{"a\nb\n", "a\nc\n"},
		{"a\r\nb", "a\rb"},
		{"a\rb", "a\r\nb"},
		{"a\r\n", "a\r"},
		{"a\n\n", "a\r\n"},
		{"\r\n\r\n", "\r\r\n\n"},
		{"😀 x\n", "😀 y\n"},
		{"界\r界\n", "界\r\n界"},
		{"---\ntitle: x\n---\n# T\n\n## Tasks\n\n### A\n\n- Status: pending\n", "---\ntitle: x\n---\n# T\n\n## Tasks\n\n### A\n\n- Status: completed\n- Completed: 2026-01-01\n- Note: done\n"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return
		}
		checkDiff(t, a, b)
	})
}
