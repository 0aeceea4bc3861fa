package mcptools

// Instructions is the server instructions text of NewServer: what the
// tools are for, and where each protocol is explained at length (the
// prompts and the resource of guides.go). A server that registers
// taskmd's tools next to its own may include it in its own instructions.
const Instructions = `taskmd keeps task state in Markdown files under docs/.
coordinator_*: your own sequential to-do list, which survives context compression. subagent_*: tasks in documents (/doc.md#slug), handed to subagents.
agent_*, workflow_*, task_*: plans shared by several agents, who claim tasks with leases kept by heartbeats.
pivot_*: stop a worker mid-task. checkpoint_*, resume_*, clarification_*: stop a worker and resume it later, or ask a person and exit until the answer comes.
Before using a protocol, read its prompt (task-lists, work-a-plan, pivot-protocol, resume-after-pause) or the resource taskmd://guide.
A failed call's text starts with a stable code, e.g. TASK_BLOCKED.`
