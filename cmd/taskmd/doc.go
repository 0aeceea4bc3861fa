// Command taskmd is a command-line tool on the taskmd library: the tasks of
// both task systems, archives, agents and claims on plans, task journals,
// pivots, worker checkpoints and clarifications, and a watch of the
// workspace, for people, scripts and agents that would rather run a command
// than load an MCP server's schemas.
//
//	taskmd [-C DIR] [--json] COMMAND [ARGS]
//
// "taskmd help" prints every command; "taskmd help CMD" (or "taskmd CMD
// -h") a command's flags, an example and its exit statuses. "taskmd
// --version" reads the build information; "taskmd completion bash|zsh|fish"
// prints a completion script made from the same command table. Flags may come before or
// after the command and between its arguments; "--" ends them. The
// workspace root is found upward from the current folder, or from -C DIR
// (else TASKMD_ROOT), by workspace.Find: the nearest folder holding
// taskmd.toml, else docs/ or coordinator/; "taskmd init" makes one. A task is named by its address,
// "/api/auth.md#implement-jwt-signing" (docs/api/auth.md); a document by
// "/api/auth.md"; a folder by "/api/" ("api" and "api/" read the same).
// Subagent tasks are started and completed by address; the coordinator
// list is worked through in order by the "coordinator" subcommands (start
// and complete take no slug), while show, status and rm also take
// "/coordinator/active.md#slug" ("status ADDRESS completed --note N"
// completes a coordinator task only when it is the one in progress, the
// task coordinator complete would complete: INVALID_TRANSITION otherwise).
//
// Commands by group:
//
//   - tasks: list, find, ready, show, create, start, complete, status
//     (block, unblock, reopen, fail, ...), rm, workflows;
//   - coordinator list|view|create|start|complete|archive|clear|recover;
//   - archive DOC, archives [list|show NAME];
//   - agents and plans: agent register|heartbeat|unregister|list, next,
//     claim, release, progress, context, checkpoint add|list (a task's
//     journal); complete, status and checkpoint add with --agent and
//     --token write as the claim holder (STALE_CLAIM once the claim is
//     gone);
//   - workers: pivot (with --wait, until the worker acknowledges or
//     NO_ACK), checkpoint list|show|diff --worker (list without it: every
//     worker's), resume-brief, questions, answer; the worker's side: pivot
//     acknowledge and ask with its checkpoint (flags or a Markdown or JSON
//     file), ask ending SUSPENDED (exit 6) when no answer comes within
//     --wait, resume-brief --worker ID once the answer is in;
//   - instructions [--role worker|orchestrator]: the text for AGENTS.md or
//     CLAUDE.md;
//   - watch: one line per changed document until interrupted;
//   - init [DIR]; mcp [-root DIR] (the MCP server on stdin/stdout); lsp
//     (runs taskmd-lsp, cmd/taskmd-lsp, from PATH); board [--addr A]
//     [--read-only] [--open] (the web board for people, docs/board.md).
//
// # Output
//
// Text output is short and stable: lists are aligned columns (status,
// address, title), a task is printed as the Markdown it is in its document
// under its address. With --json every command prints one line of JSON,
// one object that starts with "schema_version":1 (docs/schema/taskmd.schema.json).
// A task is always the same object (taskJSON: address, document, then the
// task's fields), alone under "task" or in a list under "tasks"; ready,
// next and progress add their fields beside it. Other lists are named
// ("documents", "agents", "checkpoints", ...; worker checkpoints in the
// checkpoint-resume protocol's JSON form). watch --json prints one object
// per changed document, first {"event":"watching"} once it sees every change:
//
//	{"schema_version":1,"event":"changed","document":"/api/auth.md","tasks":[{"address":"/api/auth.md#sign","change":"status","from":"pending","to":"in_progress"}]}
//
// # Errors and exit status
//
// Errors go to stderr as "taskmd: CODE: message", with --json as one
// object {"code", "message", "path", "slug", "available", "line", "column",
// "excerpt", "exit"}. CODE is the library's (taskdoc.CodeOf), or USAGE,
// ALREADY_CLAIMED (claim, resume-brief: another online agent holds the
// task) and ERROR (no code). One table (exitCodes) maps codes to the exit
// status:
//
//	0 ok
//	1 other (IO_ERROR, ERROR)
//	2 usage (USAGE)
//	3 not found (TASK_NOT_FOUND, DOCUMENT_NOT_FOUND, AGENT_NOT_FOUND, NO_AVAILABLE_TASKS)
//	4 conflict (CONFLICT, STALE_CLAIM, ALREADY_CLAIMED, DUPLICATE_TASK, INVALID_TRANSITION)
//	5 invalid input (INVALID_ADDRESS, UNKNOWN_STATUS, NOTE_REQUIRED, INVALID_TASK, ...)
//	6 SUSPENDED
//	7 NO_ACK
//	130 interrupted by SIGINT (143 by SIGTERM), as a shell reports it: watch ends this way
//
// A command that fails changes no file (the library's guarantee).
//
// # Clock
//
// TASKMD_NOW (RFC 3339, "2026-01-02T03:04:05Z") fixes the clock of every
// package: completion dates, archive names, heartbeats, checkpoints. It is
// meant for tests and scripts that compare output.
//
// # Example
//
//	$ taskmd -C ws create /api/auth.md --title "Sign tokens" --content "- Status: pending"
//	created /api/auth.md#sign-tokens
//	$ taskmd -C ws agent register --id w1 --name worker-1 --runtime claude_code
//	w1
//	$ taskmd -C ws claim /api/auth.md#sign-tokens --agent w1
//	claimed /api/auth.md#sign-tokens token 1
//	$ taskmd -C ws complete /api/auth.md#sign-tokens --note "RS256" --agent w1 --token 1
//	completed /api/auth.md#sign-tokens
//
// Each command is one process with its own workspace handle; the library's
// file locks make concurrent commands on one workspace safe.
package main
