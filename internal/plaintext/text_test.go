package plaintext_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/internal/plaintext"
)

// One definition of a control character, and of a note folded onto one
// line, for every package.
func TestIsControlAndFoldLine(t *testing.T) {
	for r, want := range map[rune]bool{0: true, '\t': true, '\n': true, 0x1f: true, ' ': false, 'a': false,
		0x7e: false, 0x7f: true, 0x80: true, 0x9b: true, 0x9f: true, 0xa0: false, 'é': false, 0x2028: false} {
		assert.Equal(t, want, plaintext.IsControl(r), "U+%04X", r)
	}
	assert.Equal(t, "signed with RS256", plaintext.FoldLine("  signed\r\nwith \t RS256\n"))
	assert.Equal(t, "", plaintext.FoldLine(" \n "))
}

// FoldLine is strings.Fields joined by single spaces, whether the text is
// folded already or not: every white space Unicode knows, invalid UTF-8
// kept as it is.
func TestFoldLineIsFieldsJoined(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", "a  b", " a", "a ", "a\tb", "a\vb", "a\fb", "a\u00a0b",
		"a\u0085b", "a\u2028b", "a\u3000b", "é b", "\xff b", "a \xff", "x\u200bx", "ünïcode text", "a\x1cb"} {
		assert.Equal(t, strings.Join(strings.Fields(s), " "), plaintext.FoldLine(s), "%q", s)
	}
}

func TestFoldLineFoldedDoesNotAllocate(t *testing.T) {
	s := "already folded, ünïcode and all"
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = plaintext.FoldLine(s) }))
}

// LineEnding is the first line ending of the text, "\n" when it has none.
func TestLineEnding(t *testing.T) {
	for src, want := range map[string]string{"": "\n", "a": "\n", "a\nb\r\n": "\n", "a\r\nb\n": "\r\n",
		"a\rb\n": "\r", "a\r": "\r", "\r\n": "\r\n"} {
		assert.Equal(t, want, plaintext.LineEnding([]byte(src)), "%q", src)
	}
}
