// Package coordinator keeps the coordinator's sequential task list: one
// Markdown file, coordinator/active.md, that persists across context
// compressions and is archived by itself when its last task is completed.
//
// Tasks are taken in order. Start and Complete take no slug: Start returns
// the task in progress or the first pending one, Complete completes it and
// returns the next. Create, Edit, List, View and Clear maintain the list.
// Subagent tasks in docs/ are a separate system (package subagent).
//
// # Format
//
// Create writes the list when there is none:
//
//	# Coordinator Tasks
//
//	Sequential coordinator task list. Auto-archives when all tasks complete.
//
//	## Tasks
//
//	### Design the token format
//
//	- Status: in_progress
//	- Main-Workflow: tdd-incremental-orchestration
//	- Workflow: spec-first
//
//	Write the JWT layout down.
//
//	@/specs/jwt-spec.md
//
//	### Implement signing
//
//	- Status: pending
//
// The file is an ordinary task document (package taskdoc): people may edit
// it, and the library changes only the bytes of the task it touches. The
// first task must carry Main-Workflow, the orchestration method of the whole
// list (its text is workflows/<name>.md). Main-Workflow on later tasks is
// kept but never read. A task's own Workflow and its @references are loaded
// on Start, as for subagent tasks.
//
// # Example
//
//	list := coordinator.New(ws)
//	_, err := list.Create(ctx,
//		taskdoc.NewTask{Title: "Design the token format", Content: "- Main-Workflow: tdd-incremental-orchestration"},
//		taskdoc.NewTask{Title: "Implement signing"})
//	st, err := list.Start(ctx, coordinator.StartOptions{})      // st.MainWorkflow set: first start
//	st, err = list.Start(ctx, coordinator.StartOptions{FullContext: true}) // after a compression
//	done, err := list.Complete(ctx, "Format written down.", coordinator.CompleteOptions{})
//	// done.Next is "Implement signing", in progress
//	done, err = list.Complete(ctx, "Signing works.", coordinator.CompleteOptions{})
//	// done.ArchivedTo == "archived/coordinator/active-2026-11-22-093000.md"
//
// # Rules and decisions
//
//   - Create appends one or many tasks in one locked update. The first task
//     of a list without Main-Workflow is MAIN_WORKFLOW_REQUIRED; a task
//     created completed is INVALID_TASK (completing records a note).
//   - Edit and View take plain slugs; a '#' is COORDINATOR_NO_SLUG_ALLOWED, and
//     CheckSequential applies the same rule to a server's address argument.
//     An edit may not remove the first task's Main-Workflow
//     (MAIN_WORKFLOW_REQUIRED) nor complete a task (INVALID_TRANSITION).
//     A list whose first task lost Main-Workflow by hand is not blocked:
//     no change is refused for it, so it can be repaired with Edit.
//   - Start returns the in_progress task (again, to resume), else marks the
//     first pending task in_progress. Blocked tasks are skipped; when nothing
//     can be started it is NO_AVAILABLE_TASKS, naming the blocked tasks in the
//     message and in Error.Available. With no list it is NO_AVAILABLE_TASKS
//     too. A task whose Depends-On names tasks that are not completed or
//     skipped is not started: TASK_BLOCKED naming them, unless
//     StartOptions.Force (a person's override, recorded in its Forced
//     field).
//   - Main-Workflow comes with the list's first start, judged from the file
//     (no task in progress or completed yet), and with every
//     StartOptions.FullContext start. After Clear has removed every started
//     task, the next start counts as a first start again.
//   - Complete needs a non-blank note (NOTE_REQUIRED, checked before the
//     file is touched). It completes the task in progress; when none is, the
//     task Start would return, so nothing is lost if Start was skipped. The
//     next task is returned already in_progress, exactly as Start would leave
//     it, without Main-Workflow; CompleteOptions.IncludeFullWorkflow adds its
//     Workflow and references. When only blocked tasks remain, or the next
//     one waits for dependencies that are not done, Next is nil and
//     Completed.Blocked names them. Completing a task whose dependencies
//     are not done is TASK_BLOCKED.
//   - When Complete finishes the last task, the list is written with the
//     final note and moved to archived/coordinator/ in the same critical
//     section (List.Archive, built on workspace.Tx.MoveAside, and the
//     archive index below); Completed.ArchivedTo names the archive. The
//     next Create starts a fresh active.md. List.Archives lists the
//     archives, newest first; query.ReadArchived reads one.
//   - Clear removes completed tasks. If that removes the first task, its
//     Main-Workflow moves to the new first task (unless it has its own), so
//     the list stays valid.
//   - Dates (Completed:) and archive names use the clock in UTC (a list
//     the archive index already knows keeps the name it gives).
//   - Missing workflows and references do not fail a start; they are listed
//     in Started.Missing. One that exists but cannot be read (a symbolic
//     link, a path leaving the root, invalid UTF-8) is an error (the rule of
//     package taskcontext, the same for subagent tasks). Context is loaded
//     before the list is locked and before anything is written, so such an
//     error leaves the list as it was: no task started, none completed.
//   - Complete with CompleteOptions.RequestKey is safe to retry: the key is
//     recorded in the completed task ("- Request: <key>"), and a call with
//     a key already recorded (in the list, or in the newest archive when
//     that completion archived the list) returns that completion with
//     Completed.Replayed set, writing nothing; a key sent again with
//     another note is CONFLICT.
//   - When the last completion is written but archiving it fails (a
//     deadline, a full disk), Complete still succeeds and says so in
//     Completed.ArchiveError; the next operation archives the list.
//   - An edit of a completed task that would reopen it or change its
//     Completed or Note needs taskdoc.Edit.Reopen (INVALID_TRANSITION
//     otherwise), so a writer holding old content cannot undo a completion.
//   - Errors are *taskdoc.Error with a code; bad input writes nothing.
//
// # Crash safety and recovery
//
// Every operation starts, under the list's lock, by finishing an archive a
// crash cut short: a list whose tasks are all completed is archived (or, if
// its archive copy already exists, only removed), exactly as List.Recover
// does. A crash therefore never loses a task and never needs a person.
//
// # Archive index
//
// Finishing a list must find an archive copy a crash left behind, and a
// list with the bytes of an archived one shares that archive; neither
// reads the archives. .taskmd/archives (library state: never *.md, never
// committed) holds one small file per archived list, named by the SHA-256
// of the list's bytes in lower-case hex and holding the base of its archive
// and a newline:
//
//	archived/coordinator/active-2026-11-22-093000
//
// An archive creates the entry (never replacing one) before the copy, and
// the copy before it removes the list. A list whose entry exists is
// archived under the entry's base, whatever the clock says
// (workspace.Tx.MoveAside takes base.md, base-2.md, ... and reuses the one
// that already holds the list), so a crash after the entry gives the copy
// the name it would have had, and a crash after the copy leaves it to be
// found; either way the list ends in exactly one archive. A list without
// an entry is named by the List's clock. An entry whose archive was deleted
// by hand gets a new copy under its old name.
//
// .taskmd/archives/README, created with the first entry, says that every
// archive made since has an entry. Without it (a workspace archived by an
// older version, a fresh clone, a deleted .taskmd) the next archive reads
// every archive once to find a copy of its list, then writes the README. An
// entry that cannot be read or is not such a base is passed over the same
// way, for its list only. The index is never a reason to fail: when it
// cannot be written, lists are archived without it, reading the archives
// each time as before.
//
// Deleting the folder, or its README, loses no list and no deduplication of
// a crash-cut archive: the next archive reads all the archives. It loses
// only sharing: a list identical to one archived before the deletion gets
// an archive of its own, unless it is the first archived after it.
// Deleting entries while keeping the README loses more: a list whose copy
// a crash left is then archived a second time (a duplicate, never a loss),
// and a list identical to an archived one gets its own. The same happens
// to a crash-cut archive made by an older version of the library working
// on the workspace at the same time, as it writes no entries.
//
// # Concurrency
//
// Every operation, reads included, runs under the workspace's lock on
// coordinator/active.md (an in-process mutex and a file lock), so
// goroutines and processes sharing a workspace see one task at a time
// pass through start and complete: each task is completed exactly once and a
// finished list is archived exactly once. Workflows and references are
// loaded before the lock is taken, from an unlocked read of the list, and
// used only if the task taken under the lock reads the same inputs
// (otherwise they are loaded again there). List values are safe for
// concurrent use.
package coordinator
