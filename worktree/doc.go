// Package worktree gives each agent a git worktree and branch of its own
// for its tasks (seed 002, "Workspace Isolation") and keeps a record of
// each: which agent, which tasks, where, on which branch, and whether it
// is active, merged or abandoned.
package worktree
