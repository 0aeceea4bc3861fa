package mcptools

import (
	"context"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

// The subagent tools work on the Tasks sections of knowledge-graph documents
// (docs/**/*.md). Tasks there are ad hoc: every start and complete names the
// task by document#slug, in any order.

type subagentBatchInput struct {
	Document   string      `json:"document" jsonschema:"the document that holds the tasks, relative to docs/, e.g. /api/authentication.md (created with a Tasks section if missing)"`
	Operations []operation `json:"operations" jsonschema:"operations, applied in order; the batch stops at the first error"`
}

type subagentTaskInput struct {
	Document string `json:"document" jsonschema:"the task's address, document#slug, e.g. /api/authentication.md#implement-jwt-signing"`
}

type completeSubagentInput struct {
	Document string `json:"document" jsonschema:"the task's address, document#slug, e.g. /api/authentication.md#implement-jwt-signing"`
	Note     string `json:"note" jsonschema:"what was done and what the coordinator should know (required, kept in the document)"`
}

type viewSubagentInput struct {
	Document string   `json:"document" jsonschema:"the document, e.g. /api/authentication.md, or one task of it, /api/authentication.md#slug"`
	Slugs    []string `json:"slugs,omitempty" jsonschema:"only these tasks (default: every task of the document); also written as document#slug1,slug2"`
}

const (
	subagentTaskDescription = `Create, edit and list the tasks of a knowledge-graph document (docs/**/*.md, in its "Tasks" section).

Use this system for work you hand to subagents: each task lives next to the knowledge it needs, is addressed as /document.md#slug, and can be started in any order (start_subagent_task, complete_subagent_task). For your own step-by-step list as a coordinator, use coordinator_task instead.

A task's content is its metadata lines, a blank line and the body: "- Status: pending\n- Workflow: tdd-incremental-orchestration\n\nImplement token signing.\n\n@/specs/jwt-spec.md". Workflow names a text in workflows/ that start_subagent_task hands to the subagent; @/path.md and @/path.md#section lines reference documents it loads. Do not put Main-Workflow here: that belongs to the coordinator list.

Operations run in order. Consecutive creates are written together: all of them or none. The batch stops at the first failing operation; operations_completed counts the operations applied before it.`

	startSubagentTaskDescription = `Start one task of a knowledge-graph document and get what is needed to do it: the task, its Workflow text, and the documents it references (recursively). Marks the task in_progress. TASK_BLOCKED: a task it depends on (Depends-On) is not completed or skipped yet; the message names each one and its status: work on those first, or ask the person who assigned the task.

The address must name the task: /api/authentication.md#implement-jwt-signing. Subagent tasks are ad hoc, so there is no "next task" here; for sequential work use start_coordinator_task. A coordinator typically tells a subagent: "Run start_subagent_task /api/authentication.md#implement-jwt-signing, do the task, then complete_subagent_task with a note."`

	completeSubagentTaskDescription = `Mark one knowledge-graph task completed, with a note saying what was done (required: the coordinator reads it later). The address must name the task: /api/authentication.md#implement-jwt-signing.

Returns a confirmation only, never a next task: subagent work is ad hoc, so report back to whoever assigned the task.`

	viewSubagentTaskDescription = `Read the tasks of a knowledge-graph document without starting them: their status, content, completion notes and dates. Give slugs (or document#slug) to read only some tasks. Use it to review what subagents did and to plan the next assignment.`
)

// subagentOperations are the operations of subagent_task.
var subagentOperations = []string{"create", "edit", "list"}

// subagentTools serves the four subagent tools.
type subagentTools struct {
	tasks *subagent.Tasks
	now   func() time.Time
}

func addSubagentTools(ts *toolBatch, tasks *subagent.Tasks, now func() time.Time) error {
	s := subagentTools{tasks: tasks, now: now}
	batchSchema, err := batchInputSchema[subagentBatchInput](
		subagentOperations,
		`slug of the task to edit: "slug" or "#slug" (in document), or "/other.md#slug" (in another document)`)
	if err != nil {
		return err
	}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "subagent_task", Description: subagentTaskDescription, InputSchema: batchSchema, Annotations: destructive}, s.batch),
		addTool(ts, &mcp.Tool{Name: "start_subagent_task", Description: startSubagentTaskDescription, Annotations: additiveIdempotent}, s.start),
		addTool(ts, &mcp.Tool{Name: "complete_subagent_task", Description: completeSubagentTaskDescription, Annotations: additiveIdempotent}, s.complete),
		addTool(ts, &mcp.Tool{Name: "view_subagent_task", Description: viewSubagentTaskDescription, Annotations: readOnly}, s.view),
	)
}

