package gitsync

import "github.com/taskmd/taskmd/internal/git"

// CodeGit: a git command failed; the error's message is git's, and
// errors.As finds the *GitError with the command, exit code and standard
// error. A merge that a person must settle is merge.CodeMergeConflict.
const CodeGit = git.CodeGit
