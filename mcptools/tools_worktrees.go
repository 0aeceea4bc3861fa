package mcptools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/worktree"
)

// The workspace tools are the agent protocol's "Workspace Isolation": each agent
// works in a git worktree and branch of its own (package worktree).

type workspaceCreateInput struct {
	WorkflowID     string   `json:"workflow_id,omitempty" jsonschema:"the plan the work belongs to, e.g. /api/auth.md"`
	AgentID        string   `json:"agent_id,omitempty" jsonschema:"the agent the worktree is for"`
	Branch         string   `json:"branch" jsonschema:"the new branch, e.g. feature/google-oauth"`
	BaseBranch     string   `json:"base_branch,omitempty" jsonschema:"where the branch starts (default the repository's HEAD), e.g. main"`
	TaskIDs        []string `json:"task_ids,omitempty" jsonschema:"the tasks worked there, e.g. [/api/auth.md#google-oauth]"`
	CreateWorktree bool     `json:"create_worktree,omitempty" jsonschema:"true: make a worktree for the branch; false: the branch only"`
	RepoPath       string   `json:"repo_path,omitempty" jsonschema:"the repository (default the one holding the workspace): that one or one inside the workspace, else OUTSIDE_ROOT"`
	Path           string   `json:"path,omitempty" jsonschema:"where the worktree goes, inside the repository's worktree folder (default: the branch's name there)"`
	ID             string   `json:"id,omitempty" jsonschema:"optional: choose the id yourself to make a retried call return the first result (or finish a stopped one's work)"`
}

type workspaceUpdateInput struct {
	ID              string `json:"id" jsonschema:"the id workspace_create returned"`
	Status          string `json:"status,omitempty" jsonschema:"active, merged (needs merge_commit) or abandoned"`
	MergeCommit     string `json:"merge_commit,omitempty" jsonschema:"the commit the branch was merged in"`
	PRURL           string `json:"pr_url,omitempty" jsonschema:"the pull request, if any"`
	CleanupWorktree bool   `json:"cleanup_worktree,omitempty" jsonschema:"remove the worktree's folder (the branch stays)"`
}

type workspaceListInput struct {
	Status []string `json:"status,omitempty" jsonschema:"only worktrees in these statuses"`
}

// workspaceUpdateResult is the result of workspace_update.
type workspaceUpdateResult struct {
	Success         bool              `json:"success"`
	WorktreeRemoved bool              `json:"worktree_removed"`
	Worktree        worktree.Worktree `json:"workspace"` // the agent protocol's name
}

// workspaceListResult is the result of workspace_list.
type workspaceListResult struct {
	Worktrees []worktree.Worktree `json:"workspaces"` // the agent protocol's name
}

const (
	workspaceCreateDescription = `Create a git branch and, with create_worktree, a worktree for it, so that this agent works apart from others. Work in the returned path, commit on the branch, then call workspace_update. GIT_ERROR: git refused the branch; nothing was made. INVALID_ARGUMENTS: a path outside the worktree folder. Give id to make a retry return the first result.`

	workspaceUpdateDescription = `Record what became of a worktree: merged (with merge_commit) or abandoned, a pr_url; cleanup_worktree removes its folder (the branch stays). A retry removes nothing more. WORKTREE_NOT_FOUND: unknown id.`

	workspaceListDescription = `List the agents' worktrees and branches, oldest first, optionally only some statuses (active, merged, abandoned). Reads only.`
)

var worktreeStatuses = []any{string(worktree.Active), string(worktree.Merged), string(worktree.Abandoned)}

type worktreeTools struct{ m *worktree.Manager }

func addWorktreeTools(ts *toolBatch, m *worktree.Manager) error {
	w := worktreeTools{m: m}
	update, err := inputSchema[workspaceUpdateInput](map[string]enum{"status": {values: worktreeStatuses}})
	if err != nil {
		return err
	}
	list, err := inputSchema[workspaceListInput](map[string]enum{"status": {values: worktreeStatuses}})
	if err != nil {
		return err
	}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "workspace_create", Description: workspaceCreateDescription, Annotations: additiveIdempotent}, w.create),
		addTool(ts, &mcp.Tool{Name: "workspace_update", Description: workspaceUpdateDescription, InputSchema: update, Annotations: destructiveIdempotent}, w.update),
		addTool(ts, &mcp.Tool{Name: "workspace_list", Description: workspaceListDescription, InputSchema: list, Annotations: readOnly}, w.list),
	)
}

func (w worktreeTools) create(ctx context.Context, _ *mcp.CallToolRequest, in workspaceCreateInput) (*mcp.CallToolResult, worktree.Worktree, error) {
	wt, err := w.m.Create(ctx, worktree.Spec{
		ID: in.ID, WorkflowID: in.WorkflowID, AgentID: in.AgentID, Branch: in.Branch, BaseBranch: in.BaseBranch,
		TaskIDs: in.TaskIDs, CreateWorktree: in.CreateWorktree, RepoPath: in.RepoPath, Path: in.Path,
	})
	if err != nil {
		return nil, worktree.Worktree{}, newToolError(err)
	}
	return nil, wt, nil
}

func (w worktreeTools) update(ctx context.Context, _ *mcp.CallToolRequest, in workspaceUpdateInput) (*mcp.CallToolResult, workspaceUpdateResult, error) {
	wt, removed, err := w.m.Update(ctx, in.ID, worktree.Change{
		Status: worktree.Status(in.Status), MergeCommit: in.MergeCommit, PRURL: in.PRURL, CleanupWorktree: in.CleanupWorktree,
	})
	if err != nil {
		return nil, workspaceUpdateResult{}, newToolError(err)
	}
	return nil, workspaceUpdateResult{Success: true, WorktreeRemoved: removed, Worktree: wt}, nil
}

func (w worktreeTools) list(ctx context.Context, _ *mcp.CallToolRequest, in workspaceListInput) (*mcp.CallToolResult, workspaceListResult, error) {
	statuses := make([]worktree.Status, len(in.Status))
	for i, s := range in.Status {
		statuses[i] = worktree.Status(s)
	}
	wts, err := w.m.List(ctx, statuses...)
	if err != nil {
		return nil, workspaceListResult{}, newToolError(err)
	}
	return nil, workspaceListResult{Worktrees: wts}, nil
}
