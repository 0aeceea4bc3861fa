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
	require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err))

	some := "# D\n\n" + strings.Repeat(line, 1000) + "\n## Tasks\n\n### A\n"
	doc, err := taskdoc.Parse([]byte(some))
	require.NoError(t, err, "1,000 lines 100 deep are within MaxNestingWork")
	_, _, err = doc.AddTask(taskdoc.NewTask{Title: "B", Content: strings.Repeat(line, 1500)})
	require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err), "an edit may not pass the limit either")
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
	require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err))
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

// fill is a document of size bytes: a title, then line(1), line(2), ...
// until it is full, padded with "x" before its last line feed, then a
// Tasks section with one task.
func fill(size int, line func(i int) string) []byte {
	const tail = "\n## Tasks\n\n### A\n"
	var b strings.Builder
	b.Grow(size)
	b.WriteString("# D\n\n")
	for i := 1; ; i++ {
		l := line(i)
		if b.Len()+len(l)+len(tail) > size {
			break
		}
		b.WriteString(l)
	}
	b.WriteString(strings.Repeat("x", size-len(tail)-b.Len()))
	b.WriteString(tail)
	return []byte(b.String())
}

// goldmark keeps about 300 bytes for every line inside a block and 700
// more for every list item: 16 MiB, within the workspace's size limit, of
// one-line list items took 1.7 GB to read, of one paragraph of "a" lines
// 2.4 GB, of one-line paragraphs 700 MB, and of blank lines inside a list
// item or a code fence 4.7 GB. Such documents are refused by the scan of
// their lines, before goldmark runs, pointing at the first line past the
// limit, at a cost in memory below the document's own size.
func TestManyLinesAndItemsAreRefusedCheaply(t *testing.T) {
	tests := []struct {
		name  string
		line  func(i int) string
		first string // the start of the first line past the limit
		limit int    // the limit passed
		lines int    // the lines before the first counted one
	}{
		{"list items", func(i int) string { return "- T" + strconv.Itoa(i) + "\n" }, "- T", taskdoc.MaxListItems, 2},
		{"ordered list items", func(i int) string { return strconv.Itoa(i) + ". T\n" }, "", taskdoc.MaxListItems, 2},
		{"one paragraph", func(int) string { return "a\n" }, "a", taskdoc.MaxLines, 0},
		{"one paragraph of words", func(i int) string { return "T" + strconv.Itoa(i) + "\n" }, "T", taskdoc.MaxLines, 0},
		{"paragraphs", func(i int) string { return "T" + strconv.Itoa(i) + "\n\n" }, "T", taskdoc.MaxLines, 0},
		{"blank lines in a list item", func(i int) string {
			if i == 1 {
				return "- a\n"
			}
			return "\n"
		}, "", taskdoc.MaxLines, 0},
		{"blank lines in a code fence", func(i int) string {
			if i == 1 {
				return "```\n"
			}
			return "\n"
		}, "", taskdoc.MaxLines, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := fill(16<<20, tt.line)
			require.Equal(t, 16<<20, len(src))
			var err error
			allocated := allocatedBy(func() { _, err = taskdoc.Parse(src) })
			require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err))
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, taskdoc.CodeTooComplex, e.Code)
			assert.Equal(t, tt.lines+tt.limit+1, e.Line, "%v", err)
			assert.Contains(t, e.Msg, strconv.Itoa(tt.limit))
			assert.Contains(t, e.Msg, "split the document")
			assert.True(t, strings.HasPrefix(e.Excerpt, tt.first), "%v", err)
			assert.Less(t, allocated, uint64(len(src)),
				"refusing %d bytes allocated %d bytes", len(src), allocated)
		})
	}
}

// A document at MaxListItems or MaxLines is read, one more item or line
// is refused, and the limits bound what reading costs: at most 1.5 KB a
// list item (about 1.1 KB measured), 500 bytes a line (about 300).
func TestDocumentsAtItemAndLineLimitsAreRead(t *testing.T) {
	tests := []struct {
		name    string
		limit   int
		prefix  string // the lines before the repeated one
		line    string // the repeated line
		times   int    // how often it is repeated at the limit
		suffix  string
		perUnit uint64 // the bytes reading may take per unit of the limit
	}{
		// The task's Status field is one more list item.
		{"list items", taskdoc.MaxListItems, "# D\n\n", "- T\n", taskdoc.MaxListItems - 1,
			"\n## Tasks\n\n### A\n\n- Status: pending\n", 1500},
		// "# D", a blank line, the paragraph, a blank line, "## Tasks", a
		// blank line, "### A".
		{"lines of a paragraph", taskdoc.MaxLines, "# D\n\n", "a\n", taskdoc.MaxLines - 6,
			"\n## Tasks\n\n### A\n", 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.prefix + strings.Repeat(tt.line, tt.times) + tt.suffix)
			var doc *taskdoc.Document
			var err error
			allocated := allocatedBy(func() { doc, err = taskdoc.Parse(src) })
			require.NoError(t, err, "a document at the limit is read")
			assert.Len(t, doc.Tasks, 1)
			assert.Less(t, allocated, tt.perUnit*uint64(tt.limit),
				"reading %d bytes at the limit of %d allocated %d bytes", len(src), tt.limit, allocated)

			over := []byte(tt.prefix + strings.Repeat(tt.line, tt.times+1) + tt.suffix)
			_, err = taskdoc.Parse(over)
			require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err), "one more is refused")
			assert.Contains(t, err.Error(), strconv.Itoa(tt.limit))
		})
	}
}

// An edit keeps the counts of lines and list items that it removes and
// adds: at MaxLines, removing a task makes room for another, and no more.
func TestEditsKeepLineAndItemCounts(t *testing.T) {
	// "# D", the blank lines, "## Tasks", a blank line, "### A", a blank
	// line, "### B".
	src := "# D\n" + strings.Repeat("\n", taskdoc.MaxLines-6) + "## Tasks\n\n### A\n\n### B\n"
	doc := mustParse(t, []byte(src))
	_, _, err := doc.AddTask(taskdoc.NewTask{Title: "C"})
	require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err), "no room at the limit")

	nd, err := doc.RemoveTask("b")
	require.NoError(t, err)
	nd, _, err = nd.AddTask(taskdoc.NewTask{Title: "C"})
	require.NoError(t, err, "the removed task's lines make room")
	_, err = taskdoc.Parse(nd.Source)
	require.NoError(t, err, "the edited document is read")
	_, _, err = nd.AddTask(taskdoc.NewTask{Title: "D"})
	require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err), "the added task's lines are counted")

	items := "# D\n\n" + strings.Repeat("- T\n", taskdoc.MaxListItems-1) + "\n## Tasks\n\n### A\n\n### B\n"
	doc = mustParse(t, []byte(items))
	nd, _, err = doc.SetStatus("a", taskdoc.StatusBlocked)
	require.NoError(t, err, "the last item within the limit")
	_, _, err = nd.SetStatus("b", taskdoc.StatusBlocked)
	require.Equal(t, taskdoc.CodeTooComplex, taskdoc.CodeOf(err), "the added Status field is counted")
	nd, _, err = nd.SetStatus("a", taskdoc.StatusPending)
	require.NoError(t, err, "a status changed at the limit")
	_, err = taskdoc.Parse(nd.Source)
	require.NoError(t, err, "the edited document is read")
}
