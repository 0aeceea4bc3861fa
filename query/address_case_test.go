package query_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/query"
)

func addressesOf(ms []query.Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Address)
	}
	return out
}

// "/Coordinator/" names the coordinator's folder as "/coordinator/" does
// (taskdoc.Address.Folder ignores its case), so it finds its tasks, and
// every answer names them by their canonical address.
func TestFindDocumentFilterCase(t *testing.T) {
	ws, _ := newWorkspace(t, map[string]string{
		"coordinator/active.md": "# C\n\n## Tasks\n\n### A\n\n- Main-Workflow: m\n",
		"docs/api/x.md":         "## Tasks\n\n### X\n",
	})
	for _, filter := range []string{"/Coordinator/active.md", "/coordinator/active.md", "coordinator/active.md", "/Coordinator/", "/COORDINATOR/"} {
		got, err := query.Find(bg, ws, query.Filter{Document: filter})
		require.NoError(t, err, filter)
		assert.Equal(t, []string{"/coordinator/active.md#a"}, addressesOf(got), filter)
		require.Len(t, got, 1)
		assert.Equal(t, "/coordinator/active.md", got[0].Document, filter)
	}
	got, err := query.Find(bg, ws, query.Filter{DependsOn: "/Coordinator/active.md#a"})
	require.NoError(t, err)
	assert.Empty(t, got)
}

// A Depends-On with one entry that is no task address still lists the
// tasks its other entries name, as Remove reads it; an entry naming the
// coordinator list in another case names the list.
func TestFindDependsOnBesideBadEntry(t *testing.T) {
	ws, _ := newWorkspace(t, map[string]string{
		"coordinator/active.md": "# C\n\n## Tasks\n\n### A\n\n- Main-Workflow: m\n",
		"docs/api/auth.md":      "## Tasks\n\n### Setup keys\n\n### B\n\n- Depends-On: #setup-keys, not-an-address\n",
		"docs/other.md":         "## Tasks\n\n### D\n\n- Depends-On: ??, api/auth.md#setup-keys, /Coordinator/active.md#a\n",
	})
	got, err := query.Find(bg, ws, query.Filter{DependsOn: "/api/auth.md#setup-keys"})
	require.NoError(t, err)
	assert.Equal(t, []string{"/api/auth.md#b", "/other.md#d"}, addressesOf(got))
	got, err = query.Find(bg, ws, query.Filter{DependsOn: "/coordinator/active.md#a"})
	require.NoError(t, err)
	assert.Equal(t, []string{"/other.md#d"}, addressesOf(got))
}
