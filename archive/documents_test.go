package archive_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/archive"
	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// Documents lists what Document archived, and Read reads both kinds of
// archive by the names the listings give.
func TestDocumentsListAndRead(t *testing.T) {
	const auth = "# Auth\n\n## Tasks\n\n### Sign\n\n- Status: completed\n- Note: done\n\n### Verify\n"
	ws, _ := newWorkspace(t, map[string]string{
		"docs/api/auth.md": auth, "docs/b.md": "# B\n", coordinator.File: finishedList,
		"archived/docs/broken.md": "bad \xff",
	})
	none, err := archive.Documents(bg, ws)
	require.NoError(t, err)
	require.Len(t, none, 1, "only the broken one so far")
	assert.Equal(t, taskdoc.CodeInvalidUTF8, none[0].Code)

	name, err := archive.Document(bg, ws, "/api/auth.md")
	require.NoError(t, err)
	_, err = archive.Document(bg, ws, "/b.md")
	require.NoError(t, err)
	require.NoError(t, archive.Recover(bg, ws))

	docs, err := archive.Documents(bg, ws)
	require.NoError(t, err)
	require.Len(t, docs, 3)
	assert.Equal(t, archive.DocumentEntry{Address: "/archived/docs/api/auth.md", File: name, Title: "Auth", Tasks: 2,
		Counts: map[taskdoc.Status]int{taskdoc.StatusCompleted: 1, taskdoc.StatusPending: 1}}, docs[0])
	assert.Equal(t, "/archived/docs/b.md", docs[1].Address)
	assert.Equal(t, "/archived/docs/broken.md", docs[2].Address)

	for _, n := range []string{docs[0].File, docs[0].Address} {
		data, err := archive.Read(bg, ws, n)
		require.NoError(t, err, n)
		assert.Equal(t, auth, string(data))
	}
	lists, err := archive.List(bg, ws)
	require.NoError(t, err)
	require.Len(t, lists, 1)
	data, err := archive.Read(bg, ws, lists[0].Name)
	require.NoError(t, err)
	assert.Equal(t, finishedList, string(data))
}

func TestDocumentsEmpty(t *testing.T) {
	ws, _ := newWorkspace(t, nil)
	docs, err := archive.Documents(bg, ws)
	require.NoError(t, err)
	assert.Empty(t, docs)
}
