package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/workspace"
)

// task_load_context's max_tokens bounds the answer the agent receives,
// its JSON text whole (every checkpoint's fields and the cut list
// included), and its tokens field is that answer's estimate: at every
// budget, for a task with twelve checkpoints of 4 KB, with and without
// all_checkpoints.
func TestLoadContextBudgetIsTheAnswer(t *testing.T) {
	root := newRoot(t, map[string]string{
		"docs/plan.md": "# Plan\n\nWhat the plan is for.\n\n## Tasks\n\n### Work\n\n- Status: in_progress\n\n" +
			strings.Repeat("The task's own words, to be read. ", 60) + "\n",
	})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { return now }
	plans := plan.New(ws, plan.WithClock(clock))
	ctx := context.Background()
	for i := 1; i <= 12; i++ {
		_, err := plans.AddEntry(ctx, "/plan.md#work", plan.Claimant{}, journal.Entry{Agent: "worker-1",
			Type: journal.TypeProgress, Summary: fmt.Sprintf("step %d of the work, with a summary line", i),
			FilesChanged: []string{"src/a.go", "src/b.go", "docs/notes.md"},
			Detail:       strings.Repeat(fmt.Sprintf("detail %d: what happened & why <here>. ", i), 100)})
		require.NoError(t, err)
	}
	server, err := NewServer(ws, WithClock(clock))
	require.NoError(t, err)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	session, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "v0"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { session.Close() })

	budgets := []int{100, 150, 200, 300, 400, 500, 600, 800}
	for b := 1000; b <= 8000; b += 500 {
		budgets = append(budgets, b)
	}
	for _, all := range []bool{false, true} {
		budgets := budgets
		for i := 0; i < len(budgets); i++ {
			budget := budgets[i]
			what := fmt.Sprintf("max_tokens %d, all_checkpoints %v", budget, all)
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "task_load_context", Arguments: map[string]any{
				"task_id": "/plan.md#work", "max_tokens": budget, "include": map[string]any{"all_checkpoints": all}}})
			require.NoError(t, err, what)
			answer := text(res)
			if res.IsError && budget < 200 {
				// Below the smallest answer: refused, naming the least budget,
				// which serves.
				least := leastBudget(t, answer, budget)
				assert.Greater(t, least, budget, what)
				budgets = append(budgets, least)
				continue
			}
			require.False(t, res.IsError, "%s: %s", what, answer)
			size := taskcontext.DefaultEstimator(answer)
			assert.LessOrEqual(t, size, budget, "%s: the answer is %d bytes", what, len(answer))
			var got struct {
				Tokens      int `json:"tokens"`
				CurrentTask struct {
					ID, Title, Status string
				} `json:"current_task"`
			}
			require.NoError(t, json.Unmarshal([]byte(answer), &got), what)
			assert.Equal(t, size, got.Tokens, "%s: tokens is the answer's size", what)
			assert.Equal(t, "/plan.md#work", got.CurrentTask.ID, what)
			assert.Equal(t, "in_progress", got.CurrentTask.Status, what)
		}
	}

	// A budget the smallest answer does not fit: refused, naming the least.
	long := strings.Repeat("A very long title ", 40)
	root2 := newRoot(t, map[string]string{"docs/p.md": "# P\n\n## Tasks\n\n### " + long + "\n\n- Status: pending\n"})
	call := inProcess(t, root2, clock)
	slug := strings.Trim(strings.ReplaceAll(strings.ToLower(long), " ", "-"), "-")
	out, failed := call("task_load_context", map[string]any{"task_id": "/p.md#" + slug, "max_tokens": 100})
	require.True(t, failed, "%v", out)
	least := leastBudget(t, out["error"].(string), 100)
	out, failed = call("task_load_context", map[string]any{"task_id": "/p.md#" + slug, "max_tokens": least})
	require.False(t, failed, "%v", out)
	assert.LessOrEqual(t, out["tokens"], float64(least), "the least budget named serves")
}

// leastBudget reads the least budget a refusal of max_tokens budget names.
func leastBudget(t *testing.T, msg string, budget int) int {
	t.Helper()
	require.True(t, strings.HasPrefix(msg, fmt.Sprintf("INVALID_ARGUMENTS: max_tokens %d ", budget)), msg)
	var least int
	_, err := fmt.Sscanf(msg[strings.LastIndex(msg, "give at least "):], "give at least %d", &least)
	require.NoError(t, err, msg)
	return least
}
