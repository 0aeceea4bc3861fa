package taskdoc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormaliseText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"\n \n\t\n", ""},
		{"\n\n  body  \n\n", "  body  "},
		{"a\r\n\r\nb\r\n\r\n", "a\n\nb"},
		{"a\rb", "a\nb"},
		{"\r \r a\r\r", " a"},
		{"\r\n  \r\nlast line without newline", "last line without newline"},
		{"x\n  \ny\n \t \n", "x\n  \ny"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, normaliseText([]byte(tt.in)), "%q", tt.in)
	}
}

func TestLineHelpers(t *testing.T) {
	src := []byte("ab\n\n  \ncd")
	assert.Equal(t, 0, lineStart(src, 1))
	assert.Equal(t, 3, lineStart(src, 3))
	assert.Equal(t, 3, lineEnd(src, 0))
	assert.Equal(t, len(src), lineEnd(src, 8))
	assert.Equal(t, 2, contentEnd(src, 0))
	assert.True(t, isBlankLine(src, 4))
	assert.Equal(t, 3, trimBlankLinesBefore(src, 0, 7))
	assert.Equal(t, 7, trimBlankLinesBefore(src, 5, 7), "never before floor")
}

// TestLineIndexAgreesWithPosition: the index Parse numbers headings with
// and Position count the same lines, whatever ends them.
func TestLineIndexAgreesWithPosition(t *testing.T) {
	for _, src := range []string{"", "a", "a\nb\r\nc\rd", "\r\r\n\n\r", "x\r", "\r\n\r\n", "é\rü\r\nß\n"} {
		x := newLineIndex([]byte(src))
		for off := 0; off <= len(src); off++ {
			line, _ := Position([]byte(src), off)
			assert.Equal(t, line, x.at(off), "%q at %d", src, off)
		}
	}
}
