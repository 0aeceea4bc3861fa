package coordinator

import (
	"bytes"
	"context"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// SetStatus sets the status of the task with the plain slug by hand and
// returns the task as it is in the list: block (reason, optional, in its
// Blocked field), unblock (out of blocked; the Blocked field goes), reopen
// (out of completed, skipped or failed; the Completed, Note and Error
// fields go), fail (reason required, in its Error field). The rules and
// the retry behaviour are those of subagent.Tasks.SetStatus: only the
// Status field and those fields change, the Main-Workflow and every other
// field stay, and setting the status the task has already writes nothing.
//
// A list whose last open task is skipped this way is finished: the next
// operation of the List archives it, as it does every finished list. A
// retry of that call is such an operation, and is answered like every
// retry: when there is no list (it was just archived) and the newest
// archive holds the task, a call that would change nothing there answers
// with the task as archived and writes nothing; any other call on a task
// the list does not hold is TASK_NOT_FOUND. A retry after a new list was
// created, without the task, is TASK_NOT_FOUND too.
func (c *List) SetStatus(ctx context.Context, slug string, status taskdoc.Status, reason string) (taskdoc.Task, error) {
	if err := checkSlug(slug); err != nil {
		return taskdoc.Task{}, err
	}
	var set taskdoc.Task
	err := c.withList(ctx, listCall{keepFinished: true}, func(s *state) error {
		if s.doc == nil {
			t, err := c.archivedSetStatus(ctx, s.tx, slug, status, reason)
			if err != nil {
				return err
			}
			set = *t
			return nil
		}
		if t, err := s.doc.Task(slug); err == nil {
			if err := taskflow.CheckSeen(ctx, Address, t); err != nil {
				return err
			}
		}
		doc, err := c.flow.Resolver(ctx, c.ws).CheckReady(s.doc, slug, taskflow.MoveSet, status, false)
		if err != nil {
			return err
		}
		nd, task, err := c.flow.SetStatus(doc, slug, status, reason)
		if err != nil {
			return err
		}
		if s.archiveErr != nil && !bytes.Equal(nd.Source, s.source) {
			// A finished list that could not be archived takes no change
			// but a retry's, which writes nothing.
			return s.archiveErr
		}
		set = *task
		return s.writeDoc(nd)
	})
	return set, err
}

// archivedSetStatus answers a SetStatus when there is no list: with the
// task as the newest archive holds it, when the call would change nothing
// there (the retry of the call that finished the list, which the retry
// itself archived); TASK_NOT_FOUND otherwise.
func (c *List) archivedSetStatus(ctx context.Context, tx *workspace.Tx, slug string, status taskdoc.Status, reason string) (*taskdoc.Task, error) {
	archived, err := c.Archives(ctx)
	if err != nil || len(archived) == 0 {
		return nil, noList(slug)
	}
	data, err := tx.ReadData(archived[0].Name)
	if err != nil {
		return nil, noList(slug)
	}
	doc, err := taskdoc.Parse(data)
	if err != nil {
		return nil, noList(slug)
	}
	if _, err := doc.Task(slug); err != nil {
		return nil, noList(slug)
	}
	nd, task, err := c.flow.SetStatus(doc, slug, status, reason)
	if err != nil || !bytes.Equal(nd.Source, data) {
		return nil, noList(slug)
	}
	return task, nil
}
