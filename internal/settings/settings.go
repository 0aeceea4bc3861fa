// Package settings turns a workspace's settings (workspace.Config, read
// from its taskmd.toml) into the options of the packages they configure.
// Every face that builds an agent registry, plans, pivots or a worktree
// manager on a workspace (the taskmd command, its MCP server, package
// mcptools) takes its options from here, so that a key means the same
// thing wherever it is read. A key left out gives no option: the
// package's default stands.
package settings

import (
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
	"github.com/taskmd/taskmd/worktree"
)

// Plan is agent_timeout as plan's options: how long an agent stays online
// after its last heartbeat, for the registry, claims and leases.
func Plan(c workspace.Config) []plan.Option {
	return []plan.Option{plan.WithAgentTimeout(c.AgentTimeout)}
}

// Worker is agent_timeout as worker's options (pivots wait on the plans
// that Plan configures).
func Worker(c workspace.Config) []worker.Option {
	return []worker.Option{worker.WithAgentTimeout(c.AgentTimeout)}
}

// Worktree is worktree_dir as worktree's options: the folder, relative to
// the repository, that new worktrees go in.
func Worktree(c workspace.Config) []worktree.Option {
	if c.WorktreeDir == "" {
		return nil
	}
	return []worktree.Option{worktree.WithFolder(c.WorktreeDir)}
}
