package query_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

var bg = context.Background()

func newWorkspace(t testing.TB, files map[string]string) (*workspace.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		filetest.Write(t, root, name, text)
	}
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws, root
}

func requireCode(t *testing.T, err error, code taskdoc.Code) {
	t.Helper()
	require.Error(t, err)
	require.Equalf(t, code, taskdoc.CodeOf(err), "error: %v", err)
}
