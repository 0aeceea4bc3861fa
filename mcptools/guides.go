package mcptools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A guide is the long guidance of one protocol: what the tools' short
// descriptions leave out. Register serves each guide of its toolsets as a
// prompt and as part of the resource taskmd://guide, so that an agent
// reads it once, when it needs it, rather than in every tool's
// description.
type guide struct {
	prompt   string    // the prompt's name
	title    string    // the guide's heading
	about    string    // the prompt's description: one line
	toolsets []Toolset // the guide is served when one of them is registered
	text     string
}

// GuideURI is the resource that holds the guides of the registered
// toolsets, in Markdown.
const GuideURI = "taskmd://guide"

var guides = []guide{
	{
		prompt:   "task-lists",
		title:    "Task lists: the coordinator list and document tasks",
		about:    "How the two task lists differ: your own sequential list, and tasks in documents handed to subagents.",
		toolsets: []Toolset{ToolsetCoordinator, ToolsetSubagent},
		text: `There are two task lists, kept apart on purpose.

The coordinator list (coordinator_task, start_coordinator_task, complete_coordinator_task, view_coordinator_task) is your own sequential to-do list, kept in /coordinator/active.md. It survives context compression and keeps your completion notes. Tasks run in list order (reorder by editing); start and complete always take the next one, so there is no slug to give. The first task of a new list names the orchestration method: "- Status: pending\n- Main-Workflow: tdd-incremental-orchestration\n\nResearch authentication approaches." start_coordinator_task hands you the Main-Workflow on the list's first start; after a context compression call it with return_task_context: true to get it again. When the last task is completed the list moves to /archived/coordinator/active-<UTC time>.md and the next create starts a new list. clear removes completed tasks.

Document tasks (subagent_task, start_subagent_task, complete_subagent_task, view_subagent_task) live in the Tasks section of a document under docs/, next to the knowledge they need, addressed as /api/auth.md#slug and done in any order, usually by subagents. A coordinator typically tells a subagent: "Run start_subagent_task /api/auth.md#implement-jwt-signing, do the task, then complete_subagent_task with a note." complete_subagent_task returns no next task: report back to whoever assigned it. Main-Workflow belongs only to the coordinator list.

A task's content is its metadata lines, a blank line and the body: "- Status: pending\n- Workflow: tdd\n\nImplement token signing.\n\n@/specs/jwt-spec.md". Workflow names a prompt in workflows/ that the start tools hand to the agent; @/path.md and @/path.md#section lines reference documents they load, recursively. Depends-On names tasks that must be completed or skipped first: starting too early is TASK_BLOCKED, naming them.

Batches (subagent_task, coordinator_task) run their operations in order. Consecutive creates are written together, all or none; the batch stops at the first failing operation and operations_completed counts the ones applied. Across the workspace, tasks_find, documents_list and workflows_list read; task_set_status blocks, unblocks, reopens or fails a task; task_remove removes one; document_archive, archives_list and archive_read handle archives.`,
	},
	{
		prompt:   "work-a-plan",
		title:    "Working a plan with other agents",
		about:    "How agents share a plan: register, claim tasks with leases, heartbeat, checkpoint, complete, and recover after a lost context.",
		toolsets: []Toolset{ToolsetAgents, ToolsetPlans},
		text: `A plan (a "workflow") is a document under docs/ with a Tasks section; its id is its address (/api/auth.md) and a task's id is /api/auth.md#slug. Agents claim tasks with leases: a claim lasts as long as its agent's heartbeats.

Create a plan: workflow_create, then workflow_set_plan with its tasks (names, descriptions, depends_on, workflow prompts), all added or none.

Work it, as one agent:
1. agent_register once (name, runtime; give your own id to make a re-registration return the same agent). The agent registered on this MCP session is the session's caller and the only agent it acts as: naming another agent is INVALID_ARGUMENTS.
2. workflow_next_tasks lists what may be claimed now; task_claim one. Of agents claiming one task at once, one wins; the others get already_claimed_by and try the next task. When every task is taken, poll again later.
3. task_load_context for the claimed task (its text, the plan, outcomes of completed tasks, checkpoints, workflow prompt, references) under a token budget.
4. task_set_plan with your approach, then task_update_status in_progress.
5. checkpoint_add after each significant step (plan, progress, decision, error, recovery).
6. agent_heartbeat every next_heartbeat_ms (about 30 s). An agent silent for the timeout (60 s) goes offline and its tasks go to the next agent that claims them.
7. task_update_status completed with an outcome (what was done, read by the agents after you), or failed with an error. Completing ends the claim. Then the next task, or agent_unregister when you stop.

Fencing: the server keeps the session's claims and presents them with every write. A status update, plan or checkpoint on a task another agent holds, or took over after your heartbeats stopped, is STALE_CLAIM and writes nothing: stop work on that task and claim another. task_release gives a claim up without finishing the task.

After a lost context: workflow_list with status [in_progress], then workflow_progress to find the task you held (holder = your agent id); on a new session, agent_register again with your id, name and runtime; task_claim the task again (its holder gets its claim back); task_load_context with include {all_checkpoints: true}; resume from the last checkpoint.

Isolation: workspace_create {branch, base_branch, create_worktree: true, task_ids} gives you a git worktree and branch of your own; work and commit there, then workspace_update {id, status: merged, merge_commit, cleanup_worktree: true}.`,
	},
	{
		prompt:   "pivot-protocol",
		title:    "Pivots: stopping a worker mid-task",
		about:    "How an orchestrator stops a worker mid-task and gets its checkpoint, and how the worker answers.",
		toolsets: []Toolset{ToolsetPivots},
		text: `An orchestrator stops a worker mid-task and gets a checkpoint of its work, so that the task can be resumed later by the same worker or another.

Orchestrator: pivot_worker {worker_id, reason, new_task, mode} waits (wait_seconds, default 60) for the worker's acknowledgement and returns its checkpoint. Modes: graceful (default), the worker finishes its current tool call, then checkpoints; immediate, it checkpoints at once; hard, its task is taken back now (back to pending, its claim void), with no checkpoint and no wait. NO_ACK means the worker did not answer in time: pivot it again with mode hard. worker_ids pivots several workers at once. Repeating a call is a retry of the pending request.

Worker: while a pivot waits for you, every result of taskmd's tools (and agent_heartbeat's answer) carries pivot_request with instructions. Graceful: finish the tool call you are in and start nothing new; immediate: stop at once. Then call pivot_acknowledge with your checkpoint (completed, in progress, remaining, files changed, decisions, resume instructions). It is saved as your worker checkpoint, your task is paused and points at it, your claim ends, and a new_task that is a task address is claimed for you: start it with task_load_context and task_update_status in_progress. Hard: your task was taken back already; write nothing more on it (that is STALE_CLAIM) and call pivot_acknowledge to take the new task. STALE_CLAIM on acknowledging from a new session: task_claim the task again, then acknowledge.

Paused tasks wait in resume_queue; resume_brief {task_id, worker_id} hands one to a worker with a Markdown brief built from its checkpoint and claims it for that worker.`,
	},
	{
		prompt:   "resume-after-pause",
		title:    "Checkpoints, clarifications and resuming",
		about:    "How to stop a worker and resume it later from its checkpoint, and how a worker asks a person and exits until the answer comes.",
		toolsets: []Toolset{ToolsetCheckpoints, ToolsetResume, ToolsetClarifications},
		text: `A worker saves where its work stands in a worker checkpoint, so that it can stop and be resumed later, by itself, another worker or a person.

Checkpoints: checkpoint_save writes a new checkpoint (sequence 1, 2, 3, ... per worker, under checkpoints/workers/<worker>/; older ones stay as history) with status, phase, task_id and the sections original_task, completed, in_progress, remaining, blocked, parallel_work_available, files_changed, decisions, notes and resume_instructions. Saving the same checkpoint again writes nothing. checkpoint_get reads one (Markdown, or JSON in the checkpoint-resume protocol's form), checkpoint_diff says what changed between two, checkpoint_list {worker_id} lists a worker's.

Resuming: resume_queue lists the paused tasks with the checkpoint each was paused with; resume_brief {task_id, worker_id} builds the brief to start a worker with and claims the task for it, back in progress.

Clarifications (ask a person and exit until the answer comes). Worker: clarification_ask with questions and your checkpoint; the call waits briefly (wait_seconds, default 60). status answered: apply the answer and go on. status suspended: your checkpoint is saved; stop and exit at once, spending nothing more. Parent: clarification_check without id lists the open requests and the suspended workers whose answers arrived, each with a resume_prompt; clarification_respond answers (resume_signal false keeps a draft); start the worker again with the resume_prompt.`,
	},
}

