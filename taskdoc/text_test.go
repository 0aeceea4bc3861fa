package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/taskdoc"
)

// One definition of a control character, and of a note folded onto one
// line, for every package.
func TestIsControlAndFoldLine(t *testing.T) {
	for r, want := range map[rune]bool{0: true, '\t': true, '\n': true, 0x1f: true, ' ': false, 'a': false,
		0x7e: false, 0x7f: true, 0x80: true, 0x9b: true, 0x9f: true, 0xa0: false, 'é': false, 0x2028: false} {
		assert.Equal(t, want, taskdoc.IsControl(r), "U+%04X", r)
	}
	assert.Equal(t, "signed with RS256", taskdoc.FoldLine("  signed\r\nwith \t RS256\n"))
	assert.Equal(t, "", taskdoc.FoldLine(" \n "))
}
