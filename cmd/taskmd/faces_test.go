package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/mcptools"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// heldTask is the task an agent holds in the faces' workspace.
const heldTask = "/shop/cart.md#fix-login-bug"

// TestEveryFaceGivesTheSameAnswer: completing, setting the status of,
// removing and claiming a task another agent holds give one answer
// through every face — Go (plan, subagent), MCP (a session that did not
// register, and one whose agent holds nothing) and the command line — and
// none writes a byte.
func TestEveryFaceGivesTheSameAnswer(t *testing.T) {
	root := newWorkspace(t)
	require.Equal(t, 0, taskmd(t, root, "", "agent", "register", "--id", "holder", "--name", "h", "--runtime", "test").exit)
	require.Equal(t, 0, taskmd(t, root, "", "agent", "register", "--id", "other", "--name", "o", "--runtime", "test").exit)
	require.Equal(t, 0, taskmd(t, root, "", "claim", heldTask, "--agent", "holder").exit)
	before := files(t, root)
	ctx := context.Background()

	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	now, err := time.Parse(time.RFC3339, testNow) // the CLI's clock: the agents are online
	require.NoError(t, err)
	clock := func() time.Time { return now }
	plans, tasks := plan.New(ws, plan.WithClock(clock)), subagent.New(ws, subagent.WithClock(clock))
	goErr := func(err error) taskdoc.Code { return taskdoc.CodeOf(err) }

	server, err := mcptools.NewServer(ws, mcptools.WithClock(clock))
	require.NoError(t, err)
	session := func(register bool) *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { ss.Close() })
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "face", Version: "v0"}, nil).Connect(ctx, ct, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		if register {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent_register", Arguments: map[string]any{"id": "other", "name": "o", "runtime": "test"}})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
		}
		return cs
	}
	mcpCode := func(cs *mcp.ClientSession, tool string, args map[string]any) taskdoc.Code {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		require.NoError(t, err)
		if !res.IsError {
			raw, _ := json.Marshal(res.StructuredContent)
			if strings.Contains(string(raw), `"already_claimed_by":"holder"`) {
				return "ALREADY_CLAIMED"
			}
			return ""
		}
		text := res.Content[0].(*mcp.TextContent).Text
		code, _, _ := strings.Cut(text, ":")
		return taskdoc.Code(code)
	}
	cliCode := func(args ...string) taskdoc.Code {
		r := taskmd(t, root, "", append([]string{"--json"}, args...)...)
		if r.exit == 0 {
			return ""
		}
		var e struct {
			Code taskdoc.Code `json:"code"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stderr), &e), r.stderr)
		return e.Code
	}
	anon, agent := session(false), session(true)

	cases := []struct {
		name string
		want taskdoc.Code
		got  map[string]taskdoc.Code
	}{
		{"complete", plan.CodeStaleClaim, map[string]taskdoc.Code{
			"go plan": goErr(func() error {
				_, err := plans.UpdateStatus(ctx, heldTask, plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "x"})
				return err
			}()),
			"go plan, agent": goErr(func() error {
				_, err := plans.UpdateStatus(ctx, heldTask, plan.Claimant{Agent: "other"}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "x"})
				return err
			}()),
			"go subagent":       goErr(func() error { _, err := tasks.Complete(ctx, heldTask, "x"); return err }()),
			"mcp plan":          mcpCode(anon, "task_update_status", map[string]any{"id": heldTask, "status": "completed", "outcome": "x"}),
			"mcp plan, agent":   mcpCode(agent, "task_update_status", map[string]any{"id": heldTask, "status": "completed", "outcome": "x"}),
			"mcp subagent":      mcpCode(anon, "complete_subagent_task", map[string]any{"document": heldTask, "note": "x"}),
			"mcp subagent, ag.": mcpCode(agent, "complete_subagent_task", map[string]any{"document": heldTask, "note": "x"}),
			"cli":               cliCode("complete", heldTask, "--note", "x"),
			"cli, agent":        cliCode("complete", heldTask, "--note", "x", "--agent", "other"),
		}},
		{"set status", plan.CodeStaleClaim, map[string]taskdoc.Code{
			"go subagent": goErr(func() error {
				_, err := tasks.SetStatus(ctx, heldTask, taskdoc.StatusBlocked, "x")
				return err
			}()),
			"go plan": goErr(func() error {
				_, err := plans.UpdateStatus(ctx, heldTask, plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusBlocked})
				return err
			}()),
			"mcp":        mcpCode(anon, "task_set_status", map[string]any{"task": heldTask, "status": "blocked", "reason": "x"}),
			"mcp, agent": mcpCode(agent, "task_set_status", map[string]any{"task": heldTask, "status": "blocked", "reason": "x"}),
			"cli":        cliCode("status", heldTask, "blocked", "--reason", "x"),
		}},
		{"remove", plan.CodeStaleClaim, map[string]taskdoc.Code{
			"go subagent": goErr(func() error {
				_, err := tasks.Remove(ctx, heldTask, taskdoc.Removal{Force: true})
				return err
			}()),
			"mcp":        mcpCode(anon, "task_remove", map[string]any{"task": heldTask, "force": true}),
			"mcp, agent": mcpCode(agent, "task_remove", map[string]any{"task": heldTask, "force": true}),
			"cli":        cliCode("rm", heldTask),
		}},
		{"claim", "ALREADY_CLAIMED", map[string]taskdoc.Code{
			"go plan": func() taskdoc.Code {
				res, err := plans.Claim(ctx, heldTask, "other")
				require.NoError(t, err)
				if res.AlreadyClaimedBy == "holder" {
					return "ALREADY_CLAIMED"
				}
				return ""
			}(),
			"mcp, agent": mcpCode(agent, "task_claim", map[string]any{"task_id": heldTask, "agent_id": "other"}),
			"cli":        cliCode("claim", heldTask, "--agent", "other"),
		}},
		{"bad address", taskdoc.CodeInvalidAddress, func() map[string]taskdoc.Code {
			got := map[string]taskdoc.Code{}
			for i, bad := range []string{"/shop/../cart.md#x", "/" + strings.Repeat("a", 300) + ".md#x"} {
				n := fmt.Sprint(" ", i)
				got["go subagent"+n] = goErr(func() error { _, err := tasks.Complete(ctx, bad, "x"); return err }())
				got["go plan"+n] = goErr(func() error {
					_, err := plans.UpdateStatus(ctx, bad, plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "x"})
					return err
				}())
				got["mcp subagent"+n] = mcpCode(anon, "complete_subagent_task", map[string]any{"document": bad, "note": "x"})
				got["mcp plan"+n] = mcpCode(agent, "task_update_status", map[string]any{"id": bad, "status": "completed", "outcome": "x"})
				got["cli"+n] = cliCode("complete", bad, "--note", "x")
			}
			return got
		}()},
	}
	for _, c := range cases {
		for face, got := range c.got {
			assert.Equal(t, c.want, got, "%s through %s", c.name, face)
		}
	}
	assert.Equal(t, before, files(t, root), "no face wrote a byte")
	data, err := os.ReadFile(filepath.Join(root, "docs", "shop", "cart.md"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "- Assignee: holder\n")
}
