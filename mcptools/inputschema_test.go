package mcptools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/workspace"
)

// Every input of every tool has one plain JSON type, as a generic client
// sends it: no {"type": ["null", ...]} union. An optional input is left
// out, or written as null (as a Go client's nil slice is), and the call
// works either way.
func TestInputSchemasHavePlainTypes(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/a.md": "# A\n\n## Tasks\n\n### One\n\n- Status: pending\n"})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server, err := NewServer(ws)
	require.NoError(t, err)
	cs := connect(t, server, 1)[0].cs
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.NotEmpty(t, res.Tools)
	unions := 0
	for _, tool := range res.Tools {
		raw, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		if !assert.NotContains(t, string(raw), `"null"`, "tool %s's input schema has a null type: %s", tool.Name, raw) {
			unions++
		}
	}
	assert.Zero(t, unions)

	out, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tasks_find", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.False(t, out.IsError, text(out))
	out, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tasks_find", Arguments: map[string]any{"status": []string{"pending"}}})
	require.NoError(t, err)
	assert.False(t, out.IsError, text(out))
	out, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tasks_find", Arguments: map[string]any{"status": nil}})
	require.NoError(t, err)
	assert.False(t, out.IsError, "null is an absent list: %s", text(out))
}
