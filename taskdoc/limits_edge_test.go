package taskdoc_test

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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

// oneLineTasks is a document of n tasks that are a heading each, "### T1",
// "### T2", ..., their titles padded so that the document is size bytes.
func oneLineTasks(n, size int) []byte {
	var b strings.Builder
	b.Grow(size)
	b.WriteString("# D\n\n## Tasks\n\n")
	for i := 1; i <= n; i++ {
		line := "### T" + strconv.Itoa(i)
		if pad := (size-b.Len())/(n-i+1) - len(line) - 2; pad > 0 {
			line += " " + strings.Repeat("x", pad)
		}
		b.WriteString(line + "\n")
	}
	return []byte(b.String())
}

// A document of 16 MiB, within the workspace's size limit, may hold half
// a million one-line tasks, which cost about 800 MB and a second to read:
// one with more than MaxHeadings headings is refused by the scan of its
// lines, before any of them is read, pointing at the first heading past
// the limit, at a cost in memory below the document's own size.
func TestManyTasksAreRefusedCheaply(t *testing.T) {
	src := oneLineTasks(527632, 16<<20)
	require.Equal(t, 16<<20, len(src))
	var err error
	allocated := allocatedBy(func() { _, err = taskdoc.Parse(src) })
	require.ErrorIs(t, err, taskdoc.ErrTooComplex)
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, taskdoc.CodeTooComplex, e.Code)
	// Line 1 is "# D", line 3 "## Tasks", task i on line 4+i.
	assert.Equal(t, 4+taskdoc.MaxHeadings-1, e.Line, "%v", err)
	assert.Contains(t, e.Msg, "split the document")
	assert.Less(t, allocated, uint64(len(src)),
		"refusing %d bytes allocated %d bytes", len(src), allocated)

	doc, err := taskdoc.Parse(oneLineTasks(taskdoc.MaxHeadings-2, 1<<20))
	require.NoError(t, err, "a document at the limit is read")
	assert.Len(t, doc.Tasks, taskdoc.MaxHeadings-2)
}

// allocatedBy is the number of bytes fn allocates (with anything else
// running, which the tests of this package do not at that time).
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
