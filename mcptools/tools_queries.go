package mcptools

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// The query tools answer questions about the whole workspace (package
// query) and do what agents otherwise do by rewriting a task: remove it,
// set its status by hand, archive a document, and read the archives.
// A task is named by its address, in a document under docs/
// ("/api/auth.md#slug") or in the coordinator list
// ("/coordinator/active.md#slug").

// Inputs.

type noInput struct{}

type tasksFindInput struct {
	Status    []string          `json:"status,omitempty" jsonschema:"any of these statuses, e.g. [in_progress]"`
	Document  string            `json:"document,omitempty" jsonschema:"this document (/api/auth.md) or, ending in /, this folder and below (/api/)"`
	Workflow  string            `json:"workflow,omitempty" jsonschema:"with this Workflow"`
	Holder    string            `json:"holder,omitempty" jsonschema:"held by this agent (Assignee)"`
	DependsOn string            `json:"depends_on,omitempty" jsonschema:"depending on this task, e.g. /api/auth.md#setup-keys"`
	Fields    map[string]string `json:"fields,omitempty" jsonschema:"with these field values, e.g. {Priority: high}"`
	Text      string            `json:"text,omitempty" jsonschema:"in title or body (case ignored)"`
	Limit     int               `json:"limit,omitempty" jsonschema:"at most this many, the first in address order (default all)"`
}

type taskRemoveInput struct {
	Task      string `json:"task_id" jsonschema:"the task's address: /api/auth.md#slug, or /coordinator/active.md#slug"`
	Force     bool   `json:"force,omitempty" jsonschema:"remove it even if someone may be working on it or tasks of other documents depend on it"`
	IfVersion string `json:"if_version,omitempty" jsonschema:"the task's version as view_* showed it; refused (CONFLICT) if the task changed since"`
}

type taskSetStatusInput struct {
	Task   string `json:"task_id" jsonschema:"the task's address: /api/auth.md#slug, or /coordinator/active.md#slug"`
	Status string `json:"status" jsonschema:"the new status: blocked, pending or in_progress (unblock), pending (reopen), failed, ..."`
	Reason string `json:"reason,omitempty" jsonschema:"why: kept in the Blocked field of a blocked task, the Error field of a failed one (required for failed)"`
}

type documentArchiveInput struct {
	Document string `json:"document" jsonschema:"the document to archive, e.g. /api/auth.md (not a task, not the coordinator list)"`
}

type archiveReadInput struct {
	Name string `json:"name" jsonschema:"as archives_list names it, e.g. /archived/docs/api/auth.md"`
}

// Results.

// documentsResult is the result of documents_list.
type documentsResult struct {
	Count     int              `json:"count"`
	Documents []query.Document `json:"documents"`
}

// foundTask is one task tasks_find found.
type foundTask struct {
	Address  string `json:"address"`  // "/api/auth.md#implement-jwt-signing"
	Document string `json:"document"` // "/api/auth.md"
	Slug     string `json:"slug"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	Workflow string `json:"workflow,omitempty"`
	Assignee string `json:"assignee,omitempty"`
	// Version is the task's version, for the if_version of an edit or a
	// task_remove.
	Version string `json:"version"`
}

// findResult is the result of tasks_find.
type findResult struct {
	Count int         `json:"count"`
	Tasks []foundTask `json:"tasks"`
}

// workflowsResult is the result of workflows_list: the workflow prompts
// of workflows/, which a task's Workflow field names.
type workflowsResult struct {
	Count     int              `json:"count"`
	Workflows []query.Workflow `json:"workflows"`
}

// documentArchiveResult is the result of document_archive.
type documentArchiveResult struct {
	Success    bool   `json:"success"`
	Document   string `json:"document"`
	ArchivedTo string `json:"archived_to"` // "/archived/docs/api/auth.md"
}

// archivesResult is the result of archives_list.
type archivesResult struct {
	// Documents are the documents archived by hand, with their tasks
	// per status.
	Documents []query.Document `json:"documents"`
	// CoordinatorLists are the finished coordinator lists, newest first.
	CoordinatorLists []coordinator.Archived `json:"coordinator_lists"`
}

// archiveReadResult is the result of archive_read.
type archiveReadResult struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

// Descriptions.

const (
	documentsListDescription = `List the workspace's task documents (docs/**/*.md and the coordinator list) with their title and task counts per status; a document that does not parse is listed with its error. Reads only.`

	tasksFindDescription = `Find tasks across the workspace by status, document or folder, Workflow, holder, depends_on, field values and text, all conditions together. Returns each task's address, title, status and version. Reads only.`

	workflowsListDescription = `List the workflow prompts in workflows/ (the names a task's Workflow field takes) with their title, description and when to use them. Reads only.`

	taskRemoveDescription = `Remove a task from its document and return it. INVALID_TASK: tasks depend on it (force overrides only those of other documents); INVALID_TRANSITION: someone may be working on it (force if you know no one is); CONFLICT: it changed since if_version. TASK_NOT_FOUND: no such task, which is what a retried removal gets.`

	taskSetStatusDescription = `Set a task's status by hand without rewriting it: block (with reason), unblock, reopen (clears Completed, Note and Error), or fail (with reason). INVALID_TRANSITION: a move the status machine refuses. To complete a task use complete_subagent_task or complete_coordinator_task. The status it has already writes nothing.`

	documentArchiveDescription = `Move a document of docs/ to /archived/docs/, bytes unchanged, whatever its tasks' state. Returns archived_to. DOCUMENT_NOT_FOUND: no such document (a retried archive gets it).`

	archivesListDescription = `List the archives, newest first: documents archived by hand with their task counts, and finished coordinator lists. Reads only.`

	archiveReadDescription = `Read an archived document or coordinator list, named as archives_list names it. Reads only.`
)

