package mcptools

import (
	"path"
	"reflect"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

// The result types below are what agents read. Their JSON names are the
// ones task-list agents already know, so prompts written
// for other servers with these tools keep working.

// taskRef names a task: the result of a create or an edit.
type taskRef struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// taskSummary is one line of a list.
type taskSummary struct {
	Slug   string `json:"slug"`
	Title  string `json:"title"`
	Status string `json:"status"`
}

// workflowText is a workflow file, by name and text, with the summary its
// front matter gives (description, whenToUse), as task-list
// agents expect it.
type workflowText struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Content     string   `json:"content"`
	WhenToUse   []string `json:"whenToUse,omitempty"`
}

// referencedDocument is a document (or one section of it) that a task
// references with @/path.md or @/path.md#section, with the documents it
// references in turn.
type referencedDocument struct {
	Path    string `json:"path"`
	Title   string `json:"title"`
	Content string `json:"content"`
	Depth   int    `json:"depth"`
	// Namespace is the document's folder below docs/, "api/specs" for
	// /api/specs/auth.md, "" at the top.
	Namespace string `json:"namespace"`
	// Children is always present, [] when there are none, as task-list
	// agents expect.
	Children []referencedDocument `json:"children"`
}

// startedTask is the task an agent is about to work on, with everything it
// needs to do so.
type startedTask struct {
	Slug                string               `json:"slug"`
	Title               string               `json:"title"`
	Content             string               `json:"content"`
	Status              string               `json:"status"`
	FullPath            string               `json:"full_path"`
	Workflow            *workflowText        `json:"workflow,omitempty"`
	MainWorkflow        *workflowText        `json:"main_workflow,omitempty"`
	ReferencedDocuments []referencedDocument `json:"referenced_documents,omitempty"`
	// Missing names the workflows and referenced documents that do not
	// exist, so that an agent learns of a typo instead of silently working
	// without the context.
	Missing []string `json:"missing,omitempty"`
}

// The modes of a start or a complete: a subagent task is named by its
// address, a coordinator task is the next one of the list.
const (
	modeAdHoc      = "adhoc"
	modeSequential = "sequential"
)

// startResult is the result of start_subagent_task and start_coordinator_task.
type startResult struct {
	Mode     string      `json:"mode"`
	Document string      `json:"document"`
	Task     startedTask `json:"task"`
}

// completedTask confirms a completion.
type completedTask struct {
	Slug          string `json:"slug"`
	Title         string `json:"title"`
	Note          string `json:"note"`
	CompletedDate string `json:"completed_date"`
}

// completeSubagentResult is the result of complete_subagent_task: a
// confirmation and deliberately no next task, since subagent work is ad hoc.
type completeSubagentResult struct {
	Document      string        `json:"document"`
	CompletedTask completedTask `json:"completed_task"`
	// Replayed: the task was completed already with this note; this is
	// the earlier call's result (its answer was lost) and nothing changed.
	Replayed bool `json:"replayed,omitempty"`
	// Timestamp is the UTC date of the call, YYYY-MM-DD.
	Timestamp string `json:"timestamp"`
}

// nextTask is the coordinator task that comes after the completed one.
type nextTask struct {
	Slug                string               `json:"slug"`
	Title               string               `json:"title"`
	Workflow            *workflowText        `json:"workflow,omitempty"`
	ReferencedDocuments []referencedDocument `json:"referenced_documents,omitempty"`
}

// completeCoordinatorResult is the result of complete_coordinator_task:
// the next task, or where the list was archived after its last task, or the
// blocked tasks that keep it from going on.
type completeCoordinatorResult struct {
	Mode          string        `json:"mode"`
	Document      string        `json:"document"`
	CompletedTask completedTask `json:"completed_task"`
	NextTask      *nextTask     `json:"next_task,omitempty"`
	Archived      bool          `json:"archived,omitempty"`
	ArchivedTo    string        `json:"archived_to,omitempty"`
	// Blocked names the tasks left when none of them can be started: there
	// is no next task, yet the list is not finished.
	Blocked []string `json:"blocked,omitempty"`
	// Replayed: the request_key was used by an earlier completion; this is
	// that completion and nothing changed.
	Replayed bool `json:"replayed,omitempty"`
	// ArchiveError: the completion finished the list and was written, but
	// the archive failed; the next call archives the list.
	ArchiveError string `json:"archive_error,omitempty"`
	Timestamp    string `json:"timestamp"`
}

