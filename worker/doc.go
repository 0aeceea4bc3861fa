// Package worker stops a worker in the middle of its task and sends it
// elsewhere without losing its progress: the pivot protocol's pivot, on the agents,
// claims and plans of package plan and the worker checkpoints of package
// checkpoint.
//
// # Pivot
//
// An orchestrator calls Pivots.Request for a worker (an agent id) with a
// mode, a reason and optionally a new task (a task address, which is claimed
// for the worker and must exist and not be done already, or free text). The worker is pivoted from the task the
// request names, or else from the current task of its last heartbeat, or
// from none when that task is done already (a done task named is
// INVALID_TRANSITION):
//
//   - graceful (the default): the worker finishes its current step, then
//     acknowledges;
//   - immediate: the worker acknowledges at once;
//   - hard: the orchestrator takes the task back at once (plan.Plans.Revoke:
//     its claim ends and it returns to pending); no checkpoint is written.
//
// The request is a small JSON file beside the worker's checkpoints,
// checkpoints/workers/<worker>/pivot.json, so the worker learns of it
// cheaply on its next call (Pending: one read; the MCP server adds it to
// every result for that worker and to the heartbeat answer). The worker
// acknowledges with its checkpoint (Acknowledge): the checkpoint is saved
// (phase pivoted, with the mode and reason), its task becomes paused and
// points at the checkpoint, its claim ends, the new task given as an address
// is claimed for it, and the request records all of it. The orchestrator
// waits for the acknowledgement (Wait) without polling, through file
// notifications, up to a timeout (60 seconds by default), and gets the
// request as acknowledged, with the checkpoint's path, or NO_ACK with the
// advice to pivot in hard mode. RequestAll and WaitAll pivot several workers
// at once (the protocol's pivot chains).
//
// # Resume
//
// ResumeQueue lists the paused tasks of every plan with the checkpoints
// their Checkpoint fields point at, oldest first. Brief renders the Markdown
// a new worker is started with: the checkpoint's original task, completed,
// in-progress and remaining items, blocked work, files, decisions, notes and
// resumption instructions, then the task's context from its plan. Resume
// claims the task for the new worker, moves it back to in progress and
// returns the brief.
//
// # Failures and retries
//
// Acknowledge first decides every refusal (plan.Plans.CheckPause and
// CheckClaim: a stale or missing claim, a new task missing, blocked or held
// by another agent) and a refused call writes nothing; a task the worker
// completed or skipped before it acknowledged is left as it is (nothing is
// left to let go of). Each step is idempotent and they run in an order that is
// safe to stop anywhere: the checkpoint is saved first (whole or not at all),
// then the task is paused and let go in one locked update, then the new task
// is claimed, then the request is marked acknowledged. A worker killed
// midway acknowledges again and finishes the job; until then its task is
// still its own (or paused with its checkpoint), never lost and never held
// twice. A repeated Request with the same content returns the pending
// request.
//
// # Clarification
//
// A worker that needs an answer (the checkpoint-resume protocol) records a request with
// Clarifications.Ask: the file
// checkpoints/workers/<worker>/clarifications/<id>.json, in the protocol's
// names (agent_id, timestamp, blocked_at, reason, questions with
// question_id and text, checkpoint_info, work_continues,
// parallel_work_available); ids are "cl_" and 12 hex digits, or the
// worker's own (a retry key). It then calls Await with its checkpoint:
// a brief poll (60 seconds by default, re-checked every 5 seconds besides
// the file notifications that wake it at once). An answer that arrives
// meanwhile is returned and the work goes on, with no checkpoint written;
// otherwise the checkpoint is saved (phase waiting_clarification, status
// BLOCKED, the request's id), its path is recorded in the request, and
// Await returns ErrSuspended (SUSPENDED): the worker must exit.
// AskAndAwait does both as one call: it checks the request and the
// checkpoint before it writes anything, and a wait that fails otherwise
// removes the request it wrote.
//
// The parent lists the open requests (Open), writes the answer with
// Respond, <id>.answer.json beside the request (responses, resume_signal,
// resume_method, resume_instructions; a retry writes nothing, a different
// answer to an answered request is CONFLICT, an answer without the resume
// signal is a draft that may be replaced), learns of answers without
// polling (WatchAnswers, on file notifications of every worker's folder),
// lists the suspended workers whose answers have arrived (Answered), and
// resumes each with the Markdown of ResumePrompt: the previous state, the
// answers, the resume instructions, the next steps and the context
// preserved. A worker leaves Answered when it saves its next checkpoint.
package worker
