package subagent

import (
	"context"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// Remove deletes the task at address ("/api/auth.md#add-token-validation")
// from its document and returns it as it was. The task's block (its
// heading, content and the blank lines before the next task) goes; every
// other byte of the document stays as it was.
//
// Nothing is removed when the task does not exist (TASK_NOT_FOUND, also
// the answer to a retry of a removal that succeeded), when it changed
// since r.IfVersion (CONFLICT), when other tasks of the document depend on
// it (INVALID_TASK naming them, even with r.Force), or, unless r.Force,
// when tasks of other documents depend on it by its address (INVALID_TASK
// naming them: every document under docs/ and the coordinator list are
// read for them) or someone may be working on it (INVALID_TRANSITION): in
// progress, planning or paused, or held by an agent (its Assignee) and not
// finished: a held task is refused whether or not its holder is still
// online, and Force is the person's decision that it is not. A task an
// agent holds (package plan) is removed only by its holder or by a
// person's override (WithOverride), as every write (see Tasks): otherwise
// it is STALE_CLAIM, Force or not. The removed task's claim is released.
//
// A Depends-On with an entry that is no task address still counts for the
// entries that are. The other documents are read without their locks, so
// the check is not atomic with the removal: a dependency written in
// another document while Remove runs can slip through. Documents that
// cannot be read or parsed are passed over.
func (s *Tasks) Remove(ctx context.Context, address string, r taskdoc.Removal) (taskdoc.Task, error) {
	t, err := taskTarget(address)
	if err != nil {
		return taskdoc.Task{}, err
	}
	var removed taskdoc.Task
	c := s.change(ctx, t)
	c.Apply = func(doc *taskdoc.Document, _ *taskdoc.Task, _ *claims.File) (*taskdoc.Document, error) {
		nd, task, err := t.Flow().Remove(doc, t.Slug, r, func() ([]string, error) {
			return taskflow.Dependents(ctx, s.ws, taskdoc.Address{Path: t.Path, Slug: t.Slug})
		})
		if err != nil {
			return nil, err
		}
		removed = *task
		return nd, nil
	}
	if _, err := claims.Make(ctx, s.ws, c); err != nil {
		return taskdoc.Task{}, err
	}
	return removed, nil
}
