package mcptools

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// listTools lists the tools of server through an in-memory client.
func listTools(t *testing.T, server *mcp.Server) []*mcp.Tool {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "lister", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	var tools []*mcp.Tool
	for tool, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		tools = append(tools, tool)
	}
	return tools
}

func openWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws
}

// hint is what a tool's annotations say: r read-only, d destructive, i
// idempotent (a write that is neither is "-").
type hint string

// Every tool carries annotations, pinned here: a tool that starts to
// remove what someone wrote, or stops answering a retry with the first
// answer, must change its hints with it.
func TestAnnotations(t *testing.T) {
	want := map[string]hint{
		"subagent_task": "d", "start_subagent_task": "i", "complete_subagent_task": "i", "view_subagent_task": "r",
		"coordinator_task": "d", "start_coordinator_task": "i", "complete_coordinator_task": "-", "view_coordinator_task": "r",
		"agent_register": "-", "agent_heartbeat": "i", "agent_unregister": "di",
		"workflow_create": "i", "workflow_set_plan": "i", "workflow_list": "r", "workflow_progress": "r",
		"workflow_next_tasks": "r", "task_claim": "i", "task_release": "i", "task_load_context": "r",
		"task_set_plan": "di", "task_update_status": "i", "checkpoint_add": "-", "checkpoint_list": "r",
		"pivot_worker": "di", "pivot_acknowledge": "i",
		"checkpoint_save": "i", "checkpoint_get": "r", "checkpoint_diff": "r",
		"resume_queue": "r", "resume_brief": "i",
		"clarification_ask": "-", "clarification_check": "r", "clarification_respond": "i",
		"documents_list": "r", "tasks_find": "r", "workflows_list": "r", "task_remove": "di",
		"task_set_status": "di", "document_archive": "di", "archives_list": "r",
		"workspace_create": "i", "workspace_update": "di", "workspace_list": "r", "archive_read": "r",
	}
	server, err := NewServer(openWorkspace(t))
	require.NoError(t, err)
	got := map[string]hint{}
	for _, tool := range listTools(t, server) {
		a := tool.Annotations
		if !assert.NotNil(t, a, "%s has no annotations", tool.Name) {
			continue
		}
		if assert.NotNil(t, a.OpenWorldHint, tool.Name) {
			assert.False(t, *a.OpenWorldHint, tool.Name)
		}
		var h hint
		switch {
		case a.ReadOnlyHint:
			assert.Nil(t, a.DestructiveHint, "%s reads only", tool.Name)
			h = "r"
		case !assert.NotNil(t, a.DestructiveHint, "%s writes: it must say whether destructively", tool.Name):
			continue
		case *a.DestructiveHint:
			h = "d"
		}
		if a.IdempotentHint && !a.ReadOnlyHint {
			h += "i"
		}
		if h == "" {
			h = "-"
		}
		got[tool.Name] = h
	}
	assert.Equal(t, want, got)
}

// statusLike names the inputs that take one of a fixed set of values.
var statusLike = []string{"status", "mode", "pivot_mode", "type", "types", "format", "operation"}

// freeText are the inputs with such a name whose value is free text, and
// why.
var freeText = map[string]string{
	"agent_heartbeat.status": "the agent protocol's heartbeat status is free text (busy, idle, ...)",
}

// Every status-like input of every tool, nested ones included, lists its
// values in an enum; the status filters list every status of the status
// machine.
func TestEnums(t *testing.T) {
	server, err := NewServer(openWorkspace(t))
	require.NoError(t, err)
	checked := 0
	for _, tool := range listTools(t, server) {
		raw, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var schema jsonschema.Schema
		require.NoError(t, json.Unmarshal(raw, &schema))
		walkProperties(tool.Name, &schema, func(path, name string, p *jsonschema.Schema) {
			if !slices.Contains(statusLike, name) || freeText[path] != "" {
				return
			}
			checked++
			values := p.Enum
			if p.Items != nil {
				values = p.Items.Enum
			}
			assert.NotEmpty(t, values, "%s has no enum", path)
			if name == "status" && slices.Contains([]string{"subagent_task", "coordinator_task", "workflow_list", "task_update_status", "tasks_find"}, tool.Name) {
				assert.Equal(t, values, taskStatuses, path)
				assert.Len(t, values, len(taskdoc.Statuses), path)
			}
		})
	}
	assert.GreaterOrEqual(t, checked, 12, "the walk found the status-like inputs")
}

// walkProperties calls fn for every property of s, of its array items and
// nested objects, with its dotted path from tool.
func walkProperties(path string, s *jsonschema.Schema, fn func(path, name string, p *jsonschema.Schema)) {
	if s == nil {
		return
	}
	for name, p := range s.Properties {
		fn(path+"."+name, name, p)
		walkProperties(path+"."+name, p, fn)
	}
	walkProperties(path, s.Items, fn)
}

// A value outside an enum is refused by the input schema, with
// INVALID_ARGUMENTS, before anything is written.
func TestEnumRefusesBeforeWriting(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/api.md": "# API\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n"})
	call := inProcess(t, root, time.Now)
	before := filetest.Snapshot(t, root)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"task_update_status", map[string]any{"id": "/api.md#sign-tokens", "status": "done"}},
		{"checkpoint_add", map[string]any{"task_id": "/api.md#sign-tokens", "type": "note", "summary": "s"}},
		{"workflow_list", map[string]any{"status": []string{"active"}}},
		{"checkpoint_save", map[string]any{"worker_id": "w1", "status": "HALF"}},
		{"checkpoint_save", map[string]any{"worker_id": "w1", "pivot_mode": "gentle"}},
		{"subagent_task", map[string]any{"document": "/api.md", "operations": []any{map[string]any{"operation": "list", "status": "done"}}}},
	} {
		out, failed := call(tc.tool, tc.args)
		require.True(t, failed, "%s %v: %v", tc.tool, tc.args, out)
		assert.Regexp(t, `^INVALID_ARGUMENTS: .*enum`, out["error"], tc.tool)
	}
	assert.Equal(t, before, filetest.Snapshot(t, root))
}
