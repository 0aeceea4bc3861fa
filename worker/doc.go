// Package worker stops a worker in the middle of its task and sends it
// elsewhere without losing its progress: seed 000's pivot, on the agents,
// claims and plans of package plan and the worker checkpoints of package
// checkpoint.
//
// # Pivot
//
// An orchestrator calls Pivots.Request for a worker (an agent id) with a
// mode, a reason and optionally a new task (a task address, which is claimed
// for the worker, or free text):
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
// at once (the seed's pivot chains).
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
// Each step of Acknowledge is idempotent and they run in an order that is
// safe to stop anywhere: the checkpoint is saved first (whole or not at all),
// then the task is paused and let go in one locked update, then the new task
// is claimed, then the request is marked acknowledged. A worker killed
// midway acknowledges again and finishes the job; until then its task is
// still its own (or paused with its checkpoint), never lost and never held
// twice. A repeated Request with the same content returns the pending
// request.
package worker
