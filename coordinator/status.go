package coordinator

import (
	"context"

	"github.com/taskmd/taskmd/taskdoc"
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
// operation of the List archives it, as it does every finished list.
func (c *List) SetStatus(ctx context.Context, slug string, status taskdoc.Status, reason string) (taskdoc.Task, error) {
	if err := checkSlug(slug); err != nil {
		return taskdoc.Task{}, err
	}
	var set taskdoc.Task
	err := c.withList(ctx, listCall{}, func(s *state) error {
		if s.doc == nil {
			return noList(slug)
		}
		nd, task, err := c.flow.SetStatus(s.doc, slug, status, reason)
		if err != nil {
			return err
		}
		set = *task
		return s.write(nd.Source)
	})
	return set, err
}
