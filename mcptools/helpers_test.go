package mcptools

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// newRoot writes a workspace with files (root-relative name -> text).
func newRoot(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		writeFile(t, root, name, data)
	}
	return root
}

func writeFile(t testing.TB, root, name, data string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}

func readFile(t testing.TB, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	require.NoError(t, err)
	return string(data)
}

// snapshot is every file of the workspace but the library's own state
// (.taskmd: lock files), by root-relative name.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() && rel == ".taskmd" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	require.NoError(t, err)
	return files
}

// text is the first text content of a result.
func text(res *mcp.CallToolResult) string {
	for _, content := range res.Content {
		if t, ok := content.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
