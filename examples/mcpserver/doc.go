// Command mcpserver serves taskmd's task tools to AI agents over the Model
// Context Protocol, on stdin/stdout:
//
//	go run ./examples/mcpserver -root DIR
//
// DIR is a taskmd workspace: knowledge-graph documents in docs/, the
// coordinator list in coordinator/active.md, workflow texts in workflows/,
// finished coordinator lists in archived/coordinator/. The tools are those of
// the AI-Prompt-Guide MCP server, with the same names, inputs and result
// fields, so an agent can switch servers without changing its prompts:
//
//	subagent_task              document, operations [{operation: create|edit|list, title, content, task, status}]
//	start_subagent_task        document ("/api/auth.md#slug")
//	complete_subagent_task     document ("/api/auth.md#slug"), note
//	view_subagent_task         document, slugs
//	coordinator_task           operations [{operation: create|edit|list|clear, title, content, task, status}]
//	start_coordinator_task     return_task_context
//	complete_coordinator_task  note, include_full_workflow
//	view_coordinator_task      slugs
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
// COORDINATOR_IS_SEQUENTIAL, which tells it why, instead of a schema error.
//
// # Batches
//
// subagent_task and coordinator_task apply their operations in order and
// stop at the first one that fails. Consecutive creates are one locked
// update of the file: all of them are added, in order, or none is. The result
// is {operations_completed, results}, where operations_completed counts the
// leading operations that were applied and results holds, per applied
// operation, {task: {slug, title}} (create, edit), {count, tasks} (list) or
// {removed} (clear). When the batch stops, the call is a tool error whose
// text starts with the failure's code, and its structured content still
// carries the results so far plus one {error} entry for the operation that
// failed: operations[operations_completed:] were not applied and may be sent
// again once fixed. Fields an operation does not take (a status on a create)
// are refused before anything runs.
//
// # Concurrency
//
// Calls are served concurrently, and several server processes may share a
// workspace: every change is a locked, atomic update of one file (see
// package workspace), so no completion is lost.
//
// Only this example imports the MCP SDK; the library packages do not.
package main
