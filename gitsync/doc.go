// Package gitsync shares the claims and statuses of a plan between
// machines through a git remote. Each machine works in its own clone;
// claiming a task, or moving it through its statuses, fetches the remote,
// merges what other machines pushed (task documents with the task-aware
// merge of package merge), makes the change with package plan, commits
// the one document it changed and pushes. When the push is rejected
// because another machine pushed first, the change is taken back, the
// remote merged again and the change made again on the merged plan, so
// that of two machines claiming one task exactly one holds it: the other
// is told who does. A rejected push is not a failure: the change is made
// again, after a random pause measured in the time an attempt takes,
// until the call's context ends (WithMaxAttempts sets a limit). A machine
// that loses the race again says so on the remote
// (refs/taskmd/waiting/<branch>) and tries again the sooner the longer it
// has lost; a machine about to push while another waits lets it go first
// (about an attempt's time, at most three times a batch), so that every
// machine gets its share of a busy remote.
//
// Calls that reach one Sync while it is sharing a change wait and are
// shared together (group commit): one fetch and merge, each change made
// and committed in turn with its own message, one push for them all. Each
// call is told its own result, and a rejected push makes each change again
// on the merged plan, so that a retried change is still made once. A
// machine running many agents through one Sync so pushes a few changes
// at a time instead of racing itself for the remote.
//
// A clone that cannot reach its remote keeps working: the change is
// committed locally and the result says it is queued (Report.Queued);
// Push sends the queue later. A queued claim is not confirmed until it is
// pushed: another machine may have claimed the task meanwhile, and then
// Push stops with MERGE_CONFLICT for a person to settle.
//
// The library's state under .taskmd/ (agents, claim tokens, journals'
// locks) belongs to one clone and is never committed: New makes git
// ignore it. Across machines the plan itself is the shared record: a
// task's Assignee field names its holder, and an agent that this clone
// does not know is taken to be another machine's, holding its claim until
// it releases the task or a person removes the field.
//
// A person's uncommitted edits in the clone are set aside (git stash)
// while a change is made, merged and pushed, and put back afterwards, so
// that only the change is committed and the edits stay uncommitted.
//
// SetUp prepares a repository for taskmd once: package merge's task-aware
// merge as git's merge driver for the task documents (what the taskmd
// command's git-setup does), and the state folder ignored.
//
// Every operation of one clone runs under one workspace lock, across
// goroutines and processes. Git is driven through its command line; a
// git command that fails is GIT_ERROR (worktree.CodeGit), and errors.As
// with a *worktree.GitError gives its arguments, exit code and standard
// error, as for every git failure of the library.
package gitsync
