package taskcontext_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// loadWorkspace writes files (root-relative name -> content) into a fresh
// root and opens it.
func loadWorkspace(t testing.TB, files map[string]string, opts ...workspace.Option) *workspace.Workspace {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	ws, err := workspace.Open(root, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// symlink makes the root-relative name a link to target (absolute).
func symlink(t testing.TB, ws *workspace.Workspace, name, target string) {
	t.Helper()
	p := filepath.Join(ws.Root(), filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.Symlink(target, p))
}

func ref(raw, path, section string) taskdoc.Reference {
	return taskdoc.Reference{Raw: raw, Path: path, Section: section}
}

// parseTask parses one task with the given metadata and body, as a
// document would hold it.
func parseTask(t testing.TB, content string) *taskdoc.Task {
	t.Helper()
	doc, err := taskdoc.Parse([]byte("# Plan\n\n## Tasks\n\n### Do it\n\n" + content))
	require.NoError(t, err)
	require.Len(t, doc.Tasks, 1)
	return &doc.Tasks[0]
}

// paths flattens a loaded tree as "depth:path" in depth-first order, for
// comparing shapes.
func paths(docs []taskcontext.LoadedDocument) []string {
	var out []string
	for _, d := range docs {
		out = append(out, string(rune('0'+d.Depth))+":"+d.Path)
		out = append(out, paths(d.Children)...)
	}
	return out
}
