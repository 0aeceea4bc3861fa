package main

import (
	"context"
	"encoding/json"
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

// The server offers exactly the eight task tools, with the inputs that
// task-list agents send (slug for view_coordinator_task,
// as they write it), plus the optional document of the coordinator's
// start and complete and the slugs lists, and the fifteen tools of the agent
// protocol with the protocol's parameter names, the seven of pivots, worker
// checkpoints and resumption, the three of clarifications, the eight of
// queries and edits, and an output schema for each.
func TestToolList(t *testing.T) {
	c := startServer(t, t.TempDir())
	list, err := c.session.ListTools(context.Background(), nil)
	require.NoError(t, err)

	type input struct{ properties, required []string }
	want := map[string]input{
		"subagent_task":             {[]string{"document", "operations"}, []string{"document", "operations"}},
		"start_subagent_task":       {[]string{"document"}, []string{"document"}},
		"complete_subagent_task":    {[]string{"document", "note"}, []string{"document", "note"}},
		"view_subagent_task":        {[]string{"document", "slugs"}, []string{"document"}},
		"coordinator_task":          {[]string{"operations"}, []string{"operations"}},
		"start_coordinator_task":    {[]string{"document", "return_task_context"}, nil},
		"complete_coordinator_task": {[]string{"document", "include_full_workflow", "note", "request_key"}, []string{"note"}},
		"view_coordinator_task":     {[]string{"slug", "slugs"}, nil},
		// The agent protocol.
		"agent_register":      {[]string{"capabilities", "id", "metadata", "name", "role", "runtime", "workspace_path"}, []string{"name", "runtime"}},
		"agent_heartbeat":     {[]string{"agent_id", "current_task_id", "status"}, []string{"agent_id"}},
		"agent_unregister":    {[]string{"agent_id"}, []string{"agent_id"}},
		"workflow_create":     {[]string{"description", "name", "path"}, []string{"name"}},
		"workflow_set_plan":   {[]string{"tasks", "workflow_id"}, []string{"tasks", "workflow_id"}},
		"workflow_list":       {[]string{"status"}, nil},
		"workflow_progress":   {[]string{"workflow_id"}, []string{"workflow_id"}},
		"workflow_next_tasks": {[]string{"workflow_id"}, []string{"workflow_id"}},
		"task_claim":          {[]string{"agent_id", "task_id"}, []string{"agent_id", "task_id"}},
		"task_release":        {[]string{"agent_id", "task_id"}, []string{"task_id"}},
		"task_load_context":   {[]string{"include", "max_tokens", "task_id"}, []string{"task_id"}},
		"task_set_plan":       {[]string{"plan", "task_id"}, []string{"plan", "task_id"}},
		"task_update_status":  {[]string{"error", "outcome", "outcome_detail", "status", "task_id"}, []string{"status", "task_id"}},
		"checkpoint_add":      {[]string{"detail", "files_changed", "key", "summary", "task_id", "type"}, []string{"summary", "task_id", "type"}},
		"checkpoint_list":     {[]string{"limit", "since_sequence", "task_id", "types", "worker_id"}, nil},
		// Pivots, worker checkpoints and resumption (the pivot and checkpoint-resume protocols).
		"pivot_worker":      {[]string{"mode", "new_task", "reason", "task_id", "wait_seconds", "worker_id", "worker_ids"}, []string{"reason"}},
		"pivot_acknowledge": {[]string{"checkpoint"}, nil},
		"checkpoint_save": {[]string{"blocked", "clarification_id", "completed", "decisions", "files_changed", "in_progress", "notes",
			"original_task", "parallel_work_available", "phase", "pivot_mode", "pivot_reason", "remaining", "resume_instructions",
			"sections", "status", "task_id", "worker_id"}, nil},
		"checkpoint_get":  {[]string{"format", "sequence", "worker_id"}, nil},
		"checkpoint_diff": {[]string{"from", "to", "worker_id"}, nil},
		"resume_queue":    {nil, nil},
		"resume_brief":    {[]string{"max_tokens", "task_id", "worker_id"}, []string{"task_id"}},
		"clarification_ask": {[]string{"blocked_at", "checkpoint", "id", "parallel_work_available", "questions", "reason",
			"task_id", "wait_seconds", "work_continues"}, []string{"questions"}},
		"clarification_check":   {[]string{"id", "worker_id"}, nil},
		"clarification_respond": {[]string{"checkpoint_path", "id", "responses", "resume_instructions", "resume_method", "resume_signal", "worker_id"}, []string{"id", "responses", "worker_id"}},
		// Queries across the workspace, and the operations agents missed.
		"documents_list":   {nil, nil},
		"tasks_find":       {[]string{"depends_on", "document", "fields", "holder", "limit", "status", "text", "workflow"}, nil},
		"workflows_list":   {nil, nil},
		"task_remove":      {[]string{"force", "if_version", "task_id"}, []string{"task_id"}},
		"task_set_status":  {[]string{"reason", "status", "task_id"}, []string{"status", "task_id"}},
		"document_archive": {[]string{"document"}, []string{"document"}},
		"archives_list":    {nil, nil},
		"archive_read":     {[]string{"name"}, []string{"name"}},
		// Workspace isolation: a git worktree per agent.
		"workspace_create": {[]string{"agent_id", "base_branch", "branch", "create_worktree", "id", "path", "repo_path", "task_ids", "workflow_id"}, []string{"branch"}},
		"workspace_update": {[]string{"cleanup_worktree", "id", "merge_commit", "pr_url", "status"}, []string{"id"}},
		"workspace_list":   {[]string{"status"}, nil},
	}
	got := map[string]input{}
	for _, tool := range list.Tools {
		assert.NotEmpty(t, tool.Description, tool.Name)
		assert.NotNil(t, tool.OutputSchema, tool.Name)
		raw, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var schema struct {
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		require.NoError(t, json.Unmarshal(raw, &schema))
		var in input
		for name := range schema.Properties {
			in.properties = append(in.properties, name)
		}
		slices.Sort(in.properties)
		in.required = slices.Sorted(slices.Values(schema.Required))
		got[tool.Name] = in
		if assert.NotNil(t, schema.AdditionalProperties, tool.Name) {
			assert.False(t, *schema.AdditionalProperties, "%s accepts unknown arguments", tool.Name)
		}
	}
	for name, in := range want {
		assert.Equal(t, in, got[name], name)
	}
	assert.Len(t, got, len(want))
}

// A bad command line is a usage error (exit 2); without -root and with no
// workspace to find, the server does not start either (exit 3, naming
// init). Nothing is written on stdout.
func TestMcpUsage(t *testing.T) {
	empty := t.TempDir()
	for _, tt := range []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"mcp", "-root", empty, "extra"}, exitUsage, "usage: taskmd mcp"},
		{[]string{"mcp", "-nosuchflag"}, exitUsage, "flag provided but not defined"},
		{[]string{"mcp"}, exitNotFound, "run `taskmd init` here"},
	} {
		cmd := exec.Command(binary, tt.args...)
		cmd.Dir = empty
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "args %q: %v", tt.args, err)
		assert.Equal(t, tt.exit, exit.ExitCode(), "args %q", tt.args)
		assert.Contains(t, stderr.String(), tt.want, "args %q", tt.args)
		assert.Empty(t, stdout.String(), "args %q", tt.args)
	}
}

// Without -root the server finds the workspace as every command does (here
// from docs/api), and serves the toolsets that taskmd.toml names; a
// toolset name it does not know stops it before it serves anything.
func TestMcpFindsWorkspaceAndReadsToolsets(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs", "api"), 0o755))
	marker := filepath.Join(root, "taskmd.toml")
	require.NoError(t, os.WriteFile(marker, []byte("[mcp]\ntoolsets = [\"agents\"]\n"), 0o644))
	cmd := exec.Command(binary, "mcp")
	cmd.Dir = filepath.Join(root, "docs", "api")
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	list, err := session.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	assert.Equal(t, []string{"agent_heartbeat", "agent_register", "agent_unregister"}, names)
	require.NoError(t, session.Close())

	require.NoError(t, os.WriteFile(marker, []byte("[mcp]\ntoolsets = [\"agentz\"]\n"), 0o644))
	bad := exec.Command(binary, "mcp")
	bad.Dir = root
	var stdout, stderr strings.Builder
	bad.Stdout, bad.Stderr = &stdout, &stderr
	err = bad.Run()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v", err)
	assert.NotEqual(t, 0, exit.ExitCode())
	assert.Contains(t, stderr.String(), "agentz")
	assert.Empty(t, stdout.String())
}