// guidesFor are the guides of the toolsets, in guides' order.
func guidesFor(toolsets []Toolset) []guide {
	var out []guide
	for _, g := range guides {
		if slices.ContainsFunc(g.toolsets, func(t Toolset) bool { return slices.Contains(toolsets, t) }) {
			out = append(out, g)
		}
	}
	return out
}

// guideText is the text of the resource taskmd://guide: every guide of gs
// under its heading.
func guideText(gs []guide) string {
	var b strings.Builder
	b.WriteString("# taskmd guide\n")
	for _, g := range gs {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", g.title, g.text)
	}
	return b.String()
}

// addGuides prepares the prompts of gs and the resource taskmd://guide.
func (ts *toolBatch) addGuides(gs []guide) {
	if len(gs) == 0 {
		return
	}
	for _, g := range gs {
		ts.prompts = append(ts.prompts, g.prompt)
		result := &mcp.GetPromptResult{
			Description: g.about,
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "# " + g.title + "\n\n" + g.text}}},
		}
		prompt := &mcp.Prompt{Name: g.prompt, Title: g.title, Description: g.about}
		ts.adds = append(ts.adds, toolAdd{name: g.prompt, add: func(server *mcp.Server) {
			server.AddPrompt(prompt, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return result, nil
			})
		}})
	}
	text := guideText(gs)
	resource := &mcp.Resource{URI: GuideURI, Name: "guide", Title: "taskmd guide", MIMEType: "text/markdown",
		Description: "How taskmd's protocols work: read it once, when a tool's description is not enough.", Size: int64(len(text))}
	ts.resources = append(ts.resources, GuideURI)
	ts.adds = append(ts.adds, toolAdd{name: GuideURI, add: func(server *mcp.Server) {
		server.AddResource(resource, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: GuideURI, MIMEType: "text/markdown", Text: text}}}, nil
		})
	}})
}
