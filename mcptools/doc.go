// Package mcptools serves taskmd's task tools to AI agents over the Model
// Context Protocol: Register adds them to a caller's *mcp.Server, next to
// the caller's own tools, and NewServer makes a server of them alone (the
// one `taskmd mcp` runs on stdin/stdout). Only this package, the taskmd
// command and the examples import the MCP SDK; a program that uses the library packages
// without it never compiles the SDK.
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "my-server", Version: "v1"}, nil)
//	mcp.AddTool(server, &mcp.Tool{Name: "project_status", ...}, projectStatus)
//	if err := mcptools.Register(server, ws); err != nil { ... }
//
// # Toolsets
//
// The tools come in toolsets, all registered unless WithToolsets chooses some:
// ToolsetSubagent and ToolsetCoordinator (the two task systems), ToolsetAgents
// and ToolsetPlans (the agent protocol), ToolsetPivots,
// ToolsetCheckpoints (worker checkpoints), ToolsetResume and
// ToolsetClarifications (the pivot and checkpoint-resume protocols), ToolsetQueries (questions
// across the workspace), ToolsetEdits (the operations agents missed), and ToolsetWorktrees (a git
// worktree per agent). WithReadOnly keeps only the tools that change
// nothing; WithDynamicToolsets adds toolsets_list and toolset_enable, with
// which an agent adds a toolset while the server runs. WithClock sets the one clock of
// every tool, WithShutdown the context whose end cancels the calls in
// flight.
//
// # Resources
//
// WithResources serves the documents under docs/ and the coordinator's
// list, and their tasks, as resources, whatever the toolsets:
// taskmd://docs/api/auth.md is /api/auth.md and
// taskmd://docs/api/auth.md/sign-tokens is /api/auth.md#sign-tokens
// (ResourceTemplate); documents are listed ResourcesPage at a time, read
// as their bytes, a task as its text. On a server made by NewServer a
// client may subscribe to a document or a task: one watch of the
// workspace per server, running while any session is subscribed, sends
// notifications/resources/updated when the document's content, or the
// task's text, changes, whoever wrote it.
//
// # Annotations and schemas
//
// Every tool carries MCP annotations: readOnlyHint for the tools that only
// read; for the others destructiveHint (the call may remove or replace
// what someone wrote: a task's content, a Plan field, an agent, a claim a
// hard pivot takes back) and idempotentHint (the same call made again
// changes nothing more: a retried complete replays the first answer). None
// reaches an open world (openWorldHint false). Inputs that take one of a
// fixed set of values (statuses, checkpoint types, pivot modes, batch
// operations, formats) carry an enum in their input schema, every integer
// input the range 0 to 2147483647 (a number outside it, such as 1e308, is
// INVALID_ARGUMENTS naming the input and the range), and every input
// schema refuses unknown fields. Each tool's result is a Go struct of this
// package with exported, JSON-tagged fields, whose output schema the tool
// declares small: the result's own fields with their JSON types, an
// object or a list of objects without its members, no descriptions.
//
// # Guides
//
// Tool descriptions are short. The long guidance of each protocol is
// served as a prompt (task-lists, work-a-plan, pivot-protocol,
// resume-after-pause) and, all together, as the resource taskmd://guide
// (GuideURI), for the toolsets registered; Instructions names them, and
// NewServer's instructions name only the toolsets and prompts it serves.
//
// # The tools
//
// A workspace is a root directory with documents in docs/,
// the coordinator list in coordinator/active.md, workflow texts in
// workflows/ and finished coordinator lists in archived/coordinator/. The
// task tools keep the names, inputs and result fields that task-list
// agents already use, so an agent can switch servers without
// changing its prompts (document addresses relative to docs/; see
// Compatibility below):
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
// and the tools of the agent protocol, with the protocol's names,
// for several agents working one plan (see The agent protocol below):
//
//	agent_register       name, runtime, role (default worker), capabilities, workspace_path, metadata, id
//	agent_heartbeat      agent_id, current_task_id, status
//	agent_unregister     agent_id
//	workflow_create      name, description, path
//	workflow_set_plan    workflow_id, tasks [{name, description, depends_on, workflow}]
//	workflow_list        status ([in_progress, ...])
//	workflow_progress    workflow_id
//	workflow_next_tasks  workflow_id
//	task_claim           task_id, agent_id
//	task_release         task_id, agent_id
//	task_load_context    task_id, include {workflow_plan, prior_task_outcomes, dependency_outcomes,
//	                     recent_checkpoints, all_checkpoints, workflow_prompt, references}, max_tokens
//	task_set_plan        task_id, plan
//	task_update_status   task_id, status, outcome, outcome_detail, error
//	checkpoint_add       task_id, type, summary, detail, files_changed, key
//	checkpoint_list      task_id, limit, types, since_sequence; or worker_id, limit;
//	                     or limit alone: every worker's checkpoints
//
// A task is task_id, an agent agent_id, a plan workflow_id, in every tool
// but start_subagent_task and complete_subagent_task (document). The names
// the agent protocol's server gives them otherwise (id), taskmd's older
// task, and the protocol's call shapes (workflow_create's source_content,
// workflow_set_plan's plan {summary, tasks}, task_set_plan's plan object)
// are translated by one table before the input schema is checked
// (arguments.go; docs/mcp.md lists it).
//
// and the tools of pivots, worker checkpoints and resumption (the pivot protocol and
// 004; see Pivots below):
//
//	pivot_worker         worker_id (or worker_ids), mode (graceful|immediate|hard), reason,
//	                     new_task, task_id, wait_seconds (default 60; 0: do not wait)
//	pivot_acknowledge    checkpoint {original_task, completed, in_progress, remaining, blocked,
//	                     parallel_work_available, files_changed [{path, note}], decisions,
//	                     notes, resume_instructions, sections [{heading, body}]}
//	checkpoint_save      worker_id, task_id, status, phase, pivot_mode, pivot_reason,
//	                     clarification_id, and the sections of pivot_acknowledge's checkpoint
//	checkpoint_get       worker_id, sequence, format (markdown|json)
//	checkpoint_diff      worker_id, from, to
//	resume_queue         (none)
//	resume_brief         task_id, max_tokens, worker_id
//	clarification_ask    questions [{question_id, text}], id, blocked_at, reason, work_continues,
//	                     parallel_work_available, wait_seconds (default 60; 0: ask only),
//	                     task_id, checkpoint {the sections of pivot_acknowledge's checkpoint}
//	clarification_check  id, worker_id; or nothing: every open request and answered worker
//	clarification_respond worker_id, id, responses [{question_id, answer}], resume_signal
//	                     (default true), resume_method, resume_instructions, checkpoint_path
//
// and the tools of queries across the workspace and of the operations
// that agents otherwise do by rewriting a task (see package query, and
// subagent.Tasks.Archive and coordinator.List.Archives for the archives):
//
//	documents_list       (none): documents with their task counts per status
//	tasks_find           status [...], document (or folder/), workflow, holder, depends_on, fields, text, limit
//	workflows_list       (none): the workflow prompts of workflows/
//	task_remove          task_id (/doc.md#slug or /coordinator/active.md#slug), force, if_version
//	task_set_status      task_id, status (block, unblock, reopen, fail: no completed), reason
//	document_archive     document (to /archived/docs/...)
//	archives_list        (none): archived documents and coordinator lists
//	archive_read         name
//
// and the agent protocol's workspace isolation, a git worktree and branch per agent
// (package worktree):
//
//	workspace_create     branch, base_branch, create_worktree, repo_path, path, workflow_id,
//	                     agent_id, task_ids, id
//	workspace_update     id, status (active|merged|abandoned; merged needs merge_commit),
//	                     merge_commit, pr_url, cleanup_worktree
//	workspace_list       status [...]
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
// not take). A task address of the coordinator list without a slug
// ("/coordinator/active.md") is INVALID_ADDRESS, as a document address is
// SUBAGENT_REQUIRES_SLUG, not TASK_NOT_FOUND, which task_remove answers
// for a removal already done. start_coordinator_task and complete_coordinator_task accept an
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
// # Compatibility with task-list agents
//
// Tool names, input fields and result fields are the ones such agents use:
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
//     ("/api/auth.md", "@/specs/jwt.md"), as in the design. The
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
// # The agent protocol
//
// The agent protocol's tools are package plan and package agent over MCP. A plan
// (the protocol's workflow) is a document under docs/ with a Tasks section; its
// workflow_id is its address ("/api/auth.md"), a task's id its address
// ("/api/auth.md#implement-jwt-signing"). An agent registers, finds work
// with workflow_next_tasks, claims a task (task_claim answers {success:
// true, claim} or {success: false, already_claimed_by}: then it claims the
// next task offered), loads its context, records its approach
// (task_set_plan), moves it to in_progress, adds checkpoints, sends
// heartbeats every next_heartbeat_ms, completes it with an outcome and
// unregisters. After a lost context: workflow_list with status
// [in_progress], workflow_progress, task_claim again (the agent holding
// it gets its claim back) and task_load_context with include {all_checkpoints: true}.
// The tool descriptions teach this sequence.
//
// The agent registered on an MCP session is that session's caller, and the
// only agent the session acts as. agent_register binds the agent's id to
// the session; task_claim, agent_heartbeat and agent_unregister take that
// id, and refuse another before anything is written (INVALID_ARGUMENTS
// naming the session's agent). A session with no agent yet becomes the
// agent its first task_claim or agent_heartbeat names, unless another open
// session of the server is that agent (a worker back in a new process
// claims its task again as itself). An id is bound to one session of a server at a
// time: registering an existing agent again (its id, name and runtime; see
// agent.Registry.Register) makes the session that agent, after a reconnect
// or a lost context, and the session it was bound to is no agent any more
// and forgets the claims it made as it. An agent id names an agent, it is
// not a secret: the rule keeps each session to the identity it registered,
// it does not authenticate callers, and the binding lives in one server
// process: two servers on one workspace (each stdio client runs its own)
// do not know each other's sessions. checkpoint_save by an agent's session
// saves that agent's checkpoints only. Orchestrator tools that name
// another agent (pivot_worker, resume_brief with worker_id) ask for work on
// its behalf; they never hand the session that agent's claim. A hard pivot
// takes a task from its holder by the orchestrator's authority, on record
// in the worker's pivot request; any session may ask one, as the pivot
// protocol has workers that orchestrate others.
//
// The server keeps, for as long as the session lasts, the session's agent
// and the fencing token of every claim task_claim granted it, and presents
// them (plan.Claimant) with every task_update_status, task_set_plan,
// checkpoint_add and task_release the session makes: on a task the session
// claimed, its claim; on another, its agent without a token. So a status
// update, plan or checkpoint on a task another agent holds is STALE_CLAIM
// and nothing is written, and so are the writes of an agent whose
// heartbeats stopped for longer than the timeout (60 seconds) after another
// agent took its task over. A session that did not register is a caller
// that is not an agent: it claims nothing, and writes, through any tool
// (the task systems' too), only on a task no agent holds. A session stays
// fenced as its agent after agent_unregister. task_release by a session
// that holds no claim on the task is STALE_CLAIM.
//
// task_load_context starts from plan.DefaultInclude (everything, the 5
// newest checkpoints) and applies the include switches given; max_tokens
// defaults to 8000. Results carry the protocol's names: task_load_context
// {workflow, current_task, prior_tasks, dependency_outcomes, cut, tokens,
// ...}, workflow_next_tasks {tasks}, agent_heartbeat {success,
// next_heartbeat_ms}, agent_register {id, name, status: "online", ...}.
// checkpoint_add takes detail as text or as any JSON value, which is kept
// as JSON text. task_update_status records the outcome_detail of a
// completion (any JSON value; refused with other statuses) as a checkpoint
// of type complete, written after the status with a key derived from the
// call, so that a retried completion adds it once; the result carries it
// under checkpoint.
//
// # Pivots
//
// The pivot protocol's pivot protocol is package worker over MCP. An orchestrator
// calls pivot_worker with a worker's agent id, a mode, a reason and
// optionally a new task (a task address, claimed for the worker when it
// acknowledges, or free text). The request is recorded in
// checkpoints/workers/<worker>/pivot.json, and while it is pending every
// tool result of a session whose agent is that worker carries it: under
// pivot_request in the structured content (and in the JSON text that
// repeats it), or, for a result without structured content (a tool error),
// as one more text content {"pivot_request": {...}} after the error's text.
// agent_heartbeat's answer carries it for the agent_id it names. Finding it
// costs one read of that small file per call (a server middleware does it);
// every output schema declares the optional pivot_request. The notice holds
// the request (id, task_id, mode, reason, new_task, requested, state) and
// instructions after the protocol's [PIVOT REQUEST] message.
//
// The worker answers with pivot_acknowledge and its checkpoint: it is saved
// as the worker's checkpoint (phase pivoted), its task is paused with a
// Checkpoint field pointing at it, the session's claim on the task is
// presented and ends, and a new task given as an address is claimed for the
// worker, the session keeping that claim. Meanwhile pivot_worker waits
// (wait_seconds, default 60) for the acknowledgement through file
// notifications, without polling, and returns {pivots: [{worker_id,
// request, checkpoint, checkpoint_json}], acknowledged}, checkpoint_json
// being the checkpoint-resume protocol's JSON form; or NO_ACK, whose text advises a hard pivot and
// whose structured content still lists the requests. mode hard takes the
// task back at once (back to pending, its claim void, no checkpoint) and
// does not wait; the worker acknowledges it to take the new task.
// worker_ids pivots several workers at once (a pivot chain) and waits for
// them together. A repeated pivot_worker with the same arguments is a retry
// of the pending request, so an orchestrator may ask without waiting
// (wait_seconds 0) and wait later.
//
// checkpoint_save records a worker checkpoint of the session's agent (or
// of worker_id); checkpoint_get reads one back as Markdown or in the checkpoint-resume protocol's
// JSON, checkpoint_list with worker_id lists a worker's newest first
// (without it, every worker's), and
// checkpoint_diff compares two (the previous and the current by default).
// resume_queue lists the paused tasks with their checkpoints, oldest
// first; resume_brief renders a task's resume brief, and with worker_id
// resumes it for that worker (claimed, back in progress), the session
// keeping the claim when the worker is its agent.
//
// # Clarifications
//
// The checkpoint-resume protocol's checkpoint and resume pattern: a worker that cannot decide
// alone calls clarification_ask with its questions and its checkpoint.
// The call itself is the brief poll: it waits (wait_seconds, default 60;
// woken by file notifications) for the parent's answer and returns
// {status: answered, answer}; without one, the checkpoint is saved (phase
// waiting_clarification, status BLOCKED) and the call returns {status:
// suspended, checkpoint}: the worker exits, spending nothing more. The
// parent lists the open requests and the suspended workers whose answers
// arrived with clarification_check, answers with clarification_respond
// (whose result carries the resume_prompt once the worker is suspended)
// and resumes the worker with that prompt. clarification_check with id
// reads one request and its answer.
//
// # Concurrency
//
// Calls are served concurrently, as the SDK runs them, so a client that
// needs one call to follow another waits for its answer. Several server
// processes may share a workspace: every change is a locked, atomic update
// of one file (see package workspace), so no completion is lost.
// Register and NewServer may be called from any goroutine; the tools of
// one Register share the state of each MCP session. Register refuses a
// server that already has a tool named as one of taskmd's (a second
// Register included), and replacing one of taskmd's tools after Register
// is not supported (see Register).
package mcptools
