package editor_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/workspace"
)

// newTestWorkspace opens a workspace on a new temporary directory that
// holds files, by workspace path ("docs/api/auth.md") and content. The
// workspace is closed when the test ends.
func newTestWorkspace(t testing.TB, files map[string]string) *workspace.Workspace {
	t.Helper()
	root := t.TempDir()
	writeTestFiles(t, root, files)
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ws.Close() })
	return ws
}

// writeTestFiles writes files (workspace path to content) under root,
// making their folders: the way someone else changes files on disk, with
// no lock and no Session involved.
func writeTestFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// newTestSession returns a Session with opts on a new workspace holding
// files (see newTestWorkspace), and the workspace.
func newTestSession(t testing.TB, files map[string]string, opts ...editor.Option) (*editor.Session, *workspace.Workspace) {
	t.Helper()
	ws := newTestWorkspace(t, files)
	s, err := editor.New(ws, opts...)
	require.NoError(t, err)
	return s, ws
}

// span is a Range written as its start and end line and character.
func span(startLine, startChar, endLine, endChar int) editor.Range {
	return editor.Range{
		Start: editor.Position{Line: startLine, Character: startChar},
		End:   editor.Position{Line: endLine, Character: endChar},
	}
}
