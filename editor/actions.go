package editor

import (
	"context"
	"fmt"
	"strconv"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// Actions returns the changes offered for the task holding r.Start in the
// document at path, each with the Edits that make it when it needs no
// input: start, complete (Needs "note", carried out by Apply), block,
// unblock and reopen as the status machine allows them from the task's
// status (taskflow.CheckMove), and add_task, a task titled "New task" (or
// "New task 2", ... when that title is taken) right after it. A cursor in
// the Tasks section but on no task is offered add_task at the section's
// end. On the coordinator's list, which is sequential, start is offered
// only for the task the coordinator's start takes (coordinator.Next) and
// complete only for the task in progress; a finished list is offered
// archive (see Archive) wherever the cursor is.
//
// A document that does not read has no actions; its diagnostics say why.
// The Edits apply to the buffer of the Action's Version, which no action
// changes: the editor applies them.
func (s *Session) Actions(ctx context.Context, path string, r Range) ([]Action, error) {
	v, _, err := s.document(ctx, path)
	if err != nil || v.Doc == nil {
		return nil, err
	}
	offset, err := v.text().offset(r.Start)
	if err != nil {
		return nil, err
	}
	var out []Action
	task := v.taskAt(offset)
	if task != nil {
		for _, name := range []ActionName{ActionStart, ActionComplete, ActionBlock, ActionUnblock, ActionReopen} {
			if allowed(v, task, name) != nil {
				continue
			}
			a := Action{Title: actionTitle(name, task), Name: name, Path: v.Path, Slug: task.Slug, Version: v.Version, Open: v.Open}
			if name == ActionComplete {
				a.Needs = "note"
			} else if a.Edits = s.offeredEdits(v, ActionRequest{Name: name, Slug: task.Slug}, task); a.Edits == nil {
				continue
			}
			out = append(out, a)
		}
	}
	if task != nil || inTasksSection(v.Doc, offset) {
		req := ActionRequest{Name: ActionAddTask, Title: newTaskTitle(v)}
		if task != nil {
			req.Slug = task.Slug
		}
		if edits := s.offeredEdits(v, req, task); edits != nil {
			out = append(out, Action{Title: actionTitle(ActionAddTask, task), Name: ActionAddTask, Path: v.Path,
				Slug: req.Slug, Version: v.Version, Open: v.Open, Edits: edits})
		}
	}
	if v.Coordinator() && coordinator.Finished(v.Doc) {
		out = append(out, Action{Title: actionTitle(ActionArchive, nil), Name: ActionArchive, Path: v.Path, Version: v.Version, Open: v.Open})
	}
	return out, nil
}

// offeredEdits are the edits of req on task in v, or nil when it is
// refused or changes nothing: such an action is not offered.
func (s *Session) offeredEdits(v *view, req ActionRequest, task *taskdoc.Task) []Edit {
	nd, err := s.change(v, req, task)
	if err != nil {
		return nil
	}
	return v.text().diff(nd.Source)
}

// allowed reports whether action name may be made on task in v: nil when
// the status machine has the move from the task's status (a start of a
// task in progress is a resume, a block of a blocked task a new reason),
// else INVALID_TRANSITION. The coordinator's list is sequential: a start
// only of the task its start would take, a completion only of the task in
// progress. add_task is always allowed.
func allowed(v *view, task *taskdoc.Task, name ActionName) error {
	from := task.Status
	var ok bool
	switch name {
	case ActionAddTask:
		return nil
	case ActionStart:
		_, ok = taskflow.MoveTarget(taskflow.MoveStart, from)
	case ActionComplete:
		_, ok = taskflow.MoveTarget(taskflow.MoveComplete, from)
	case ActionBlock:
		ok = from == taskdoc.StatusBlocked || taskflow.CheckMove(taskflow.MoveUpdate, from, taskdoc.StatusBlocked) == nil
	case ActionUnblock:
		ok = from == taskdoc.StatusBlocked && taskflow.CheckMove(taskflow.MoveUpdate, from, taskdoc.StatusPending) == nil
	case ActionReopen:
		ok = from.Final() && taskflow.CheckMove(taskflow.MoveReopen, from, taskdoc.StatusPending) == nil ||
			from == taskdoc.StatusFailed && taskflow.CheckMove(taskflow.MoveUpdate, from, taskdoc.StatusPending) == nil
	}
	if !ok {
		return refused(v, task, fmt.Sprintf("task %q in %s is %s: it cannot be %s", task.Slug, v.Address, from, pastTense[name]))
	}
	if !v.Coordinator() {
		return nil
	}
	switch name {
	case ActionStart:
		next, err := coordinator.Next(v.Doc)
		if err != nil {
			return err
		}
		if next.Slug != task.Slug {
			return refused(v, task, fmt.Sprintf("coordinator tasks are taken in order: the next task of %s is %q, not %q", v.Address, next.Slug, task.Slug))
		}
	case ActionComplete:
		if from != taskdoc.StatusInProgress {
			return refused(v, task, fmt.Sprintf("coordinator tasks are completed in order: %q in %s is %s, not in progress; start it first", task.Slug, v.Address, from))
		}
	}
	return nil
}

// pastTense is what an action makes of a task, for messages.
var pastTense = map[ActionName]string{
	ActionStart:    "started",
	ActionComplete: "completed",
	ActionBlock:    "blocked",
	ActionUnblock:  "unblocked",
	ActionReopen:   "reopened",
}

func refused(v *view, task *taskdoc.Task, msg string) error {
	return taskdoc.ErrorAt(&taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: v.Address, Slug: task.Slug, Msg: msg},
		v.Doc.Source, task.HeadingSpan.Start)
}

// actionTitle is what an editor shows for an action on task.
func actionTitle(name ActionName, task *taskdoc.Task) string {
	switch name {
	case ActionArchive:
		return "Archive the finished coordinator list"
	case ActionAddTask:
		if task == nil {
			return "Add a task"
		}
		return fmt.Sprintf("Add a task after %q", task.Title)
	case ActionComplete:
		return fmt.Sprintf("Complete %q…", task.Title)
	case ActionStart:
		return fmt.Sprintf("Start %q", task.Title)
	case ActionBlock:
		return fmt.Sprintf("Block %q", task.Title)
	case ActionUnblock:
		return fmt.Sprintf("Unblock %q", task.Title)
	}
	return fmt.Sprintf("Reopen %q", task.Title)
}

// newTaskTitle is the title add_task offers: "New task", or "New task 2",
// "New task 3", ... when a task of v has that slug.
func newTaskTitle(v *view) string {
	title := "New task"
	for n := 2; v.task(taskdoc.Slug(title)) != nil; n++ {
		title = "New task " + strconv.Itoa(n)
	}
	return title
}

// inTasksSection reports whether offset is in doc's Tasks section.
func inTasksSection(doc *taskdoc.Document, offset int) bool {
	return doc.TasksHeading != nil && doc.TasksSpan.Start <= offset &&
		(offset < doc.TasksSpan.End || offset == doc.TasksSpan.End && offset == len(doc.Source))
}
