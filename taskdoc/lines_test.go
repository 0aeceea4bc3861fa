package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

func TestPosition(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		offset       int
		line, column int
	}{
		{"start", "ab\ncd", 0, 1, 1},
		{"LF", "ab\ncd", 3, 2, 1},
		{"after LF line's text", "ab\ncd", 4, 2, 2},
		{"end", "ab\ncd", 5, 2, 3},
		{"past the end", "ab\ncd", 99, 2, 3},
		{"before the start", "ab\ncd", -1, 1, 1},
		{"lone CR", "ab\rcd", 3, 2, 1},
		{"CRLF", "ab\r\ncd", 4, 2, 1},
		{"the CR of a CRLF", "ab\r\ncd", 2, 1, 3},
		{"the LF of a CRLF", "ab\r\ncd", 3, 1, 4},
		{"mixed", "a\rb\r\nc\nd\r\re", 10, 6, 1},
		{"blank lines of each kind", "\n\r\n\r\r\n", 6, 5, 1},
		{"lone CR at the end", "a\r", 2, 2, 1},
		{"multibyte columns", "# Café Über\n日本語 x", 22, 2, 5},
		{"column after a multibyte rune", "é\r\nüx", 6, 2, 2},
		{"invalid bytes count one each", "a\xff\xfeb", 4, 1, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, column := taskdoc.Position([]byte(tt.src), tt.offset)
			assert.Equal(t, tt.line, line, "line")
			assert.Equal(t, tt.column, column, "column")
		})
	}
}

func TestCheckUTF8(t *testing.T) {
	tests := []struct {
		name, src    string
		line, column int
	}{
		{"LF", "# A\n\nhé \xff here\n", 3, 4},
		{"lone CR", "# A\r\rhé \xff here\r", 3, 4},
		{"CRLF", "# A\r\n\r\nhé \xff here\r\n", 3, 4},
		{"first byte", "\xc3\x28", 1, 1},
		{"truncated at the end", "ok\n\xe6\x97", 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := taskdoc.CheckUTF8([]byte(tt.src))
			require.Equal(t, taskdoc.CodeInvalidUTF8, taskdoc.CodeOf(err))
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.line, e.Line)
			assert.Equal(t, tt.column, e.Column)
			_, perr := taskdoc.Parse([]byte(tt.src))
			assert.Equal(t, err, perr, "Parse reports the same error")
		})
	}
	assert.NoError(t, taskdoc.CheckUTF8([]byte("# Café\r\n日本")))
}
