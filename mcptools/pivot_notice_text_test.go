package mcptools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireNoticeInJSONText checks a tool error with structured content
// while the caller's pivot is pending: the structured content carries
// pivot_request, and so does the JSON text that repeats it, equal to it
// by meaning whatever the order of its keys.
func requireNoticeInJSONText(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	require.True(t, res.IsError)
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var structured map[string]any
	require.NoError(t, json.Unmarshal(raw, &structured))
	require.Contains(t, structured, "pivot_request", "the structured content carries the notice")
	var texts []string
	repeats := 0
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		require.True(t, ok)
		texts = append(texts, tc.Text)
		var decoded map[string]any
		if json.Unmarshal([]byte(tc.Text), &decoded) != nil {
			continue
		}
		if _, ok := decoded["pivot_request"]; ok && len(decoded) > 1 {
			assert.Equal(t, structured, decoded, "the JSON text repeats the structured content")
			repeats++
		}
	}
	assert.Equal(t, 1, repeats, "one JSON text repeats the structured content with its notice; contents:\n%s",
		strings.Join(texts, "\n---\n"))
	assert.False(t, strings.HasPrefix(texts[0], "{"), "the error's text comes first: %s", texts[0])
}

// A failed batch is a tool error with structured content, and its JSON
// text, written from the Go value, has its keys in another order than the
// SDK's structured content: the pending pivot is added to both.
func TestPivotNoticeInFailedBatchText(t *testing.T) {
	e := setupPivot(t, 2)
	e.orch.ok("pivot_worker", map[string]any{"worker_id": e.worker, "reason": "regroup", "wait_seconds": 0}, nil)
	res, err := e.wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "subagent_task", Arguments: map[string]any{
		"document": "/shop.md", "operations": []any{
			map[string]any{"operation": "list"},
			map[string]any{"operation": "edit", "task": "nope", "content": "x"},
		}}})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text(res), "TASK_NOT_FOUND: "), text(res))
	requireNoticeInJSONText(t, res)
}

// pivot_worker's NO_ACK is a tool error with structured content too: a
// worker whose own pivot is pending, and that pivots another worker who
// does not answer, reads its notice in both.
func TestPivotNoticeInNoAckText(t *testing.T) {
	e := setupPivot(t, 3)
	other := e.others[0]
	second := other.register("worker-2")
	var claim claimJSON
	other.ok("task_claim", map[string]any{"task_id": e.fixLogin, "agent_id": second}, &claim)
	require.True(t, claim.Success)
	e.orch.ok("pivot_worker", map[string]any{"worker_id": second, "reason": "regroup", "wait_seconds": 0}, nil)

	e.timer.fire <- time.Time{} // the wait times out at once
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := other.cs.CallTool(ctx, &mcp.CallToolParams{Name: "pivot_worker",
		Arguments: map[string]any{"worker_id": e.worker, "reason": "hand over", "wait_seconds": 5}})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text(res), "NO_ACK: "), text(res))
	requireNoticeInJSONText(t, res)
}
