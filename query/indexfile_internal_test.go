package query

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// TestIndexFileRoundTrip: every summary comes back as it was written,
// whatever its title, address and statuses hold (tabs, line breaks,
// quotes, other scripts), empty counts and errors included; a line
// damaged in any field is refused.
func TestIndexFileRoundTrip(t *testing.T) {
	docs := map[string]indexed{
		"docs/a.md": {Version: "v1", Document: Document{File: "docs/a.md", Address: "/a.md", Title: "A\ttab \"quoted\"\nnext line",
			Tasks: 3, Counts: map[taskdoc.Status]int{"pending": 2, "waiting on\tsomeone": 1}}},
		"docs/é b.md": {Version: "v2", Document: Document{File: "docs/é b.md", Address: "/é b.md", Title: "",
			Tasks: 0, Counts: map[taskdoc.Status]int{}}},
		"docs/coordinator/x.md": {Version: "v3", Document: Document{File: "docs/coordinator/x.md",
			Error: "docs/coordinator/x.md: no address names it", Code: taskdoc.CodeInvalidAddress, Counts: map[taskdoc.Status]int{}}},
		"coordinator/active.md": {Version: workspace.VersionOf([]byte("x")), Document: Document{File: "coordinator/active.md",
			Address: "/coordinator/active.md", Title: "Coordinator Tasks", Tasks: 1, Counts: map[taskdoc.Status]int{"completed": 1}}},
	}
	data := encodeIndex(docs)
	got, ok := decodeIndex(data)
	require.True(t, ok, "%s", data)
	assert.Equal(t, docs, got)
	assert.Equal(t, data, encodeIndex(got), "the same index writes the same bytes")

	none, ok := decodeIndex([]byte(indexHeader + "\n"))
	assert.True(t, ok)
	assert.Empty(t, none)

	line := `"docs/a.md"	"v1"	"/a.md"	"A"	""	""	1	"pending"	1`
	for _, bad := range []string{
		`docs/a.md	"v1"	"/a.md"	"A"	""	""	1`,               // a field not quoted
		`"docs/a.md"	"v1"	"/a.md"	"A"	""	""	-1`,            // a negative count
		`"docs/a.md"	"v1"	"/a.md"	"A"	""	""	1	"pending"`,   // a status without its count
		`"docs/a.md"	"v1"	"/a.md"	"A"	""	""	1	"pending"	0`, // a status no task has
		`"docs/a.md"	"v1"	"/a.md"	"A"	1`,                   // a line of the format before errors were kept
		`"docs/a.md"	"v1"	"/a.md"`,
	} {
		_, ok := decodeIndex([]byte(indexHeader + "\n" + bad + "\n"))
		assert.False(t, ok, bad)
	}
	_, ok = decodeIndex([]byte(indexHeader + "\n" + line + "\n"))
	assert.True(t, ok)
}

// FuzzIndexFile: whatever decodeIndex accepts (a damaged or hand-edited
// index), writing it again and reading that back gives the same
// summaries, and a second write the same bytes; nothing it reads panics.
func FuzzIndexFile(f *testing.F) {
	f.Add([]byte(indexHeader + "\n"))
	f.Add([]byte(indexHeader + "\n" + `"docs/a.md"	"v1"	"/a.md"	"A\tb"	""	""	3	"pending"	2	"x y"	1` + "\n"))
	f.Add([]byte(indexHeader + "\n" + `"docs/b.md"	"v2"	""	""	"bad"	"PARSE_ERROR"	0` + "\n" +
		`"docs/a.md"	"v1"	"/a.md"	"\u00e9"	""	""	1	"completed"	1` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, ok := decodeIndex(data)
		if !ok {
			return
		}
		written := encodeIndex(docs)
		again, ok := decodeIndex(written)
		if !ok {
			t.Fatalf("%q: the index written from it is refused:\n%s", data, written)
		}
		if !assert.ObjectsAreEqual(docs, again) {
			t.Fatalf("%q: read %#v, then %#v", data, docs, again)
		}
		if rewritten := encodeIndex(again); string(rewritten) != string(written) {
			t.Fatalf("%q: written twice differently:\n%s\n%s", data, written, rewritten)
		}
	})
}
