package worktree

import (
	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/taskdoc"
)

// The codes of worktrees.
const (
	// CodeWorktreeNotFound: no worktree record has the id.
	CodeWorktreeNotFound taskdoc.Code = "WORKTREE_NOT_FOUND"
	// CodeGit: a git command failed, here or in package gitsync; the
	// error's message is git's, and errors.As finds the *GitError with
	// the command, exit code and standard error.
	CodeGit = git.CodeGit
)
