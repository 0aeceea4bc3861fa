package mcptools

import (
	"context"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

// The subagent tools work on the Tasks sections of documents
// (docs/**/*.md). Tasks there are ad hoc: every start and complete names the
// task by document#slug, in any order.

type subagentBatchInput struct {
	Document   string      `json:"document" jsonschema:"the document under docs/, e.g. /api/authentication.md (created if missing)"`
	Operations []operation `json:"operations" jsonschema:"applied in order; the batch stops at the first error"`
}

type subagentTaskInput struct {
	Document string `json:"document" jsonschema:"the task's address, e.g. /api/auth.md#implement-jwt-signing"`
}

type completeSubagentInput struct {
	Document string `json:"document" jsonschema:"the task's address, e.g. /api/auth.md#implement-jwt-signing"`
	Note     string `json:"note" jsonschema:"what was done and what the coordinator should know (required, kept in the document)"`
}

type viewSubagentInput struct {
	Document string   `json:"document" jsonschema:"the document, e.g. /api/authentication.md, or one task of it, /api/authentication.md#slug"`
	Slugs    []string `json:"slugs,omitempty" jsonschema:"only these tasks (default: every task of the document); also written as document#slug1,slug2"`
}

const (
	subagentTaskDescription = `Create, edit or list tasks in a document's Tasks section (docs/**/*.md), for work handed to subagents: each task is addressed /doc.md#slug and done in any order. Content: metadata lines (- Status, - Workflow, - Depends-On), a blank line, the body. Operations run in order; consecutive creates are all-or-none. Guide: prompt task-lists.`

	startSubagentTaskDescription = `Start one document task (address /doc.md#slug): marks it in_progress and returns the task, its Workflow text and the documents it references. TASK_BLOCKED: a task it depends on is not completed or skipped; the message names them. SUBAGENT_REQUIRES_SLUG: the address names no task.`

	completeSubagentTaskDescription = `Mark one document task (/doc.md#slug) completed, with a note saying what was done (required). Returns a confirmation, no next task: report back to whoever assigned it.`

	viewSubagentTaskDescription = `Read a document's tasks without starting them: status, content, completion notes, dates. Give slugs to read only some. Reads only.`
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
		`edit only: "slug", "#slug", or "/other.md#slug" in another document`)
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
// task-list agents write it: "/api/auth.md#task1,task2".
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

// edit accepts the three forms of task that task-list
// agents use: "slug", "#slug" and "/other.md#slug".
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
