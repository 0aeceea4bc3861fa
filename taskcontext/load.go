package taskcontext

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Request says what to load for one task.
type Request struct {
	// Task gives the workflow its Workflow field names (taskdoc.KeyWorkflow;
	// the value trimmed, a blank one naming none) and its References. A nil
	// Task loads neither.
	Task *taskdoc.Task
	// MainWorkflow is the name of a Main-Workflow to load (trimmed); ""
	// loads none.
	MainWorkflow string
	// Depth is how many levels of @references to follow: 1 the task's own,
	// 2 theirs too, and so on; 0 or less none.
	Depth int
}

// Context is what was loaded for a task.
type Context struct {
	MainWorkflow *Workflow        `json:"main_workflow,omitempty"`        // nil when not asked for or missing
	Workflow     *Workflow        `json:"workflow,omitempty"`             // nil when the task has none or it is missing
	References   []LoadedDocument `json:"referenced_documents,omitempty"` // the documents the task references
	// Missing names what the request names that is not there: the
	// Main-Workflow and the Workflow by name, then the references by raw
	// text ("@/x.md#y"), once each, in the order met.
	Missing []string `json:"missing,omitempty"`
}

// Load loads what req names: its Main-Workflow, the task's Workflow and
// the task's references down to req.Depth, in that order. What is missing
// is listed in Context.Missing; any other failure ends the load with an
// error naming the workflow or reference (see the package doc). A
// Main-Workflow and a Workflow of the same name are read once.
func Load(ctx context.Context, ws *workspace.Workspace, req Request) (*Context, error) {
	if err := ws.Check(); err != nil {
		return nil, err
	}
	in := req.inputs()
	c := &Context{}
	var err error
	if c.MainWorkflow, err = c.workflow(ctx, ws, in.main); err != nil {
		return nil, err
	}
	switch {
	case in.workflow == in.main && c.MainWorkflow != nil:
		wf := *c.MainWorkflow
		wf.WhenToUse = slices.Clone(wf.WhenToUse)
		c.Workflow = &wf
	case in.workflow != in.main:
		if c.Workflow, err = c.workflow(ctx, ws, in.workflow); err != nil {
			return nil, err
		}
	}
	docs, missing, err := loadReferences(ctx, ws, in.refs, in.depth)
	if err != nil {
		return nil, err
	}
	c.References = docs
	for _, m := range missing {
		c.Missing = addMissing(c.Missing, m)
	}
	return c, nil
}

// workflow loads the named workflow, or lists it as missing; "" is none.
func (c *Context) workflow(ctx context.Context, ws *workspace.Workspace, name string) (*Workflow, error) {
	if name == "" {
		return nil, nil
	}
	wf, err := LoadWorkflow(ctx, ws, name)
	if err != nil {
		if !isMissing(err) {
			return nil, err
		}
		c.Missing = addMissing(c.Missing, name)
		return nil, nil
	}
	return &wf, nil
}

// isMissing is the one rule for a workflow or reference that cannot be
// loaded (see the package doc): true when err says there is nothing there
// to load, false when a person has to fix something and err is returned.
// A section that a document does not have comes here as
// DOCUMENT_NOT_FOUND.
func isMissing(err error) bool {
	switch taskdoc.CodeOf(err) {
	case taskdoc.CodeDocumentNotFound, taskdoc.CodeInvalidAddress:
		return true
	}
	return false
}

// named wraps a failure to load a workflow or reference so that its
// message names it, keeping the cause's code and position and the cause
// itself. A cause without a code (none is expected) is IO_ERROR.
func named(err error, path, msg string) error {
	e := &taskdoc.Error{Code: taskdoc.CodeIO, Path: path, Msg: msg, Err: err}
	var cause *taskdoc.Error
	if errors.As(err, &cause) {
		e.Code, e.Line, e.Column = cause.Code, cause.Line, cause.Column
	}
	return e
}

// addMissing appends name unless it is listed already.
func addMissing(list []string, name string) []string {
	if slices.Contains(list, name) {
		return list
	}
	return append(list, name)
}

// inputs is a Request reduced to what Load reads from it. Load and Inputs
// both go through it, so they cannot disagree.
type inputs struct {
	main, workflow string
	refs           []taskdoc.Reference
	depth          int // 0 when no references are followed, and then refs is nil
}

func (r Request) inputs() inputs {
	in := inputs{main: strings.TrimSpace(r.MainWorkflow), depth: max(r.Depth, 0)}
	if r.Task != nil {
		name, _ := r.Task.Field(taskdoc.KeyWorkflow)
		in.workflow = strings.TrimSpace(name)
		if in.depth > 0 {
			in.refs = r.Task.References
		}
	}
	if len(in.refs) == 0 {
		in.depth = 0
	}
	return in
}

// Inputs returns a comparable key of what Load reads from the request:
// the Main-Workflow name, the trimmed Workflow field, the depth and the
// references' raw texts. Two requests with equal Inputs load the same files
// (as long as the files do not change), so a caller may use it to tell
// whether a context it sent already is still the one a task needs.
//
// What Load does not read does not count: the rest of the task, the
// references when the depth is 0 or less, and the depth when there are no
// references. A reference counts by its raw text, from which
// taskdoc.ParseReferences derives its path and section.
func (r Request) Inputs() string {
	in := r.inputs()
	var b strings.Builder
	b.WriteString(strconv.Quote(in.main))
	b.WriteByte(' ')
	b.WriteString(strconv.Quote(in.workflow))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(in.depth))
	for _, ref := range in.refs {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(ref.Raw))
	}
	return b.String()
}
