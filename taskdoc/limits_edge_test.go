package taskdoc_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// A document within MaxNesting on every line costs goldmark time with the
// square of its depth on every line (20,000 lines 100 deep took 3 s): the
// whole document's nesting is bounded too (MaxNestingWork), so such a
// document is refused, while one with a few such lines is read.
func TestDeepOnEveryLineIsRefused(t *testing.T) {
	line := strings.Repeat("- ", taskdoc.MaxNesting) + "a\n"
	deep := "# D\n\n" + strings.Repeat(line, 20000) + "\n## Tasks\n\n### A\n"
	_, err := taskdoc.Parse([]byte(deep))
	require.ErrorIs(t, err, taskdoc.ErrTooComplex)

	some := "# D\n\n" + strings.Repeat(line, 1000) + "\n## Tasks\n\n### A\n"
	doc, err := taskdoc.Parse([]byte(some))
	require.NoError(t, err, "1,000 lines 100 deep are within MaxNestingWork")
	_, _, err = doc.AddTask(taskdoc.NewTask{Title: "B", Content: strings.Repeat(line, 1500)})
	require.ErrorIs(t, err, taskdoc.ErrTooComplex, "an edit may not pass the limit either")
}

// The C1 controls U+0080 to U+009F are control characters too (Unicode Cc),
// invisible in a title, and U+009B is CSI for 8-bit terminals: edits write
// none of them.
func TestC1ControlCharacterInTitleIsRefused(t *testing.T) {
	doc := mustParse(t, []byte("# D\n\n## Tasks\n\n### A\n\nbody\n"))
	for _, title := range []string{"X\u009bY", "X\u0085Y"} {
		_, _, err := doc.EditTask("a", taskdoc.Edit{Title: title})
		require.ErrorIs(t, err, taskdoc.ErrControlCharacter, "title %q", title)
		_, _, err = doc.AddTask(taskdoc.NewTask{Title: "B", Content: "text " + title})
		require.ErrorIs(t, err, taskdoc.ErrControlCharacter, "content %q", title)
	}
}
