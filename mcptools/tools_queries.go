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
	Status    []string          `json:"status,omitempty" jsonschema:"only tasks in one of these statuses, e.g. [in_progress]"`
	Document  string            `json:"document,omitempty" jsonschema:"only the tasks of this document (/api/auth.md, /coordinator/active.md) or, ending in /, of a folder and below (/api/)"`
	Workflow  string            `json:"workflow,omitempty" jsonschema:"only tasks whose Workflow field names this workflow"`
	Holder    string            `json:"holder,omitempty" jsonschema:"only tasks held by this agent (their Assignee)"`
	DependsOn string            `json:"depends_on,omitempty" jsonschema:"only tasks that depend on this task, e.g. /api/auth.md#setup-keys"`
	Fields    map[string]string `json:"fields,omitempty" jsonschema:"only tasks with each of these fields set to this value, e.g. {Priority: high}"`
	Text      string            `json:"text,omitempty" jsonschema:"only tasks whose title or body holds this text (case ignored)"`
	Limit     int               `json:"limit,omitempty" jsonschema:"at most this many, the first in address order (default all)"`
}

type taskRemoveInput struct {
	Task      string `json:"task" jsonschema:"the task's address: /api/auth.md#slug, or /coordinator/active.md#slug"`
	Force     bool   `json:"force,omitempty" jsonschema:"remove it even if someone may be working on it (in progress, planning, paused, or held by an agent) or tasks of other documents depend on it; tasks of its own document that depend on it still refuse it"`
	IfVersion string `json:"if_version,omitempty" jsonschema:"the task's version as view_* showed it; refused (CONFLICT) if the task changed since"`
}

type taskSetStatusInput struct {
	Task   string `json:"task" jsonschema:"the task's address: /api/auth.md#slug, or /coordinator/active.md#slug"`
	Status string `json:"status" jsonschema:"blocked (block), pending or in_progress out of blocked (unblock), pending out of completed, skipped or failed (reopen: Completed, Note and Error go), failed (with reason), or another move of the status machine. Complete a task with its complete tool, which takes a note"`
	Reason string `json:"reason,omitempty" jsonschema:"why: kept in the Blocked field of a blocked task, the Error field of a failed one (required for failed)"`
}

type documentArchiveInput struct {
	Document string `json:"document" jsonschema:"the document to archive, e.g. /api/auth.md (not a task, not the coordinator list)"`
}

type archiveReadInput struct {
	Name string `json:"name" jsonschema:"the archive, as archives_list names it: /archived/docs/api/auth.md or archived/coordinator/active-2026-11-22-093000.md"`
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
	documentsListDescription = `List the task documents of the workspace (every docs/**/*.md, and the coordinator list when there is one), by address, each with its title, its number of tasks and how many are in each status (counts). A document that does not read is listed with its error and code. Reads only.`

	tasksFindDescription = `Find tasks anywhere in the workspace (every document under docs/ and the coordinator list): by status, document or folder, Workflow, holder (Assignee), depends_on, field values and text, all conditions together. Returns each task's address (pass it to start_subagent_task, view_subagent_task, task_claim, ...), title, status and version. Reads only.`

	workflowsListDescription = `List the workflow prompts in workflows/: name (what a task's Workflow field names), title, description and whenToUse from their front matter. start_subagent_task and start_coordinator_task hand a task's workflow to the agent. Reads only.`

	taskRemoveDescription = `Remove a task from its document (or from the coordinator list) and return it as it was; every other byte of the document stays. Refused, with nothing removed: when tasks of the same document depend on it (INVALID_TASK naming them, even with force: change their Depends-On first); when tasks of other documents depend on it (INVALID_TASK naming them, unless force: forcing leaves their Depends-On naming a removed task); when someone may be working on it (INVALID_TRANSITION: in progress, planning, paused or held; give force when you know no one is); when it changed since if_version (CONFLICT). TASK_NOT_FOUND for a slug the document does not have, which is what a retry of a removal that succeeded gets; an address without a slug is INVALID_ADDRESS or SUBAGENT_REQUIRES_SLUG.`

	taskSetStatusDescription = `Set a task's status by hand, without rewriting its content (its Workflow, Note and other fields stay): block (status blocked, with reason), unblock (out of blocked), reopen (out of completed, skipped or failed: its Completed, Note and Error go), fail (with reason). A move the status machine does not list is INVALID_TRANSITION; completing goes through complete_subagent_task or complete_coordinator_task, which take a note. Setting the status the task has already writes nothing.`

	documentArchiveDescription = `Archive a document of docs/ by hand: it moves, bytes unchanged, to /archived/docs/<same path> (-2, -3, ... when that name is taken), whatever the state of its tasks, and leaves docs/. Returns archived_to. DOCUMENT_NOT_FOUND for a retry of an archive that succeeded.`

	archivesListDescription = `List the archives: the documents archived by hand (document_archive), with their tasks per status, and the finished coordinator lists, newest first. Read one with archive_read. Reads only.`

	archiveReadDescription = `Read an archived document or coordinator list, as archives_list names it. Reads only.`
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
