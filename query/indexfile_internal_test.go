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
