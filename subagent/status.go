package subagent

import (
	"context"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// SetStatus sets the status of the task at address, by hand or as its
// agent reports where it stands, and returns the task as it is in the file:
//
//   - block: to blocked, with reason (optional) recorded in its Blocked
//     field;
//   - unblock: out of blocked (to pending, say), removing the Blocked field;
//   - reopen: out of completed, skipped or failed (to pending, say),
//     removing its outcome: the Completed, Note and Error fields;
//   - fail: to failed, reason required (NOTE_REQUIRED without one),
//     recorded in its Error field.
//
// Only the Status field and those fields change: the title, the body, the
// Workflow and every other field stay. Completed is Complete's, with a
// note (INVALID_TRANSITION here); an unknown status is UNKNOWN_STATUS; a
// move the status machine does not list is INVALID_TRANSITION (see
// taskflow.CheckMove: a reopen is its reopen move). Setting the status the
// task has already is a retry: nothing is written (a new reason for a
// blocked or failed task is recorded). A move to planning or in_progress
// while a dependency is not done is TASK_BLOCKED.
func (s *Tasks) SetStatus(ctx context.Context, address string, status taskdoc.Status, reason string) (taskdoc.Task, error) {
	t, err := taskTarget(address)
	if err != nil {
		return taskdoc.Task{}, err
	}
	var set taskdoc.Task
	c := s.change(ctx, t)
	c.Move, c.To = taskflow.MoveSet, status
	c.Apply = func(doc *taskdoc.Document, _ *taskdoc.Task, _ *claims.File) (*taskdoc.Document, error) {
		nd, task, err := t.Flow().SetStatus(doc, t.Slug, status, reason)
		if err != nil {
			return nil, err
		}
		set = *task
		return nd, nil
	}
	if _, err := claims.Make(ctx, s.ws, c); err != nil {
		return taskdoc.Task{}, err
	}
	return set, nil
}
