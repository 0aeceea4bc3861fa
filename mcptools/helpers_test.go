package mcptools

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// newRoot writes a workspace with files (root-relative name -> text).
func newRoot(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		filetest.Write(t, root, name, data)
	}
	return root
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
