// Command mcpserver serves taskmd's task tools to AI agents over the Model
// Context Protocol, on stdin/stdout:
//
//	go run ./examples/mcpserver -root DIR
//
// DIR is a taskmd workspace: knowledge-graph documents in docs/, the
// coordinator list in coordinator/active.md, workflow texts in workflows/,
// finished coordinator lists in archived/coordinator/. The tools are those of
// the AI-Prompt-Guide MCP server, with the same names, inputs and result
// fields, so an agent can switch servers without changing its prompts
// (document addresses relative to docs/; see Compatibility below):
//
//	subagent_task              document, operations [{operation: create|edit|list, title, content, task, status}]
//	start_subagent_task        document ("/api/auth.md#slug")
//	complete_subagent_task     document ("/api/auth.md#slug"), note
//	view_subagent_task         document ("/api/auth.md" or "/api/auth.md#a,b"), slugs
//	coordinator_task           operations [{operation: create|edit|list|clear, title, content, task, status}]
//	start_coordinator_task     return_task_context
//	complete_coordinator_task  note, include_full_workflow
//	view_coordinator_task      slugs (or slug: "a,b")
//
// # Results and errors
//
// Every result is structured content, repeated as JSON text. A failed call
// is a tool error (isError) whose text starts with a stable code and a colon:
//
//	TASK_NOT_FOUND: task "x" not found in /api/auth.md; available: a, b
//
// The codes are taskdoc's, plus INVALID_ARGUMENTS for arguments that do not
// fit the tool (refused by its input schema, or a field the operation does
// not take). start_coordinator_task and complete_coordinator_task accept an
// optional document, which may only name /coordinator/active.md: an agent
// that passes "/coordinator/active.md#slug" out of habit gets
// COORDINATOR_NO_SLUG_ALLOWED, which tells it why, instead of a schema error.
//
// # Batches
//
// subagent_task and coordinator_task apply their operations in order and
// stop at the first one that fails. Consecutive creates are one locked
// update of the file: all of them are added, in order, or none is. The result
// is {success, document, operations_completed, results, timestamp}, where
// operations_completed counts the leading operations that were applied and
// results holds, per applied operation, {operation, status, task: {slug,
// title}} (create, edit), {operation, status, count, tasks} (list) or
// {operation, status, removed} (clear). When the batch stops, the call is a
// tool error whose text starts with the failure's code, and its structured
// content still carries the results so far plus one {operation, status:
// "error", error} entry for the operation that failed:
// operations[operations_completed:] were not applied and may be sent again
// once fixed. Fields an operation does not take (a status on a create)
// are refused before anything runs.
//
// # Compatibility with the AI-Prompt-Guide server
//
// Tool names, input fields and result fields are the reference server's:
// start results carry mode ("adhoc" or "sequential"), document and task
// {slug, title, content, status, full_path, workflow, main_workflow,
// referenced_documents}; a referenced document is {path, title, content,
// depth, namespace, children}, children [] when empty; complete results
// carry completed_task {slug, title, note, completed_date} and timestamp
// (the UTC date), the coordinator's also mode, next_task, archived and
// archived_to; batch results are {success, document, operations_completed,
// results, timestamp} with one {operation, status, ...} per operation
// (status created, updated, listed, cleared or error). view_coordinator_task
// takes slug as the reference does ("phase-1,phase-2") besides slugs, and
// view_subagent_task takes "/doc.md#task1,task2". Fields added here (missing,
// blocked, the task of an edit result, the optional document of the
// coordinator's start and complete) are ones an agent may ignore.
//
// Deliberate differences:
//   - Document addresses and @references are relative to docs/
//     ("/api/auth.md", "@/specs/jwt.md"), as in the seed design. The
//     reference's later versions write the folder ("/docs/api/auth.md"),
//     which here names docs/docs/api/auth.md; a document not found under
//     such an address gets a tool error that names the address probably
//     meant ("did you mean /api/auth.md#sign?").
//   - A failed call is an MCP tool error (isError) whose text starts with
//     the code, where the reference answers with a JSON error object as
//     ordinary text.
//   - A batch stops at the first failing operation, and a run of creates is
//     written all or nothing; the reference runs every operation and reports
//     each failure in place. operations_completed counts the same applied
//     operations in both when only the last one fails.
//   - There is no batch size limit (the reference refuses over 100
//     operations), and a document may hold any number of tasks.
//   - Start marks the task in_progress, a coordinator list's first task must
//     carry Main-Workflow, completing a completed task is an error, and
//     coordinator_task has clear: the reference does none of these.
//   - Archives are named active-YYYY-MM-DD-HHMMSS.md (UTC, -2, -3, ... for a
//     second archive in the same second), where the reference's
//     active-YYYY-MM-DDTHH-MM-SS.md names let two archives overwrite each
//     other; the server process also stays up after an archive.
//   - In a subagent_task batch, task names the task to edit ("slug",
//     "#slug" or "/other.md#slug"); a create or list that gives task is
//     refused rather than sent to another document.
//
// # Protocol
//
// The server speaks newline-delimited JSON-RPC on stdin and stdout, and
// writes nothing else to stdout: logs go to stderr. A line that is not a
// JSON-RPC message gets a JSON-RPC error (-32700 parse error, -32600
// invalid request) and is skipped; the session goes on. When the client
// closes stdin, the calls already received are answered (for up to ten
// seconds) before the server exits with status 0. SIGINT and SIGTERM end it
// at once, with status 0: calls in flight see their context cancelled,
// which stops a wait for a lock, and an update is written whole or not at
// all. A -root that is missing or not a directory is reported on stderr
// with exit status 1.
//
// # Concurrency
//
// Calls are served concurrently, as the SDK runs them, so a client that
// needs one call to follow another waits for its answer. Several server
// processes may share a workspace: every change is a locked, atomic update
// of one file (see package workspace), so no completion is lost.
//
// Only this example imports the MCP SDK; the library packages do not.
package main
