package mcptools

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/workspace"
)

// The server has one clock, passed in: completion dates in the files, the
// timestamps of results and archive names all come from it, never from the
// wall clock.
func TestOneClock(t *testing.T) {
	root := newRoot(t, map[string]string{
		"docs/api.md": "# API\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n",
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n" +
			"- Status: in_progress\n- Main-Workflow: tdd\n",
	})
	day := time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC)
	call := inProcess(t, root, func() time.Time { return day })
	done, _ := call("complete_subagent_task", map[string]any{"document": "/api.md#sign-tokens", "note": "signed"})
	assert.Equal(t, "2031-02-03", done["timestamp"])
	assert.Contains(t, filetest.Snapshot(t, root)["docs/api.md"], "- Completed: 2031-02-03\n")

	last, _ := call("complete_coordinator_task", map[string]any{"note": "led"})
	assert.Equal(t, "2031-02-03", last["timestamp"])
	files := filetest.Snapshot(t, root)
	assert.Contains(t, files, "archived/coordinator/active-2031-02-03-040506.md", "the archive is named by the server's clock")
}

// inProcess serves root in this process on the clock now and returns a
// function that calls a tool and decodes its structured content, and
// whether the call was a tool error (whose text is then under "error").
func inProcess(t *testing.T, root string, now func() time.Time) func(tool string, args any) (map[string]any, bool) {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server, err := NewServer(ws, WithClock(now))
	require.NoError(t, err)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	session, err := mcp.NewClient(&mcp.Implementation{Name: "in-process", Version: "v0"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { session.Close() })
	return func(tool string, args any) (map[string]any, bool) {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		require.NoError(t, err)
		out := map[string]any{}
		if res.StructuredContent != nil {
			raw, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &out))
		}
		if res.IsError && len(res.Content) > 0 {
			if text, ok := res.Content[0].(*mcp.TextContent); ok {
				out["error"] = text.Text // "CODE: message"
			}
		}
		return out, res.IsError
	}
}