// viewedTask is a task as view_* shows it: whole, without starting it.
type viewedTask struct {
	Slug             string `json:"slug"`
	Title            string `json:"title"`
	Status           string `json:"status"`
	Content          string `json:"content"`
	FullPath         string `json:"full_path"`
	WordCount        int    `json:"word_count"`
	HasWorkflow      bool   `json:"has_workflow"`
	WorkflowName     string `json:"workflow_name,omitempty"`
	MainWorkflowName string `json:"main_workflow_name,omitempty"`
	// Version changes whenever the task's text does: pass it back as an
	// edit's if_version to be refused (CONFLICT) if the task changed since.
	Version string `json:"version"`
}

// viewResult is the result of view_subagent_task and view_coordinator_task.
type viewResult struct {
	Document string       `json:"document"`
	Count    int          `json:"count"`
	Tasks    []viewedTask `json:"tasks"`
}

func toTaskRef(t taskdoc.Task) *taskRef {
	return &taskRef{Slug: t.Slug, Title: t.Title}
}

func toSummaries(tasks []taskdoc.Task) []taskSummary {
	out := make([]taskSummary, 0, len(tasks))
	for _, t := range tasks {
		out = append(out, taskSummary{Slug: t.Slug, Title: t.Title, Status: string(t.Status)})
	}
	return out
}

func toViewResult(document string, tasks []taskdoc.Task) viewResult {
	out := viewResult{Document: document, Count: len(tasks), Tasks: make([]viewedTask, 0, len(tasks))}
	for _, t := range tasks {
		content := t.Content()
		workflow, _ := t.Field(taskdoc.KeyWorkflow)
		mainWorkflow, _ := t.Field(taskdoc.KeyMainWorkflow)
		out.Tasks = append(out.Tasks, viewedTask{
			Slug:             t.Slug,
			Title:            t.Title,
			Status:           string(t.Status),
			Content:          content,
			FullPath:         fullPath(document, t.Slug),
			WordCount:        len(strings.Fields(content)),
			HasWorkflow:      workflow != "",
			WorkflowName:     workflow,
			MainWorkflowName: mainWorkflow,
			Version:          t.Version,
		})
	}
	return out
}

func toStartedTask(document string, t taskdoc.Task) startedTask {
	return startedTask{
		Slug:     t.Slug,
		Title:    t.Title,
		Content:  t.Content(),
		Status:   string(t.Status),
		FullPath: fullPath(document, t.Slug),
	}
}

func toCompletedTask(t taskdoc.Task, note, date string) completedTask {
	return completedTask{Slug: t.Slug, Title: t.Title, Note: note, CompletedDate: date}
}

func toWorkflow(w *taskcontext.Workflow) *workflowText {
	if w == nil {
		return nil
	}
	return &workflowText{Name: w.Name, Description: w.Description, Content: w.Content, WhenToUse: w.WhenToUse}
}

// toReferences converts loaded documents; the result is never nil, so
// that children is [] rather than null (start results still omit an empty
// referenced_documents).
func toReferences(docs []taskcontext.LoadedDocument) []referencedDocument {
	out := make([]referencedDocument, 0, len(docs))
	for _, d := range docs {
		out = append(out, referencedDocument{
			Path:      d.Path,
			Title:     d.Title,
			Content:   d.Content,
			Depth:     d.Depth,
			Namespace: namespaceOf(d.Path),
			Children:  toReferences(d.Children),
		})
	}
	return out
}

// namespaceOf is the folder of a document address below docs/:
// "/api/specs/auth.md#jwt" → "api/specs", "/auth.md" → "".
func namespaceOf(address string) string {
	file, _, _ := strings.Cut(address, "#")
	dir := path.Dir(strings.TrimPrefix(file, "/"))
	if dir == "." {
		return ""
	}
	return dir
}

// dateStamp is the timestamp of complete and batch results: the clock's
// UTC date, as task-list agents expect it.
func dateStamp(now func() time.Time) string {
	return now().UTC().Format(time.DateOnly)
}

// fullPath is the address an agent passes back to the task tools.
func fullPath(document, slug string) string {
	return document + "#" + slug
}

// rootPath turns a root-relative file name ("archived/coordinator/x.md")
// into the form agents see everywhere else ("/archived/coordinator/x.md").
func rootPath(name string) string {
	if name == "" || strings.HasPrefix(name, "/") {
		return name
	}
	return "/" + name
}

// outputSchema derives the output schema of a result type. The schema
// generator refuses recursive types, so a referenced document's children are
// described as plain objects; their shape is the parent's.
func outputSchema[T any]() (*jsonschema.Schema, error) {
	str := &jsonschema.Schema{Type: "string"}
	document := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"path":      str,
			"title":     str,
			"content":   str,
			"depth":     {Type: "integer"},
			"namespace": str,
			"children":  {Type: "array", Items: &jsonschema.Schema{Type: "object"}},
		},
		Required: []string{"path", "title", "content", "depth", "namespace", "children"},
	}
	return jsonschema.For[T](&jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{
			reflect.TypeFor[referencedDocument](): document,
		},
	})
}
