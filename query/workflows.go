package query

import (
	"context"
	"path"
	"strings"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Workflow describes one workflow prompt, workflows/<Name>.md, by its front
// matter (see taskcontext.Workflow); its text is taskcontext.LoadWorkflow's.
type Workflow struct {
	Name        string   `json:"name"` // "tdd-incremental-orchestration": what a Workflow field names
	File        string   `json:"file"` // "workflows/tdd-incremental-orchestration.md"
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	WhenToUse   []string `json:"when_to_use,omitempty"`
	// Error is why the workflow could not be read, and Code its code; ""
	// when it was. A workflow whose front matter does not decode is read
	// (its text is what a worker needs), with no description.
	Error string       `json:"error,omitempty"`
	Code  taskdoc.Code `json:"code,omitempty"`
}

// Workflows returns every workflow in workflows/ (the *.md files directly
// in it), sorted by name. One that cannot be read is listed with its
// Error; the call fails only when ctx ends or the folder cannot be listed.
// No workflows/ folder is no workflows.
func Workflows(ctx context.Context, ws *workspace.Workspace) ([]Workflow, error) {
	files, err := ws.List(ctx, taskdoc.FolderWorkflows)
	if err != nil {
		return nil, err
	}
	out := []Workflow{}
	for _, file := range files {
		name, ok := strings.CutSuffix(path.Base(file), ".md")
		if !ok || name == "" {
			continue
		}
		w := Workflow{Name: name, File: file}
		wf, err := taskcontext.LoadWorkflow(ctx, ws, name)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			w.Error, w.Code = err.Error(), taskdoc.CodeOf(err)
		}
		w.Title, w.Description, w.WhenToUse = wf.Title, wf.Description, wf.WhenToUse
		out = append(out, w)
	}
	return out, nil
}
