package taskflow

import (
	"fmt"

	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
)

// SetStatus moves task slug to status to as a person or an agent sets it
// by hand: block it (reason, when given, recorded in its Blocked field),
// unblock it (any status out of blocked; the Blocked field goes), reopen it
// (out of completed, skipped or failed; its outcome — the Completed, Note
// and Error fields — goes), fail it (reason required, recorded in Error,
// as UpdateStatus does), or any other move the status machine lists.
// Completed is Complete's, with a note. Only the Status field and the
// fields named here change: the title, body, Workflow and every other
// field stay as they are.
//
// The moves are the status machine's (CheckMove): a reopen is
// MoveReopen out of completed or skipped, MoveUpdate out of failed; every
// other change is MoveUpdate. A move to the status the task has already is
// a retry: nothing is written, the reason is not kept and the Status field
// keeps its spelling (a task without one gets none), unless a blocked or
// failed task is given a new reason: then that reason, in its Blocked or
// Error field, is the one change.
func (f Flow) SetStatus(doc *taskdoc.Document, slug string, to taskdoc.Status, reason string) (*taskdoc.Document, *taskdoc.Task, error) {
	status, task, err := f.statusTarget(doc, slug, to)
	if err != nil {
		return nil, nil, err
	}
	reason = plaintext.FoldLine(reason)
	from := task.Status
	if status == from {
		return f.keepStatus(doc, task, reason)
	}
	if err := CheckMove(setMove(from), from, status); err != nil {
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s cannot move from %s to %s", slug, f.Path, from, status)}
	}
	drop := leaving(from)
	if status == taskdoc.StatusFailed {
		// UpdateStatus records the error text, or refuses a failure
		// without one.
		if doc, err = f.dropFields(doc, slug, drop); err != nil {
			return nil, nil, err
		}
		return f.UpdateStatus(doc, slug, status, reason)
	}
	if status == taskdoc.StatusBlocked && reason != "" {
		if doc, _, err = doc.SetField(slug, taskdoc.KeyBlocked, reason); err != nil {
			return nil, nil, f.At(err, slug)
		}
	}
	if doc, err = f.dropFields(doc, slug, drop); err != nil {
		return nil, nil, err
	}
	nd, moved, err := doc.SetStatus(slug, status)
	if err != nil {
		return nil, nil, f.At(err, slug)
	}
	return nd, moved, nil
}

// leaving is the fields a task moving out of status from loses: the
// outcome (Completed, Note, Error) out of a final status or failed, the
// Blocked reason out of blocked. A task keeps no reason for a status it
// has left, whichever way it left it.
func leaving(from taskdoc.Status) []string {
	switch {
	case from.Final() || from == taskdoc.StatusFailed:
		return []string{taskdoc.KeyCompleted, taskdoc.KeyNote, taskdoc.KeyError}
	case from == taskdoc.StatusBlocked:
		return []string{taskdoc.KeyBlocked}
	}
	return nil
}

// setMove is the move SetStatus makes out of status from: a reopen out of
// completed or skipped, an update otherwise.
func setMove(from taskdoc.Status) Move {
	if from.Final() {
		return MoveReopen
	}
	return MoveUpdate
}

// keepStatus answers a move of task to the status it has: a retry, which
// writes nothing (the Status field is not even respelled: " In_Progress "
// stays), and drops the reason unless the task is blocked or failed and
// the reason is new. That one reason is then recorded, in its Blocked or
// Error field, and nothing else changes.
func (f Flow) keepStatus(doc *taskdoc.Document, task *taskdoc.Task, reason string) (*taskdoc.Document, *taskdoc.Task, error) {
	s := task.Status
	if (s != taskdoc.StatusBlocked && s != taskdoc.StatusFailed) || reason == "" || reason == reasonOf(task, s) {
		return doc, task, nil
	}
	key := taskdoc.KeyBlocked
	if s == taskdoc.StatusFailed {
		key = taskdoc.KeyError
	}
	nd, t, err := doc.SetField(task.Slug, key, reason)
	if err != nil {
		return nil, nil, f.At(err, task.Slug)
	}
	return nd, t, nil
}

// reasonOf is the reason recorded for a task in status s: its Blocked or
// Error field.
func reasonOf(task *taskdoc.Task, s taskdoc.Status) string {
	key := taskdoc.KeyBlocked
	if s == taskdoc.StatusFailed {
		key = taskdoc.KeyError
	}
	v, _ := task.Field(key)
	return v
}

// dropFields removes the fields keys from task slug.
func (f Flow) dropFields(doc *taskdoc.Document, slug string, keys []string) (*taskdoc.Document, error) {
	for _, key := range keys {
		nd, _, err := doc.RemoveField(slug, key)
		if err != nil {
			return nil, f.At(err, slug)
		}
		doc = nd
	}
	return doc, nil
}

// statusTarget reads the status a task is to move to and finds the task,
// for UpdateStatus and SetStatus: an unknown status is UNKNOWN_STATUS, and
// completed is refused (INVALID_TRANSITION), as Complete's, which records
// a note.
func (f Flow) statusTarget(doc *taskdoc.Document, slug string, to taskdoc.Status) (taskdoc.Status, *taskdoc.Task, error) {
	status, err := taskdoc.ParseStatus(string(to))
	if err != nil {
		return "", nil, f.At(err, slug)
	}
	if status == taskdoc.StatusCompleted {
		return "", nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s is completed by Complete, which records its note", slug, f.Path)}
	}
	task, err := f.task(doc, slug)
	if err != nil {
		return "", nil, err
	}
	return status, task, nil
}