func (s subagentTools) batch(ctx context.Context, _ *mcp.CallToolRequest, in subagentBatchInput) (*mcp.CallToolResult, batchResult, error) {
	return runBatch(ctx, documentTasks{tasks: s.tasks, address: in.Document}, in.Operations, subagentOperations, dateStamp(s.now))
}

func (s subagentTools) start(ctx context.Context, _ *mcp.CallToolRequest, in subagentTaskInput) (*mcp.CallToolResult, startResult, error) {
	started, err := s.tasks.Start(ctx, in.Document)
	if err != nil {
		return nil, startResult{}, addressError(in.Document, err)
	}
	task := toStartedTask(started.Document, started.Task)
	task.Workflow = toWorkflow(started.Workflow)
	task.ReferencedDocuments = toReferences(started.References)
	task.Missing = started.Missing
	return nil, startResult{Mode: modeAdHoc, Document: started.Document, Task: task}, nil
}

func (s subagentTools) complete(ctx context.Context, _ *mcp.CallToolRequest, in completeSubagentInput) (*mcp.CallToolResult, completeSubagentResult, error) {
	done, err := s.tasks.Complete(ctx, in.Document, in.Note)
	if err != nil {
		return nil, completeSubagentResult{}, addressError(in.Document, err)
	}
	return nil, completeSubagentResult{
		Document:      done.Document,
		CompletedTask: toCompletedTask(done.Task, done.Note, done.Date),
		Replayed:      done.Replayed,
		Timestamp:     done.Date, // the completion's own reading of the clock
	}, nil
}

// view takes the tasks to show in slugs, or in the address as
// AI-Prompt-Guide agents write it: "/api/auth.md#task1,task2".
func (s subagentTools) view(ctx context.Context, _ *mcp.CallToolRequest, in viewSubagentInput) (*mcp.CallToolResult, viewResult, error) {
	document, slugs := in.Document, splitSlugs(in.Slugs...)
	if path, list, ok := strings.Cut(in.Document, "#"); ok {
		document, slugs = path, append(splitSlugs(list), slugs...)
	}
	tasks, err := s.tasks.View(ctx, document, slugs...)
	if err != nil {
		return nil, viewResult{}, addressError(in.Document, err)
	}
	return nil, toViewResult(document, tasks), nil
}

// documentTasks is the task list of one document, for runBatch.
type documentTasks struct {
	tasks   *subagent.Tasks
	address string
}

func (d documentTasks) create(ctx context.Context, tasks []taskdoc.NewTask) ([]taskdoc.Task, error) {
	return d.tasks.Create(ctx, d.address, tasks...)
}

// edit accepts the three forms of task that agents of the AI-Prompt-Guide
// server use: "slug", "#slug" and "/other.md#slug".
func (d documentTasks) edit(ctx context.Context, task string, e taskdoc.Edit) (taskdoc.Task, error) {
	address := task
	if !strings.HasPrefix(task, "/") {
		address = d.address + "#" + strings.TrimPrefix(task, "#")
	}
	return d.tasks.Edit(ctx, address, e)
}

func (d documentTasks) list(ctx context.Context, statuses []taskdoc.Status) ([]taskdoc.Task, error) {
	return d.tasks.List(ctx, d.address, statuses...)
}

func (d documentTasks) clear(context.Context) (int, error) {
	return 0, argumentError("clear is an operation of coordinator_task only")
}

func (d documentTasks) document() string { return d.address }
