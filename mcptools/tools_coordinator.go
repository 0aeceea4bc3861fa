package mcptools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// The coordinator tools work on the one sequential list of the coordinator,
// coordinator/active.md: start and complete always take the next task and
// never a slug.

type coordinatorBatchInput struct {
	Operations []operation `json:"operations" jsonschema:"applied in order; the batch stops at the first error"`
}

// startCoordinatorInput has an optional document because agents used to the
// older start_task pass one out of habit. It is accepted when it names the
// coordinator list, and a #slug in it gets the error that explains why
// coordinator tasks cannot be picked, rather than a bare schema error.
type startCoordinatorInput struct {
	ReturnTaskContext bool   `json:"return_task_context,omitempty" jsonschema:"resend the Main-Workflow, Workflow and references: only after a context compression (it costs tokens)"`
	Document          string `json:"document,omitempty" jsonschema:"not needed: the list is always /coordinator/active.md. Never a #slug: coordinator tasks run in order"`
}

type completeCoordinatorInput struct {
	Note                string `json:"note" jsonschema:"what was done (required, kept in the archived list)"`
	IncludeFullWorkflow bool   `json:"include_full_workflow,omitempty" jsonschema:"also return the next task's Workflow text and referenced documents"`
	Document            string `json:"document,omitempty" jsonschema:"not needed: the list is always /coordinator/active.md. Never a #slug: the current task is completed"`
	RequestKey          string `json:"request_key,omitempty" jsonschema:"a unique key for this completion: a call repeating it returns that completion instead of completing another task"`
}

// viewCoordinatorInput takes slugs as a list, or as the comma-separated
// slug string that task-list agents send.
type viewCoordinatorInput struct {
	Slugs []string `json:"slugs,omitempty" jsonschema:"only these tasks (default: every task of the list)"`
	Slug  string   `json:"slug,omitempty" jsonschema:"only these tasks, comma-separated: phase-1,phase-2 (same as slugs)"`
}

const (
	coordinatorTaskDescription = `Create, edit, list or clear tasks of your own sequential to-do list (/coordinator/active.md), which survives context compression. The first task of a new list names a Main-Workflow in its content. Operations run in order; consecutive creates are all-or-none. For work handed to subagents use subagent_task. Guide: prompt task-lists.`

	startCoordinatorTaskDescription = `Start the next task of your coordinator list (the one in progress, else the first pending) and get its content, Workflow and referenced documents. TASK_BLOCKED: it depends on tasks not done; the message names them.`

	completeCoordinatorTaskDescription = `Complete the current coordinator task with a note (required) and get the next one. Completing the last task archives the list (archived_to); the next create starts a new list.`

	viewCoordinatorTaskDescription = `Read the coordinator list's tasks without starting them: status, content, notes, dates. Give slugs to read only some. Reads only.`
)

// coordinatorOperations are the operations of coordinator_task.
var coordinatorOperations = []string{"create", "edit", "list", "clear"}

// coordinatorTools serves the four coordinator tools.
type coordinatorTools struct {
	list *coordinator.List
	now  func() time.Time
}

func addCoordinatorTools(ts *toolBatch, list *coordinator.List, now func() time.Time) error {
	c := coordinatorTools{list: list, now: now}
	batchSchema, err := batchInputSchema[coordinatorBatchInput](
		coordinatorOperations,
		`slug of the task to edit ("slug" or "#slug")`)
	if err != nil {
		return err
	}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "coordinator_task", Description: coordinatorTaskDescription, InputSchema: batchSchema, Annotations: destructive}, c.batch),
		addTool(ts, &mcp.Tool{Name: "start_coordinator_task", Description: startCoordinatorTaskDescription, Annotations: additiveIdempotent}, c.start),
		addTool(ts, &mcp.Tool{Name: "complete_coordinator_task", Description: completeCoordinatorTaskDescription, Annotations: additive}, c.complete),
		addTool(ts, &mcp.Tool{Name: "view_coordinator_task", Description: viewCoordinatorTaskDescription, Annotations: readOnly}, c.view),
	)
}

func (c coordinatorTools) batch(ctx context.Context, _ *mcp.CallToolRequest, in coordinatorBatchInput) (*mcp.CallToolResult, batchResult, error) {
	return runBatch(ctx, coordinatorTasks{active: c.list}, in.Operations, coordinatorOperations, dateStamp(c.now))
}

