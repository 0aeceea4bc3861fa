// Package subagent keeps ad-hoc tasks in the Tasks sections of a workspace's
// documents, docs/**/*.md, for subagents that are handed one
// task at a time.
//
// # Addresses
//
// A document is addressed relative to docs/: "/api/authentication.md" is
// the file docs/api/authentication.md. A task is its document's address
// plus "#" and the task's slug, the GitHub anchor of its title:
// "/api/authentication.md#implement-jwt-signing".
//
// Subagent work is ad hoc: Start, Complete and Edit need a task address,
// and a document address is SUBAGENT_REQUIRES_SLUG (sequential work is the
// coordinator's, in package coordinator). Create, List and View take a
// document address. "/coordinator/..." and "/archived/..." belong to the
// coordinator list and to archives, so any address there is
// INVALID_NAMESPACE_FOR_SUBAGENT, with or without a slug.
//
// A task waits for the tasks its Depends-On names: Start, Complete and a
// status move to planning or in_progress are TASK_BLOCKED, naming each
// dependency that is not completed or skipped, until they are done; a
// person overrides it with StartOptions.Force, recorded in the task's
// Forced field. Create and Edit refuse a dependency on a task that does not
// exist, in the document or another (TASK_NOT_FOUND), and a cycle
// (DEPENDENCY_CYCLE).
//
// # Format
//
// Tasks are the headings one level below the document's Tasks heading,
// with their metadata as a list of "Key: value" items, then free text and
// @/ references to other documents (see package taskdoc for the details):
//
//	# Authentication
//
//	## Tasks
//
//	### Implement JWT signing
//
//	- Status: pending
//	- Workflow: tdd-incremental-orchestration
//
//	Implement token signing logic
//
//	@/specs/jwt-spec.md
//
// Create appends tasks in that form; it creates a missing document as
// "# <Title from the file name>" with a "## Tasks" section, and adds a
// Tasks section to a document that has none. Every change is spliced into
// the bytes of the task it concerns: front matter, other sections, tables,
// bullet styles and headings elsewhere stay byte for byte as they were, and
// a heading outside the Tasks section is never taken for a task, even one
// with the same title.
//
// # Rules
//
//   - Status is one of taskdoc.Statuses (pending, planning, in_progress,
//     paused, blocked, completed, failed, skipped); a task without one is
//     pending. Values are read with taskdoc.ParseStatus (case and
//     surrounding space do not matter). Create or Edit leaving another value,
//     and Start or Complete of a task whose Status a person mistyped, are
//     UNKNOWN_STATUS: the status rules cannot reason about such a task.
//   - Start moves a pending, planning or paused task to in_progress.
//     Starting an in_progress task again is a resume and changes nothing; a
//     blocked, failed or final task is INVALID_TRANSITION. SetStatus
//     moves a task by hand or as its agent reports (failed needs an error
//     text).
//   - Start returns the task, the text of its Workflow (workflows/<name>.md)
//     and the documents it references, followed recursively to the
//     configured depth (WithReferenceDepth, default 3) with cycles and
//     repeats cut. A workflow or reference that does not exist is listed in
//     Started.Missing and does not make Start fail; one that cannot be read
//     (a symbolic link, a file outside the root) is an error and the task
//     stays as it was (package taskcontext has the rule, the same for the
//     coordinator). The context is loaded before the document is locked,
//     from an unlocked read, and checked again under the lock. Start never
//     returns a Main-Workflow: that is orchestration, the coordinator's
//     business.
//   - Complete needs a note (NOTE_REQUIRED when empty after trimming) and
//     records Status: completed, Completed: <date> (UTC, from WithClock's
//     clock) and Note: <note> in the task's metadata list, in the list's own
//     bullet style; a note's line breaks are joined into one line. Completing
//     a completed task is INVALID_TRANSITION, never
//     a second note. Complete returns a confirmation, never a next task.
//   - Titles are unique within a document's Tasks section: Create and Edit
//     refuse a second task with the same slug (DUPLICATE_TASK). An unknown
//     slug is TASK_NOT_FOUND, and the error lists the slugs that exist. A
//     document that does not exist is DOCUMENT_NOT_FOUND (except for Create,
//     which creates it).
//   - An edit cannot complete a task (INVALID_TRANSITION) and a task cannot
//     be created completed (INVALID_TASK): only Complete records a note.
//     An edit of a completed task that would reopen it or change its
//     Completed or Note needs taskdoc.Edit.Reopen, so a writer holding
//     content read before the completion cannot undo it.
//   - Complete is safe to retry: completing a completed task with the note
//     it holds returns that completion (Completed.Replayed), writing
//     nothing; another note is INVALID_TRANSITION.
//
// Every error is a *taskdoc.Error whose Path and Slug are the address the
// caller gave (not the file name), matched with errors.Is against the
// taskdoc sentinels. A call that fails changes no file.
//
// # Archiving a document
//
// Archive moves a finished document out of docs/ by hand, byte for byte, to
// archived/docs/ under the same path ("/api/auth.md" to
// archived/docs/api/auth.md, then auth-2.md, auth-3.md, ... on a clash),
// unless an agent holds one of its tasks (STALE_CLAIM). The copy is written
// and synced before the document is removed, and the document is removed
// only if it still holds the copied bytes (an edit saved meanwhile is kept:
// CONFLICT), so a crash leaves a duplicate, never a loss, and calling
// Archive again finishes the job. query.ArchivedDocuments lists the
// archived documents; query.ReadArchived reads one.
//
// # Concurrency
//
// A Tasks value holds no state between calls and is safe for concurrent
// use. Each change reads, edits and writes its document under the
// workspace's lock for that file (a mutex within the process, a file lock
// across processes), and the file is replaced atomically and durably, so
// goroutines and processes completing different tasks of one document all
// succeed and none loses another's change. List and View read without a
// lock and see one complete version of the file.
//
// The words (document tasks, workflow, note) are defined once in docs/vocabulary.md.
package subagent
