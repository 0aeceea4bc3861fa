package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/taskdoc"
)

// operation is one entry of the operations list of subagent_task and
// coordinator_task.
type operation struct {
	Operation string `json:"operation" jsonschema:"what to do"`
	Title     string `json:"title,omitempty" jsonschema:"one line (create: required; edit: the new title, changing the slug)"`
	Content   string `json:"content,omitempty" jsonschema:"create, edit: metadata lines, a blank line, the body, e.g. '- Status: pending\\n\\nWhat to do.' (edit replaces it all)"`
	Task      string `json:"task,omitempty" jsonschema:"slug of the task to edit (edit only)"`
	Status    string `json:"status,omitempty" jsonschema:"list only: this status only"`
	Reopen    bool   `json:"reopen,omitempty" jsonschema:"edit only: allow changing a completed task's status, Completed or Note"`
	IfVersion string `json:"if_version,omitempty" jsonschema:"edit only: refused (CONFLICT) if the task's version (as view_* showed it) changed"`
}

// operationResult is the result of one operation: a created or edited task,
// a list, the number of tasks a clear removed, or the error that stopped the
// batch.
type operationResult struct {
	Operation string `json:"operation"`
	// Status is created, updated, listed, cleared or error.
	Status  string        `json:"status"`
	Task    *taskRef      `json:"task,omitempty"`
	Count   *int          `json:"count,omitempty"`
	Tasks   []taskSummary `json:"tasks,omitzero"`
	Removed *int          `json:"removed,omitempty"`
	Error   string        `json:"error,omitempty"`
}

// batchResult is the result of subagent_task and coordinator_task.
// OperationsCompleted is the number of leading operations that were applied:
// when a batch stops at an error, operations[operations_completed:] were not
// applied and can be sent again once the error is fixed.
type batchResult struct {
	// Success is true when every operation was applied.
	Success             bool              `json:"success"`
	Document            string            `json:"document"`
	OperationsCompleted int               `json:"operations_completed"`
	Results             []operationResult `json:"results"`
	// Timestamp is the UTC date of the call, YYYY-MM-DD.
	Timestamp string `json:"timestamp"`
}

// taskList is what a batch needs from one list of tasks: the Tasks section
// of a document, or the coordinator list.
type taskList interface {
	document() string
	create(ctx context.Context, tasks []taskdoc.NewTask) ([]taskdoc.Task, error)
	edit(ctx context.Context, task string, e taskdoc.Edit) (taskdoc.Task, error)
	list(ctx context.Context, statuses []taskdoc.Status) ([]taskdoc.Task, error)
	clear(ctx context.Context) (removed int, err error)
}

// runBatch applies ops in order and stops at the first one that fails.
//
// Consecutive creates are written together, in one locked update of the
// file: either all of them are added, in order, or none is. An agent that
// plans a list in one call therefore never finds half of it written, and can
// send the failed part again without upsetting the order it planned.
//
// Arguments that do not fit an operation are found before anything runs, so
// such a batch changes nothing.
func runBatch(ctx context.Context, tl taskList, ops []operation, allowed []string, stamp string) (*mcp.CallToolResult, batchResult, error) {
	if err := checkOperations(ops, allowed); err != nil {
		return nil, batchResult{}, newToolError(err)
	}
	out := batchResult{Document: tl.document(), Results: make([]operationResult, 0, len(ops)), Timestamp: stamp}
	for i := 0; i < len(ops); {
		n, results, err := runStep(ctx, tl, ops[i:])
		if err != nil {
			return stopped(out, ops, i, n, newToolError(err))
		}
		out.Results = append(out.Results, results...)
		out.OperationsCompleted += n
		i += n
	}
	out.Success = true
	return nil, out, nil
}