func (c coordinatorTools) start(ctx context.Context, _ *mcp.CallToolRequest, in startCoordinatorInput) (*mcp.CallToolResult, startResult, error) {
	if err := checkCoordinatorDocument(in.Document); err != nil {
		return nil, startResult{}, newToolError(err)
	}
	started, err := c.list.Start(ctx, coordinator.StartOptions{FullContext: in.ReturnTaskContext})
	if err != nil {
		return nil, startResult{}, newToolError(err)
	}
	task := toStartedTask(coordinator.Address, started.Task)
	task.Workflow = toWorkflow(started.Workflow)
	task.MainWorkflow = toWorkflow(started.MainWorkflow)
	task.ReferencedDocuments = toReferences(started.References)
	task.Missing = started.Missing
	return nil, startResult{Mode: modeSequential, Document: coordinator.Address, Task: task}, nil
}

func (c coordinatorTools) complete(ctx context.Context, _ *mcp.CallToolRequest, in completeCoordinatorInput) (*mcp.CallToolResult, completeCoordinatorResult, error) {
	if err := checkCoordinatorDocument(in.Document); err != nil {
		return nil, completeCoordinatorResult{}, newToolError(err)
	}
	done, err := c.list.Complete(ctx, in.Note, coordinator.CompleteOptions{IncludeFullWorkflow: in.IncludeFullWorkflow, RequestKey: in.RequestKey})
	if err != nil {
		return nil, completeCoordinatorResult{}, newToolError(err)
	}
	out := completeCoordinatorResult{
		Mode:          modeSequential,
		Document:      coordinator.Address,
		CompletedTask: toCompletedTask(done.Task, done.Note, done.Date),
		Timestamp:     done.Date, // the completion's own reading of the clock
	}
	if next := done.Next; next != nil {
		out.NextTask = &nextTask{
			Slug:                next.Task.Slug,
			Title:               next.Task.Title,
			Workflow:            toWorkflow(next.Workflow),
			ReferencedDocuments: toReferences(next.References),
		}
	}
	if done.ArchivedTo != "" {
		out.Archived, out.ArchivedTo = true, rootPath(done.ArchivedTo)
	}
	out.Blocked = done.Blocked
	out.Replayed = done.Replayed
	if done.ArchiveError != nil {
		out.ArchiveError = done.ArchiveError.Error()
	}
	return nil, out, nil
}

func (c coordinatorTools) view(ctx context.Context, _ *mcp.CallToolRequest, in viewCoordinatorInput) (*mcp.CallToolResult, viewResult, error) {
	tasks, err := c.list.View(ctx, splitSlugs(append(in.Slugs, in.Slug)...)...)
	if err != nil {
		return nil, viewResult{}, newToolError(err)
	}
	return nil, toViewResult(coordinator.Address, tasks), nil
}

// checkCoordinatorDocument accepts an empty document or the coordinator
// list's own address. A #slug is refused as the library refuses it; another
// document is a subagent document, which the coordinator tools never touch.
func checkCoordinatorDocument(document string) error {
	if document == "" || document == coordinator.Address {
		return nil
	}
	if err := coordinator.CheckSequential(document); err != nil {
		return err
	}
	return &taskdoc.Error{
		Code: taskdoc.CodeInvalidAddress,
		Path: document,
		Msg: fmt.Sprintf("%s is not the coordinator list: coordinator tools work only on %s; use the subagent tools for documents under docs/",
			document, coordinator.Address),
	}
}

// coordinatorTasks is the coordinator list, for runBatch.
type coordinatorTasks struct {
	active *coordinator.List
}

func (c coordinatorTasks) create(ctx context.Context, tasks []taskdoc.NewTask) ([]taskdoc.Task, error) {
	return c.active.Create(ctx, tasks...)
}

// edit takes "slug", "#slug" or "/coordinator/active.md#slug": naming the
// task to edit is not picking the next task, so the '#' is fine here.
func (c coordinatorTasks) edit(ctx context.Context, task string, e taskdoc.Edit) (taskdoc.Task, error) {
	slug := strings.TrimPrefix(strings.TrimPrefix(task, coordinator.Address), "#")
	if strings.HasPrefix(slug, "/") {
		return taskdoc.Task{}, &taskdoc.Error{
			Code: taskdoc.CodeInvalidAddress,
			Path: task,
			Msg:  fmt.Sprintf("%s is not a coordinator task: coordinator_task edits only %s; edit tasks of other documents with subagent_task", task, coordinator.Address),
		}
	}
	return c.active.Edit(ctx, slug, e)
}

func (c coordinatorTasks) list(ctx context.Context, statuses []taskdoc.Status) ([]taskdoc.Task, error) {
	return c.active.List(ctx, statuses...)
}

func (c coordinatorTasks) clear(ctx context.Context) (int, error) {
	return c.active.Clear(ctx)
}

func (c coordinatorTasks) document() string { return coordinator.Address }
