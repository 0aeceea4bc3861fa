package mcptools

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/workspace"
)

// toolsetsServer serves root with opts and connects one client, whose
// notifications/tools/list_changed arrive on the returned channel.
func toolsetsServer(t *testing.T, root string, opts ...Option) (*mcpSession, <-chan struct{}) {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server, err := NewServer(ws, opts...)
	require.NoError(t, err)
	changed := make(chan struct{}, 16)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return &mcpSession{t: t, cs: cs}, changed
}

// sessionTools lists the session's tools by name.
func sessionTools(t *testing.T, s *mcpSession) map[string]*mcp.Tool {
	t.Helper()
	tools := map[string]*mcp.Tool{}
	for tool, err := range s.cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		tools[tool.Name] = tool
	}
	return tools
}

func toolNamesOf(tools map[string]*mcp.Tool) []string {
	var out []string
	for name := range tools {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// queries holds the tools that only read; edits the three that change a
// task or a document by address; all is every toolset.
func TestToolsetsQueriesEditsAll(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	queries, _ := toolsetsServer(t, root, WithToolsets(ToolsetQueries))
	assert.Equal(t, []string{"archive_read", "archives_list", "documents_list", "tasks_find", "workflows_list"}, toolNamesOf(sessionTools(t, queries)))
	edits, _ := toolsetsServer(t, root, WithToolsets(ToolsetEdits))
	assert.Equal(t, []string{"document_archive", "task_remove", "task_set_status"}, toolNamesOf(sessionTools(t, edits)))
	all, _ := toolsetsServer(t, root, WithToolsets(ToolsetSubagent, ToolsetAll))
	every, _ := toolsetsServer(t, root)
	assert.Equal(t, toolNamesOf(sessionTools(t, every)), toolNamesOf(sessionTools(t, all)))
	assert.Len(t, sessionTools(t, all), 44)
}

// WithReadOnly serves exactly the tools whose annotations say they only
// read; a call that would write is not there to make.
func TestReadOnlyServesOnlyReadingTools(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	every, _ := toolsetsServer(t, root)
	var want []string
	for name, tool := range sessionTools(t, every) {
		if tool.Annotations.ReadOnlyHint {
			want = append(want, name)
		}
	}
	slices.Sort(want)
	require.Contains(t, want, "view_subagent_task")
	ro, _ := toolsetsServer(t, root, WithReadOnly())
	got := sessionTools(t, ro)
	assert.Equal(t, want, toolNamesOf(got))
	assert.NotContains(t, got, "subagent_task")
	assert.NotContains(t, got, "complete_subagent_task")
	_, _, err := ro.try("start_subagent_task", map[string]any{"document": "/shop.md#fix-login-bug"})
	require.Error(t, err, "no such tool")
	var view struct{ Count int }
	ro.ok("view_subagent_task", map[string]any{"document": "/shop.md"}, &view)
	assert.Equal(t, 2, view.Count)
}

// An agent that starts with the subagent toolset lists the toolsets,
// enables plans, is told that the tools changed, and calls one of them;
// enabling it again changes nothing, and an unknown name is refused.
func TestDynamicToolsetsEnable(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	s, changed := toolsetsServer(t, root, WithToolsets(ToolsetSubagent), WithDynamicToolsets())
	assert.Equal(t, []string{"complete_subagent_task", "start_subagent_task", "subagent_task", "toolset_enable", "toolsets_list", "view_subagent_task"},
		toolNamesOf(sessionTools(t, s)))

	var list struct{ Toolsets []string }
	s.ok("toolsets_list", map[string]any{}, &list)
	require.Len(t, list.Toolsets, len(allToolsets))
	assert.Equal(t, "subagent (enabled): subagent_task, start_subagent_task, complete_subagent_task, view_subagent_task", list.Toolsets[0])
	assert.Contains(t, list.Toolsets, "edits (not enabled): task_remove, task_set_status, document_archive")

	_, _, err := s.try("workflow_progress", map[string]any{"workflow_id": "/shop.md"})
	require.Error(t, err, "plans is not enabled yet")

	var enabled struct {
		Toolset        string
		Tools          []string
		AlreadyEnabled bool `json:"already_enabled"`
	}
	s.ok("toolset_enable", map[string]any{"name": "plans"}, &enabled)
	assert.Equal(t, "plans", enabled.Toolset)
	assert.Contains(t, enabled.Tools, "workflow_progress")
	assert.False(t, enabled.AlreadyEnabled)
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
	assert.Contains(t, sessionTools(t, s), "workflow_progress")
	var progress struct {
		Total int `json:"total"`
	}
	s.ok("workflow_progress", map[string]any{"workflow_id": "/shop.md"}, &progress)
	assert.Equal(t, 2, progress.Total)

	s.ok("toolsets_list", map[string]any{}, &list)
	assert.True(t, slices.ContainsFunc(list.Toolsets, func(l string) bool { return strings.HasPrefix(l, "plans (enabled): ") }), list.Toolsets)
	s.ok("toolset_enable", map[string]any{"name": "plans"}, &enabled)
	assert.True(t, enabled.AlreadyEnabled)
	assert.Equal(t, "INVALID_ARGUMENTS", s.fail("toolset_enable", map[string]any{"name": "plan"}))
}

// Under WithReadOnly, toolset_enable adds only the toolset's reading
// tools, and a toolset without one is not offered.
func TestDynamicToolsetsReadOnly(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	s, _ := toolsetsServer(t, root, WithToolsets(ToolsetSubagent), WithDynamicToolsets(), WithReadOnly())
	var list struct{ Toolsets []string }
	s.ok("toolsets_list", map[string]any{}, &list)
	for _, line := range list.Toolsets {
		assert.False(t, strings.HasPrefix(line, "agents ") || strings.HasPrefix(line, "pivots ") || strings.HasPrefix(line, "edits "), line)
	}
	assert.Equal(t, "INVALID_ARGUMENTS", s.fail("toolset_enable", map[string]any{"name": "edits"}))
	var enabled struct{ Tools []string }
	s.ok("toolset_enable", map[string]any{"name": "worktrees"}, &enabled)
	assert.Equal(t, []string{"workspace_list"}, enabled.Tools)
}

// With WithDynamicToolsets every toolset's names are taken from the
// start: a caller's tool under one of them is refused by Register, not
// replaced later by toolset_enable.
func TestDynamicToolsetsRefuseCallersName(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "workflow_progress"},
		func(context.Context, *mcp.CallToolRequest, projectInput) (*mcp.CallToolResult, projectStatus, error) {
			return nil, projectStatus{}, nil
		})
	err = Register(server, ws, WithToolsets(ToolsetSubagent), WithDynamicToolsets())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "workflow_progress")
	require.NoError(t, Register(server, ws, WithToolsets(ToolsetSubagent)), "without dynamic toolsets plans' names are free")
}
