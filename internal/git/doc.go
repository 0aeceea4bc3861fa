// Package git runs the git command line for the packages that keep a
// workspace in git (worktree; the merge driver, whose config key, arguments
// and .gitattributes lines are declared here for gitsync, check and the
// command line). It reimplements nothing: every
// operation is a git command, run with a clean, predictable environment
// (no prompts, no pager, messages in English), and a command that fails
// comes back as an *Error carrying the command, its exit code and git's own
// message, wrapped in a *taskdoc.Error with code GIT_ERROR.
package git
