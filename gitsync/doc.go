// Package gitsync shares the claims and statuses of a plan between
// machines through a git remote. Each machine works in its own clone;
// claiming a task, or moving it through its statuses, fetches the remote,
// merges what other machines pushed (task documents with the task-aware
// merge of package merge), makes the change with package plan, commits
// the one document it changed and pushes. When the push is rejected
// because another machine pushed first, the change is taken back, the
// remote merged again and the change made again on the merged plan, so
// that of two machines claiming one task exactly one holds it: the other
// is told who does.
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
// A clone recovers from a crash at any point by itself, on its next call.
// Every call runs under the clone's lock, so a git lock file older than
// the lock, with no git process running in the clone, is a killed
// command's: it is removed. Before it merges or writes, a call records its
// change in .taskmd/gitsync/change (the files and each one's SHA-256,
// written durably; removed when the call ends): a call that finds the
// record takes the half-made change back (the files of the change and of
// the merge put back as HEAD has them), never setting it aside as a
// person's edit; a change whose commit landed is pushed. The stash of a
// person's edits is recorded before git stash runs, so a crash inside it
// puts the edits back too.
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
