package query_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

var bg = context.Background()

func newWorkspace(t testing.TB, files map[string]string) (*workspace.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		writeFile(t, root, name, text)
	}
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws, root
}

func writeFile(t testing.TB, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
}

func requireCode(t *testing.T, err error, code taskdoc.Code) {
	t.Helper()
	require.Error(t, err)
	require.Equalf(t, code, taskdoc.CodeOf(err), "error: %v", err)
}
