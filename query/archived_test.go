package query_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

// finishedList is a coordinator list whose every task is completed: the
// list's next operation archives it.
const finishedList = "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: completed\n- Main-Workflow: m\n- Completed: 2026-11-22\n- Note: done\n"

func TestReadArchived(t *testing.T) {
	ws, _ := newWorkspace(t, map[string]string{
		"archived/coordinator/active-2026-11-22-093000.md": "list",
		"archived/docs/api/auth.md":                        "doc",
		coordinator.File:                                   "# Coordinator Tasks\n",
		"docs/secret.md":                                   "not archived",
	})
	tests := []struct {
		name string
		want string
		code taskdoc.Code
	}{
		{"archived/coordinator/active-2026-11-22-093000.md", "list", ""},
		{"/archived/coordinator/active-2026-11-22-093000.md", "list", ""},
		{"archived/docs/api/auth.md", "doc", ""},
		{"archived/coordinator/active-2000-01-01-000000.md", "", taskdoc.CodeDocumentNotFound},
		{coordinator.File, "", taskdoc.CodeInvalidAddress},
		{"docs/secret.md", "", taskdoc.CodeInvalidAddress},
		{"archived/../docs/secret.md", "", taskdoc.CodeInvalidAddress},
		{"archived/./docs/api/auth.md", "", taskdoc.CodeInvalidAddress},
		{"../archived/docs/api/auth.md", "", taskdoc.CodeInvalidAddress},
		{"archived/", "", taskdoc.CodeInvalidAddress},
		{"archived", "", taskdoc.CodeInvalidAddress},
		{"", "", taskdoc.CodeInvalidAddress},
		{"archived\\docs\\api\\auth.md", "", taskdoc.CodeInvalidAddress},
	}
	for _, tt := range tests {
		data, err := query.ReadArchived(bg, ws, tt.name)
		if tt.code != "" {
			requireCode(t, err, tt.code)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, string(data), tt.name)
	}
}

// ArchivedDocuments lists what subagent.Tasks.Archive archived, and
// ReadArchived reads both kinds of archive by the names the listings give.
func TestArchivedDocumentsListAndRead(t *testing.T) {
	const auth = "# Auth\n\n## Tasks\n\n### Sign\n\n- Status: completed\n- Note: done\n\n### Verify\n"
	ws, _ := newWorkspace(t, map[string]string{
		"docs/api/auth.md": auth, "docs/b.md": "# B\n", coordinator.File: finishedList,
		"archived/docs/broken.md": "bad \xff",
	})
	none, err := query.ArchivedDocuments(bg, ws)
	require.NoError(t, err)
	require.Len(t, none, 1, "only the broken one so far")
	assert.Equal(t, taskdoc.CodeInvalidUTF8, none[0].Code)

	name, err := subagent.New(ws).Archive(bg, "/api/auth.md")
	require.NoError(t, err)
	_, err = subagent.New(ws).Archive(bg, "/b.md")
	require.NoError(t, err)
	require.NoError(t, coordinator.New(ws).Recover(bg))

	docs, err := query.ArchivedDocuments(bg, ws)
	require.NoError(t, err)
	require.Len(t, docs, 3)
	assert.Equal(t, query.Document{Address: "/archived/docs/api/auth.md", File: name, Title: "Auth", Tasks: 2,
		Counts: map[taskdoc.Status]int{taskdoc.StatusCompleted: 1, taskdoc.StatusPending: 1}}, docs[0])
	assert.Equal(t, "/archived/docs/b.md", docs[1].Address)
	assert.Equal(t, "/archived/docs/broken.md", docs[2].Address)

	for _, n := range []string{docs[0].File, docs[0].Address} {
		data, err := query.ReadArchived(bg, ws, n)
		require.NoError(t, err, n)
		assert.Equal(t, auth, string(data))
	}
	lists, err := coordinator.New(ws).Archives(bg)
	require.NoError(t, err)
	require.Len(t, lists, 1)
	data, err := query.ReadArchived(bg, ws, lists[0].Name)
	require.NoError(t, err)
	assert.Equal(t, finishedList, string(data))
}

func TestArchivedDocumentsEmpty(t *testing.T) {
	ws, _ := newWorkspace(t, nil)
	docs, err := query.ArchivedDocuments(bg, ws)
	require.NoError(t, err)
	assert.Empty(t, docs)
}

// TestArchivedNotOpen: ReadArchived answers a nil workspace with
// WORKSPACE_NOT_OPEN, not a nil dereference; ArchivedDocuments, which
// lists through the workspace's root, with a typed error.
func TestArchivedNotOpen(t *testing.T) {
	zerotest.Funcs(t, map[string]any{"ReadArchived": query.ReadArchived}, "/archived/docs/a.md")
	_, err := query.ArchivedDocuments(bg, nil)
	assert.NotEmpty(t, taskdoc.CodeOf(err), "%v", err)
}