// queryTools serves the query tools.
type queryTools struct {
	ws    *workspace.Workspace
	tasks *subagent.Tasks
	list  *coordinator.List
}

// settableStatuses are the statuses task_set_status takes: every status
// but completed, which a complete tool sets with its note.
var settableStatuses = slices.DeleteFunc(slices.Clone(taskStatuses), func(s any) bool { return s == string(taskdoc.StatusCompleted) })

func addQueryTools(ts *toolBatch, ws *workspace.Workspace, tasks *subagent.Tasks, list *coordinator.List) error {
	q := queryTools{ws: ws, tasks: tasks, list: list}
	find, err := inputSchema[tasksFindInput](map[string]enum{"status": {values: taskStatuses}})
	if err != nil {
		return err
	}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "documents_list", Description: documentsListDescription, Annotations: readOnly}, q.documents),
		addTool(ts, &mcp.Tool{Name: "tasks_find", Description: tasksFindDescription, InputSchema: find, Annotations: readOnly}, q.find),
		addTool(ts, &mcp.Tool{Name: "workflows_list", Description: workflowsListDescription, Annotations: readOnly}, q.workflows),
		addTool(ts, &mcp.Tool{Name: "archives_list", Description: archivesListDescription, Annotations: readOnly}, q.archives),
		addTool(ts, &mcp.Tool{Name: "archive_read", Description: archiveReadDescription, Annotations: readOnly}, q.readArchive),
	)
}

// addEditTools adds the tools of ToolsetEdits: the changes to any task or
// document by its address, beside the task systems' own.
func addEditTools(ts *toolBatch, ws *workspace.Workspace, tasks *subagent.Tasks, list *coordinator.List) error {
	q := queryTools{ws: ws, tasks: tasks, list: list}
	set, err := inputSchema[taskSetStatusInput](map[string]enum{"status": {values: settableStatuses}})
	if err != nil {
		return err
	}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "task_remove", Description: taskRemoveDescription, Annotations: destructiveIdempotent}, q.remove),
		addTool(ts, &mcp.Tool{Name: "task_set_status", Description: taskSetStatusDescription, InputSchema: set, Annotations: destructiveIdempotent}, q.setStatus),
		addTool(ts, &mcp.Tool{Name: "document_archive", Description: documentArchiveDescription, Annotations: destructiveIdempotent}, q.archive),
	)
}

func (q queryTools) documents(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, documentsResult, error) {
	docs, err := query.Documents(ctx, q.ws)
	if err != nil {
		return nil, documentsResult{}, newToolError(err)
	}
	return nil, documentsResult{Count: len(docs), Documents: nonNil(docs)}, nil
}

