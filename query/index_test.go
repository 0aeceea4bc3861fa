package query_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/workspace"
)

// indexFiles is a workspace of 30 documents, one that cannot be read (not
// UTF-8), one that no address names, and a coordinator list.
func indexFiles() map[string]string {
	files := map[string]string{
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Plan\n- Status: in_progress\n",
		"docs/broken.md":        "# Broken \xff\n",
		"docs/coordinator/x.md": "# X\n\n## Tasks\n\n### One\n",
	}
	for i := range 30 {
		files[fmt.Sprintf("docs/area-%d/doc-%02d.md", i%3, i)] = fmt.Sprintf(
			"# Doc %d\n\n## Tasks\n\n### One\n- Status: completed\n\n### Two\n- Status: pending\n", i)
	}
	return files
}

// fullParses counts the documents fn parses in full.
func fullParses(fn func()) int64 {
	docs, _ := parsecount.During(fn)
	return docs
}

// newProcess opens root as a process that never read it would.
func newProcess(t *testing.T, root string) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws
}

// TestIndexLetsANewProcessListWithoutParsing: the first listing with the
// index writes it; a new process lists the same documents without a
// parse; a document changed meanwhile is parsed again, one removed is
// gone; every listing equals the one without the index.
func TestIndexLetsANewProcessListWithoutParsing(t *testing.T) {
	ws, root := newWorkspace(t, indexFiles())
	want, err := query.Documents(bg, ws)
	require.NoError(t, err)

	var got []query.Document
	first := newProcess(t, root)
	assert.Equal(t, int64(32), fullParses(func() { got, err = query.Documents(bg, first, query.WithIndex()) }))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	_, err = os.Stat(filepath.Join(root, filepath.FromSlash(".taskmd/index/documents")))
	require.NoError(t, err)

	second := newProcess(t, root)
	assert.Zero(t, fullParses(func() { got, err = query.Documents(bg, second, query.WithIndex()) }),
		"the broken document is refused before any parse, the others are known")
	require.NoError(t, err)
	assert.Equal(t, want, got)

	// Changed and removed outside: the same length, one byte different.
	filetest.Write(t, root, "docs/area-1/doc-01.md", "# Doc 1\n\n## Tasks\n\n### One\n- Status: completed\n\n### Two\n- Status: blocked\n")
	require.NoError(t, os.Remove(filepath.Join(root, "docs/area-2/doc-02.md")))
	want, err = query.Documents(bg, newProcess(t, root))
	require.NoError(t, err)
	third := newProcess(t, root)
	assert.Equal(t, int64(1), fullParses(func() { got, err = query.Documents(bg, third, query.WithIndex()) }))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Len(t, got, 32)
}

// TestIndexThatDoesNotFit: an index of another format, one that does not
// decode, and one whose versions do not match the files are not used;
// the listing is right and the index rebuilt.
func TestIndexThatDoesNotFit(t *testing.T) {
	ws, root := newWorkspace(t, indexFiles())
	want, err := query.Documents(bg, ws)
	require.NoError(t, err)
	index := filepath.Join(root, filepath.FromSlash(".taskmd/index/documents"))
	const header = "taskmd document index 2\n"
	for name, content := range map[string]string{
		"garbage":    "{not an index",
		"format":     "taskmd document index 99\n",
		"stale":      header + `"docs/area-0/doc-00.md"	"0000"	"/area-0/doc-00.md"	"Wrong"	""	""	0` + "\n",
		"cut":        header + `"docs/area-0/doc-00.md"	"0000"`,
		"bad count":  header + `"docs/area-0/doc-00.md"	"0000"	"/area-0/doc-00.md"	"Wrong"	""	""	1	"pending"	x` + "\n",
		"empty file": "",
	} {
		require.NoError(t, os.MkdirAll(filepath.Dir(index), 0o755))
		require.NoError(t, os.WriteFile(index, []byte(content), 0o644))
		got, err := query.Documents(bg, newProcess(t, root), query.WithIndex())
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
		assert.Zero(t, fullParses(func() {
			_, err = query.Documents(bg, newProcess(t, root), query.WithIndex())
		}), "%s: rebuilt", name)
	}
}
