package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// defaultTools are the tools `taskmd mcp` serves when nothing names the
// toolsets: subagent's and queries'.
var defaultTools = []string{"archive_read", "archives_list", "complete_subagent_task", "documents_list",
	"start_subagent_task", "subagent_task", "tasks_find", "view_subagent_task", "workflows_list"}

// mcpProcess starts `taskmd mcp` with args and env (NAME=VALUE, beside
// the test's own environment, without TASKMD_TOOLSETS), and connects a
// client whose notifications/tools/list_changed arrive on changed.
func mcpProcess(t *testing.T, env []string, args ...string) (session *mcp.ClientSession, changed <-chan struct{}) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(v string) bool { return strings.HasPrefix(v, toolsetsVar+"=") }), env...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	ch := make(chan struct{}, 16)
	c := mcp.NewClient(&mcp.Implementation{Name: "toolsets", Version: "v0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { ch <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err, "stderr: %s", stderr)
	t.Cleanup(func() {
		if err := session.Close(); err != nil || t.Failed() {
			t.Logf("close: %v, stderr:\n%s", err, stderr)
		}
	})
	return session, ch
}

func toolNames(t *testing.T, session *mcp.ClientSession) []string {
	t.Helper()
	list, err := session.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// The toolsets come from --toolsets, else TASKMD_TOOLSETS, else
// taskmd.toml, else the default: subagent and queries.
func TestMcpToolsetsPrecedence(t *testing.T) {
	root := t.TempDir()
	session, _ := mcpProcess(t, nil, "-root", root)
	assert.Equal(t, defaultTools, toolNames(t, session), "the default")

	require.NoError(t, os.WriteFile(filepath.Join(root, "taskmd.toml"), []byte("[mcp]\ntoolsets = [\"agents\"]\n"), 0o644))
	session, _ = mcpProcess(t, nil, "-root", root)
	assert.Equal(t, []string{"agent_heartbeat", "agent_register", "agent_unregister"}, toolNames(t, session), "the file")
	session, _ = mcpProcess(t, []string{toolsetsVar + "=edits"}, "-root", root)
	assert.Equal(t, []string{"document_archive", "task_remove", "task_set_status"}, toolNames(t, session), "the environment")
	session, _ = mcpProcess(t, []string{toolsetsVar + "=edits"}, "-root", root, "--toolsets", "worktrees, agents")
	assert.Equal(t, []string{"agent_heartbeat", "agent_register", "agent_unregister", "workspace_create", "workspace_list", "workspace_update"},
		toolNames(t, session), "the flag")
	session, _ = mcpProcess(t, nil, "-root", root, "--toolsets", "all")
	assert.Len(t, toolNames(t, session), 44)
	session, _ = mcpProcess(t, nil, "-root", root, "--toolsets", "worktrees", "--read-only")
	assert.Equal(t, []string{"workspace_list"}, toolNames(t, session))
}

// An unknown toolset name, wherever it comes from, stops the server before
// it serves anything, with the names it knows; an empty one is a usage
// error.
func TestMcpToolsetsRefused(t *testing.T) {
	root := t.TempDir()
	for _, tt := range []struct {
		env  []string
		args []string
		exit int
		want []string
	}{
		{nil, []string{"--toolsets", "subagent,plan"}, exitInvalid, []string{`--toolsets: mcptools: unknown toolset "plan"`, "subagent, coordinator", "edits, worktrees, or all"}},
		{[]string{toolsetsVar + "=queriez"}, nil, exitInvalid, []string{toolsetsVar + `: mcptools: unknown toolset "queriez"`}},
		{nil, []string{"--toolsets", ""}, exitUsage, []string{"--toolsets: an empty toolset name"}},
		{nil, []string{"--toolsets", "subagent,,queries"}, exitUsage, []string{"an empty toolset name"}},
	} {
		cmd := exec.Command(binary, append([]string{"mcp", "-root", root}, tt.args...)...)
		cmd.Env = append(os.Environ(), tt.env...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "%v %v: %v", tt.env, tt.args, err)
		assert.Equal(t, tt.exit, exit.ExitCode(), "%v %v", tt.env, tt.args)
		for _, want := range tt.want {
			assert.Contains(t, stderr.String(), want)
		}
		assert.Empty(t, stdout.String())
	}
}

// With --dynamic-toolsets, an agent that starts with the default set
// enables plans, is told that the tools changed, and calls one of plans'
// tools, all through the server's stdin and stdout.
func TestMcpDynamicToolsets(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "shop.md"),
		[]byte("# Shop\n\n## Tasks\n\n### Add rate limiting\n- Status: pending\n\n### Fix login bug\n- Status: completed\n"), 0o644))
	session, changed := mcpProcess(t, nil, "-root", root, "--dynamic-toolsets")
	assert.Equal(t, sortedCopy(append(slices.Clone(defaultTools), "toolset_enable", "toolsets_list")), toolNames(t, session))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "toolset_enable", Arguments: map[string]any{"name": "plans"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no notifications/tools/list_changed")
	}
	assert.Contains(t, toolNames(t, session), "workflow_progress")
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "workflow_progress", Arguments: map[string]any{"workflow_id": "/shop.md"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	progress := res.StructuredContent.(map[string]any)
	assert.EqualValues(t, 2, progress["total"])
	assert.EqualValues(t, 50, progress["percent_complete"])
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
