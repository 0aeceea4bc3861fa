package taskcontext

import (
	"context"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Workflow is the text of a workflow file, workflows/<Name>.md, as a task's
// Workflow or Main-Workflow field names it.
//
// Workflow files may open with YAML front matter, as prompt files
// often do; its title, description and whenToUse keys are read into the
// fields below. Content is always the whole file.
type Workflow struct {
	Name        string   `json:"name"`                  // "tdd-incremental-orchestration"
	Content     string   `json:"content"`               // the whole file
	Title       string   `json:"title,omitempty"`       // front matter "title", if any
	Description string   `json:"description,omitempty"` // front matter "description", if any
	WhenToUse   []string `json:"when_to_use,omitempty"` // front matter "whenToUse" (a list or one string), if any
}

// LoadWorkflow reads workflows/<name>.md. A name is a plain file name
// without the ".md": one with a path separator, a NUL byte or a line break,
// an empty name and "." or ".." are INVALID_ADDRESS, so a task's field can
// never reach outside workflows/. A workflow that does not exist is
// DOCUMENT_NOT_FOUND. Every error names the workflow and keeps the cause's
// code (see the package doc for which of them Load counts as missing).
func LoadWorkflow(ctx context.Context, ws *workspace.Workspace, name string) (Workflow, error) {
	if err := checkWorkflowName(name); err != nil {
		return Workflow{}, err
	}
	file := taskdoc.FolderWorkflows + "/" + name + ".md"
	data, err := ws.ReadData(ctx, file)
	if err != nil {
		msg := fmt.Sprintf("load workflow %q", name)
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			msg = fmt.Sprintf("workflow %q not found (no %s)", name, file)
		}
		return Workflow{}, named(err, file, msg)
	}
	wf := Workflow{Name: name, Content: string(data)}
	wf.describe(data)
	return wf, nil
}

// describe reads the workflow's front matter. A workflow whose front matter
// does not decode is still served whole: its text is what the agent needs,
// and the description fields are only a summary of it.
func (wf *Workflow) describe(data []byte) {
	fm, err := taskdoc.ParseFrontMatter(data)
	if err != nil || fm.Values == nil {
		return
	}
	values := fm.Values
	wf.Title, _ = values["title"].(string)
	wf.Description, _ = values["description"].(string)
	switch v := values["whenToUse"].(type) {
	case string:
		wf.WhenToUse = []string{v}
	case []any:
		for _, item := range v {
			if text, ok := item.(string); ok {
				wf.WhenToUse = append(wf.WhenToUse, text)
			}
		}
	}
}

func checkWorkflowName(name string) error {
	why := ""
	switch {
	case name == "":
		why = "it is empty"
	case name == "." || name == "..":
		why = "it is a path element"
	case strings.ContainsAny(name, "/\\\x00\r\n"):
		why = "a workflow is named by its file name in " + taskdoc.FolderWorkflows + "/, without folders"
	}
	if why == "" {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: name,
		Msg: fmt.Sprintf("workflow name %q is refused: %s", name, why)}
}
