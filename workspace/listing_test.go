package workspace_test

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// TestFSConforms: the workspace's FS passes the standard library's checks
// of an fs.FS (every file found by a walk opens, reads and stats as its
// listing says), over nested folders of documents.
func TestFSConforms(t *testing.T) {
	root := t.TempDir()
	var want []string
	for _, name := range []string{"docs/a.md", "docs/b/c.md", "docs/b/d/e.md", "notes.txt"} {
		filetest.Write(t, root, name, "# "+name+"\n")
		want = append(want, name)
	}
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	require.NoError(t, fstest.TestFS(ws.FS(), want...))
}

// TestFSOfAClosedWorkspace: every call fails with WORKSPACE_NOT_OPEN.
func TestFSOfAClosedWorkspace(t *testing.T) {
	var ws *workspace.Workspace
	_, err := fs.ReadDir(ws.FS(), ".")
	assert.Equal(t, taskdoc.CodeNotOpen, taskdoc.CodeOf(err))
}