// runStep runs the first operation of ops, or the run of creates it starts,
// and reports how many operations it covered.
func runStep(ctx context.Context, tl taskList, ops []operation) (int, []operationResult, error) {
	op := ops[0]
	switch op.Operation {
	case "create":
		n := 1
		for n < len(ops) && ops[n].Operation == "create" {
			n++
		}
		news := make([]taskdoc.NewTask, 0, n)
		for _, c := range ops[:n] {
			news = append(news, taskdoc.NewTask{Title: c.Title, Content: c.Content})
		}
		created, err := tl.create(ctx, news)
		if err != nil {
			return n, nil, err
		}
		results := make([]operationResult, 0, len(created))
		for _, t := range created {
			results = append(results, operationResult{Operation: "create", Status: "created", Task: toTaskRef(t)})
		}
		return n, results, nil
	case "edit":
		t, err := tl.edit(ctx, op.Task, taskdoc.Edit{Title: op.Title, Content: op.Content, Reopen: op.Reopen, IfVersion: op.IfVersion})
		if err != nil {
			return 1, nil, err
		}
		return 1, []operationResult{{Operation: "edit", Status: "updated", Task: toTaskRef(t)}}, nil
	case "list":
		var statuses []taskdoc.Status
		if op.Status != "" {
			s, err := taskdoc.ParseStatus(op.Status)
			if err != nil {
				return 1, nil, err
			}
			statuses = append(statuses, s)
		}
		tasks, err := tl.list(ctx, statuses)
		if err != nil {
			return 1, nil, err
		}
		count := len(tasks)
		return 1, []operationResult{{Operation: "list", Status: "listed", Count: &count, Tasks: toSummaries(tasks)}}, nil
	default: // "clear"; checkOperations let nothing else through
		removed, err := tl.clear(ctx)
		if err != nil {
			return 1, nil, err
		}
		return 1, []operationResult{{Operation: "clear", Status: "cleared", Removed: &removed}}, nil
	}
}

// checkOperations refuses fields that an operation does not take, instead of
// ignoring them: an agent that sends a status with a create expects it to
// mean something, and should learn that it does not.
func checkOperations(ops []operation, allowed []string) error {
	for i, op := range ops {
		if !slices.Contains(allowed, op.Operation) {
			return argumentError("operation %d: unknown operation %q; use one of %v", i+1, op.Operation, allowed)
		}
		var unused []string
		if op.Task != "" && op.Operation != "edit" {
			unused = append(unused, "task")
		}
		if op.Status != "" && op.Operation != "list" {
			unused = append(unused, "status")
		}
		if op.Reopen && op.Operation != "edit" {
			unused = append(unused, "reopen")
		}
		if op.IfVersion != "" && op.Operation != "edit" {
			unused = append(unused, "if_version")
		}
		if (op.Title != "" || op.Content != "") && (op.Operation == "list" || op.Operation == "clear") {
			unused = append(unused, "title/content")
		}
		if len(unused) > 0 {
			return argumentError("operation %d (%s) does not take %v", i+1, op.Operation, unused)
		}
		if op.Operation == "edit" && op.Task == "" {
			return argumentError("operation %d (edit) needs task, the slug of the task to edit", i+1)
		}
		if op.Operation == "edit" && op.Title == "" && op.Content == "" {
			return argumentError("operation %d (edit) needs a new title, a new content or both", i+1)
		}
	}
	return nil
}

// stopped reports a batch that failed at ops[at:at+n]: a tool error whose
// text starts with the code, carrying the results of the operations that
// were applied before it.
func stopped(out batchResult, ops []operation, at, n int, failure *toolError) (*mcp.CallToolResult, batchResult, error) {
	out.Results = append(out.Results, operationResult{Operation: ops[at].Operation, Status: "error", Error: failure.Error()})
	where := fmt.Sprintf("operation %d (%s)", at+1, ops[at].Operation)
	if n > 1 {
		where = fmt.Sprintf("operations %d-%d (creates, written together: none of them was added)", at+1, at+n)
	}
	text := fmt.Sprintf("%s\nstopped at %s; operations_completed: %d of %d, the operations after it were not run",
		failure.Error(), where, out.OperationsCompleted, len(ops))
	body, err := json.Marshal(out)
	if err != nil {
		return nil, batchResult{}, err
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: text},
		&mcp.TextContent{Text: string(body)},
	}}
	res.SetError(failure)
	return res, out, nil
}

// splitSlugs splits comma-separated slug lists ("phase-1,phase-2") and
// drops blanks, so that an empty slug string means every task.
func splitSlugs(lists ...string) []string {
	var slugs []string
	for _, list := range lists {
		for _, slug := range strings.Split(list, ",") {
			if slug = strings.TrimSpace(slug); slug != "" {
				slugs = append(slugs, slug)
			}
		}
	}
	return slugs
}
