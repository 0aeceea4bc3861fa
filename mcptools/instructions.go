package mcptools

// Instructions is the server instructions text of NewServer: how the
// tools fit together, for the agent. A server that registers taskmd's
// tools next to its own may include it in its own instructions.
const Instructions = `Two task systems, kept apart on purpose, and the agent protocol.
Coordinator tasks (coordinator_task, start_coordinator_task, complete_coordinator_task): your own sequential to-do list in /coordinator/active.md. It survives context compression; start and complete always take the next task; the first task carries the Main-Workflow; the list archives itself when done.
Subagent tasks (subagent_task, start_subagent_task, complete_subagent_task): ad-hoc work in knowledge-graph documents under docs/, addressed as /document.md#slug and done in any order, usually by subagents.
Plans for several agents (agent_*, workflow_*, task_*, checkpoint_*, the agent protocol): a plan is a docs/ document (workflow_id /api/auth.md), a task its address (/api/auth.md#slug). Lifecycle: agent_register → workflow_next_tasks → task_claim → task_load_context → task_set_plan → task_update_status in_progress → checkpoint_add after each step → agent_heartbeat every next_heartbeat_ms → task_update_status completed with outcome → agent_unregister. After a lost context: workflow_list status [in_progress] → workflow_progress → task_claim again → task_load_context with include {all_checkpoints: true}. The agent registered on a session is its caller: its writes on a task another agent holds are STALE_CLAIM.
Pivots (seed 000): an orchestrator stops a worker mid-task with pivot_worker and gets its checkpoint; the worker sees pivot_request in every result (and heartbeat answer) while one is pending, and answers with pivot_acknowledge and its checkpoint. Worker checkpoints: checkpoint_save, checkpoint_get, checkpoint_list {worker_id}, checkpoint_diff. Paused tasks wait in resume_queue; resume_brief {task_id, worker_id} hands one to a worker with its brief.
Clarifications (seed 004): a worker asks with clarification_ask and waits briefly inside the call; without an answer its checkpoint is saved and it exits. The parent lists requests with clarification_check, answers with clarification_respond and resumes the worker with the resume_prompt.
A failed call's text starts with a stable code, e.g. SUBAGENT_REQUIRES_SLUG or MAIN_WORKFLOW_REQUIRED.`
