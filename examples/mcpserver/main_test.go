package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The example, built and run as an MCP client runs it, serves taskmd's
// tools on the workspace: a task created through it is in the file.
func TestExampleServes(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcpserver")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v0"}, nil)
	session, err := c.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "-root", root)}, nil)
	require.NoError(t, err)
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "subagent_task", Arguments: map[string]any{
		"document":   "/api/auth.md",
		"operations": []map[string]any{{"operation": "create", "title": "Sign tokens", "content": "Use ES256."}},
	}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%+v", res.Content)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "api", "auth.md"))
	require.NoError(t, err)
	assert.Contains(t, string(doc), "### Sign tokens")
}
