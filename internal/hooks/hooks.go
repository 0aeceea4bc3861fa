// Package hooks holds the points where tests step into the middle of an
// operation, to do what a person or another process could do there. Code
// outside tests never sets them; each costs one function call.
package hooks

// BeforeRemoveUnchanged runs in workspace.Tx.RemoveUnchanged between the
// copy of a file being made and the original being checked and removed.
var BeforeRemoveUnchanged = func() {}

// Read runs before the workspace reads a file; an error it returns is the
// read's failure (an IO_ERROR naming the file).
var Read = func(name string) error { return nil }

// WorktreeStep runs in worktree.Manager.Create after each of its steps:
// "begin" once it has noted what it is about to make, before git makes
// anything, "branch" once the branch is made, "worktree" once its
// worktree is.
var WorktreeStep = func(step string) {}

// BeforePublish runs in the workspace's writes once the temporary file
// tmp (root-relative) is written and flushed, before it is renamed or
// linked to its target's name.
var BeforePublish = func(tmp string) {}
