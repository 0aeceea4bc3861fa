// Package worktree gives each agent a git worktree and branch of its own
// for its tasks (the agent protocol, "Workspace Isolation") and keeps a record of
// each: which agent, which tasks, where, on which branch, and whether it
// is active, merged or abandoned.
//
// The records are .taskmd/worktrees/<id>.json. While Create works, an
// <id>.creating file beside them says what it is making, from which
// commit, and once git made the branch, that it did: a retry with the same
// id of a call stopped half-way (a crash, a kill) takes over the branch and
// worktree that call made rather than finding the branch taken, and a
// Create that fails removes only what git made for it. Create works only in the workspace's own repository or in one
// inside the workspace's root.
package worktree
