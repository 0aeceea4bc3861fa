package editor

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/taskdoc"
)

// The line index, with every expectation written by hand: where each line
// starts and where its text ends (before its line ending), and the line
// of every offset.
func TestLines(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		starts []int
		ends   []int
		lineOf []int // the line of each offset 0..len(src)
	}{
		{name: "empty", src: "",
			starts: []int{0}, ends: []int{0}, lineOf: []int{0}},
		{name: "no line ending", src: "ab",
			starts: []int{0}, ends: []int{2}, lineOf: []int{0, 0, 0}},
		{name: "LF", src: "a\nb\n",
			starts: []int{0, 2, 4}, ends: []int{1, 3, 4}, lineOf: []int{0, 0, 1, 1, 2}},
		{name: "CRLF", src: "a\r\nb\r\n",
			starts: []int{0, 3, 6}, ends: []int{1, 4, 6}, lineOf: []int{0, 0, 0, 1, 1, 1, 2}},
		{name: "lone CR", src: "a\rb\r",
			starts: []int{0, 2, 4}, ends: []int{1, 3, 4}, lineOf: []int{0, 0, 1, 1, 2}},
		{name: "no final newline", src: "a\nbc",
			starts: []int{0, 2}, ends: []int{1, 4}, lineOf: []int{0, 0, 1, 1, 1}},
		{name: "mixed", src: "\r\r\n\n\r",
			starts: []int{0, 1, 3, 4, 5}, ends: []int{0, 1, 3, 4, 5}, lineOf: []int{0, 1, 1, 2, 3, 4}},
		{name: "CR then LF lines", src: "x\r\n\ny",
			starts: []int{0, 3, 4}, ends: []int{1, 3, 5}, lineOf: []int{0, 0, 0, 1, 2, 2}},
		{name: "multi-byte", src: "界\n😀",
			starts: []int{0, 4}, ends: []int{3, 8}, lineOf: []int{0, 0, 0, 0, 1, 1, 1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLineIndex([]byte(tt.src))
			assert.Equal(t, len(tt.starts), l.Count())
			for i := range tt.starts {
				assert.Equal(t, tt.starts[i], l.Start(i), "start of line %d", i)
				assert.Equal(t, tt.ends[i], l.End(i), "end of line %d", i)
			}
			var lines []int
			for off := 0; off <= len(tt.src); off++ {
				lines = append(lines, l.Line(off))
			}
			assert.Equal(t, tt.lineOf, lines)
		})
	}
}

// Out of range arguments are clamped.
func TestLinesClamp(t *testing.T) {
	l := newLineIndex([]byte("a\nb"))
	assert.Equal(t, 0, l.Start(-1))
	assert.Equal(t, 2, l.Start(9))
	assert.Equal(t, 1, l.End(-1))
	assert.Equal(t, 3, l.End(9))
	assert.Equal(t, 0, l.Line(-5))
	assert.Equal(t, 1, l.Line(99))
}

// The index and taskdoc.Position count the same lines: Position's line,
// from 1, is the index's line of the offset, plus one, whatever the line endings.
func TestLinesAgreeWithPosition(t *testing.T) {
	for _, src := range []string{"", "a\r\nb\rc\nd", "\r\r\n\n\r", "x\r", "界\r\n😀\r"} {
		l := newLineIndex([]byte(src))
		for off := 0; off <= len(src); off++ {
			line, _ := taskdoc.Position([]byte(src), off)
			assert.Equal(t, line, l.Line(off)+1, "%q offset %d", src, off)
		}
	}
}
