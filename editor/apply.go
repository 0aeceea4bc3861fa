package editor

import (
	"context"
	"fmt"
	"strconv"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// newTaskContent is the metadata of a task add_task writes.
const newTaskContent = "- " + taskdoc.KeyStatus + ": pending"

// Apply returns the edits that carry out req on the document at req.Path
// as the Session sees it (its buffer when open, else its file), without
// changing it: the editor applies them to the buffer of the returned
// Version (when Open; else they apply to the document's file). The
// change is the task systems' own (package taskflow: start, complete with
// req.Note and the Session's date, block with req.Reason recorded in the
// Blocked field, unblock and reopen to pending, and add_task with
// req.Title after the task req.Slug names, at the end of the Tasks section
// when it names none), and the edits are the few lines it changes, each
// trimmed to the characters that differ.
//
// The rules are Actions': an action it would not offer for the task is
// INVALID_TRANSITION. On the coordinator's list an empty Slug means the
// list's current task for start and complete, as the coordinator's start
// and complete take no slug; elsewhere a slug is required
// (SUBAGENT_REQUIRES_SLUG, and INVALID_ADDRESS on the coordinator's list).
// A completion of the list's last task does not start another, nor
// archive the list: Archive does, once the list is saved.
//
// Bad input changes nothing and is a *taskdoc.Error: an unknown action or
// archive (which Archive carries out) is INVALID_ARGUMENTS, complete
// without a note NOTE_REQUIRED, add_task without a title INVALID_TASK, a
// slug no task has TASK_NOT_FOUND, and, with req.CheckVersion, a
// req.Version that is not the buffer's version CONFLICT: the buffer changed since the request
// was made.
func (s *Session) Apply(ctx context.Context, req ActionRequest) (DocumentEdit, error) {
	switch req.Name {
	case ActionStart, ActionComplete, ActionBlock, ActionUnblock, ActionReopen, ActionAddTask:
	case ActionArchive:
		return DocumentEdit{}, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: req.Path,
			Msg: "archive moves the coordinator's list on disk: call Archive, not Apply"}
	default:
		return DocumentEdit{}, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: req.Path, Slug: req.Slug,
			Msg: fmt.Sprintf("unknown action %q (want start, complete, block, unblock, reopen or add_task)", req.Name)}
	}
	v, flow, err := s.document(ctx, req.Path)
	if err != nil {
		return DocumentEdit{}, err
	}
	if req.Name == ActionComplete {
		if err := flow.CheckNote(req.Note, req.Slug); err != nil {
			return DocumentEdit{}, err
		}
	}
	if req.CheckVersion && (!v.Open || req.Version != v.Version) {
		return DocumentEdit{}, &taskdoc.Error{Code: taskdoc.CodeConflict, Path: req.Path, Slug: req.Slug,
			Current: strconv.Itoa(v.Version),
			Msg:     fmt.Sprintf("%s is at version %d, not %d: the buffer changed since the action was offered; ask again", req.Path, v.Version, req.Version)}
	}
	if v.Doc == nil {
		return DocumentEdit{}, v.Err
	}
	task, err := target(v, flow, req)
	if err != nil {
		return DocumentEdit{}, err
	}
	nd, err := s.change(v, req, task)
	if err != nil {
		return DocumentEdit{}, err
	}
	edits := v.text().diff(nd.Source)
	if edits == nil {
		edits = []Edit{}
	}
	return DocumentEdit{Path: v.Path, Version: v.Version, Open: v.Open, Edits: edits}, nil
}

// change is the document req makes of v's, on task (nil for add_task
// at the end of the Tasks section), through the task systems' flow.
func (s *Session) change(v *view, req ActionRequest, task *taskdoc.Task) (*taskdoc.Document, error) {
	if task != nil {
		if err := allowed(v, task, req.Name); err != nil {
			return nil, err
		}
	}
	flow := flowOf(v)
	doc := v.Doc
	var nd *taskdoc.Document
	var err error
	switch req.Name {
	case ActionStart:
		nd, _, err = flow.Start(doc, task.Slug)
	case ActionComplete:
		nd, _, err = flow.Complete(doc, task.Slug, req.Note, s.cfg.Today())
	case ActionBlock:
		nd, _, err = flow.SetStatus(doc, task.Slug, taskdoc.StatusBlocked, req.Reason)
	case ActionUnblock, ActionReopen:
		nd, _, err = flow.SetStatus(doc, task.Slug, taskdoc.StatusPending, "")
	case ActionAddTask:
		nt := taskdoc.NewTask{Title: req.Title, Content: newTaskContent}
		if task != nil {
			nt.After = task.Slug
		}
		// The list's first task must carry Main-Workflow, as the
		// coordinator's Create checks, unless the list lacks it already.
		valid := v.Coordinator() && coordinator.CheckMainWorkflow(doc) == nil
		if nd, _, err = flow.Create(doc, []taskdoc.NewTask{nt}); err == nil && valid {
			err = coordinator.CheckMainWorkflow(nd)
		}
	}
	if err != nil {
		return nil, err
	}
	return nd, nil
}

// target is the task req names in v: by its slug, or on the coordinator's
// list the current task (coordinator.Next) for a start or a completion
// without one. add_task without a slug has none.
func target(v *view, flow taskflow.Flow, req ActionRequest) (*taskdoc.Task, error) {
	if req.Slug == "" {
		switch {
		case req.Name == ActionAddTask:
			return nil, nil
		case v.Coordinator() && (req.Name == ActionStart || req.Name == ActionComplete):
			return coordinator.Next(v.Doc)
		case v.Coordinator():
			return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: v.Address,
				Msg: fmt.Sprintf("no task slug: %s needs the slug of the coordinator task to %s", req.Name, req.Name)}
		}
		return nil, &taskdoc.Error{Code: taskdoc.CodeSubagentRequiresSlug, Path: v.Address,
			Msg: fmt.Sprintf("no task slug: %s needs the slug of a task of %s", req.Name, v.Address)}
	}
	task, err := v.Doc.Task(req.Slug)
	if err != nil {
		return nil, flow.At(err, req.Slug)
	}
	return task, nil
}

// document is the task document at path as the Session sees it, and the
// task flow of its address. A path that holds no tasks (outside docs/,
// not the coordinator's list) is INVALID_ADDRESS.
func (s *Session) document(ctx context.Context, path string) (*view, taskflow.Flow, error) {
	if err := checkPath(path); err != nil {
		return nil, taskflow.Flow{}, err
	}
	if !isDocument(path) {
		return nil, taskflow.Flow{}, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: path,
			Msg: fmt.Sprintf("%s holds no tasks: tasks live in %s/**/*.md and %s", path, taskdoc.FolderDocs, coordinator.File)}
	}
	v, err := s.view(ctx, path)
	if err != nil {
		return nil, taskflow.Flow{}, err
	}
	return v, flowOf(v), nil
}

// flowOf is the task flow of v's document.
func flowOf(v *view) taskflow.Flow {
	return taskflow.Flow{Path: v.Address, File: v.Path}
}