func (q queryTools) find(ctx context.Context, _ *mcp.CallToolRequest, in tasksFindInput) (*mcp.CallToolResult, findResult, error) {
	f := query.Filter{Document: in.Document, Workflow: in.Workflow, Holder: in.Holder, DependsOn: in.DependsOn,
		Fields: in.Fields, Text: in.Text, Limit: in.Limit}
	for _, s := range in.Status {
		f.Statuses = append(f.Statuses, taskdoc.Status(s))
	}
	matches, err := query.Find(ctx, q.ws, f)
	if err != nil {
		return nil, findResult{}, addressError(in.Document, err)
	}
	out := findResult{Count: len(matches), Tasks: make([]foundTask, 0, len(matches))}
	for _, m := range matches {
		workflow, _ := m.Task.Field(taskdoc.KeyWorkflow)
		assignee, _ := m.Task.Field(taskdoc.KeyAssignee)
		out.Tasks = append(out.Tasks, foundTask{Address: m.Address, Document: m.Document, Slug: m.Task.Slug,
			Title: m.Task.Title, Status: string(m.Task.Status), Workflow: workflow, Assignee: assignee, Version: m.Task.Version})
	}
	return nil, out, nil
}

func (q queryTools) workflows(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, workflowsResult, error) {
	list, err := query.Workflows(ctx, q.ws)
	if err != nil {
		return nil, workflowsResult{}, newToolError(err)
	}
	return nil, workflowsResult{Count: len(list), Workflows: nonNil(list)}, nil
}

// inCoordinator reports whether address names a task of the coordinator
// list, and its slug.
func inCoordinator(address string) (slug string, ok bool) {
	a, err := taskdoc.ParseAddress(address)
	if err != nil || a.Path != coordinator.Address {
		return "", false
	}
	return a.Slug, true
}

func (q queryTools) remove(ctx context.Context, _ *mcp.CallToolRequest, in taskRemoveInput) (*mcp.CallToolResult, taskResult, error) {
	r := taskdoc.Removal{Force: in.Force, IfVersion: in.IfVersion}
	var t taskdoc.Task
	var err error
	if slug, ok := inCoordinator(in.Task); ok {
		t, err = q.list.Remove(ctx, slug, r)
	} else {
		t, err = q.tasks.Remove(ctx, in.Task, r)
	}
	if err != nil {
		return nil, taskResult{}, addressError(in.Task, err)
	}
	return nil, taskResult{Success: true, Task: toPlanTask(documentOf(in.Task), t)}, nil
}

func (q queryTools) setStatus(ctx context.Context, _ *mcp.CallToolRequest, in taskSetStatusInput) (*mcp.CallToolResult, taskResult, error) {
	status, err := taskdoc.ParseStatus(in.Status)
	if err != nil {
		return nil, taskResult{}, newToolError(err)
	}
	var t taskdoc.Task
	if slug, ok := inCoordinator(in.Task); ok {
		t, err = q.list.SetStatus(ctx, slug, status, in.Reason)
	} else {
		t, err = q.tasks.SetStatus(ctx, in.Task, status, in.Reason)
	}
	if err != nil {
		return nil, taskResult{}, addressError(in.Task, err)
	}
	return nil, taskResult{Success: true, Task: toPlanTask(documentOf(in.Task), t)}, nil
}

func (q queryTools) archive(ctx context.Context, _ *mcp.CallToolRequest, in documentArchiveInput) (*mcp.CallToolResult, documentArchiveResult, error) {
	to, err := q.tasks.Archive(ctx, in.Document)
	if err != nil {
		return nil, documentArchiveResult{}, addressError(in.Document, err)
	}
	return nil, documentArchiveResult{Success: true, Document: documentOf(in.Document), ArchivedTo: rootPath(to)}, nil
}

func (q queryTools) archives(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, archivesResult, error) {
	docs, err := query.ArchivedDocuments(ctx, q.ws)
	if err != nil {
		return nil, archivesResult{}, newToolError(err)
	}
	lists, err := q.list.Archives(ctx)
	if err != nil {
		return nil, archivesResult{}, newToolError(err)
	}
	return nil, archivesResult{Documents: nonNil(docs), CoordinatorLists: nonNil(lists)}, nil
}

func (q queryTools) readArchive(ctx context.Context, _ *mcp.CallToolRequest, in archiveReadInput) (*mcp.CallToolResult, archiveReadResult, error) {
	data, err := query.ReadArchived(ctx, q.ws, in.Name)
	if err != nil {
		return nil, archiveReadResult{}, newToolError(err)
	}
	return nil, archiveReadResult{Name: in.Name, Content: string(data)}, nil
}
