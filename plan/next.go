package plan

import (
	"context"

	"github.com/taskmd/taskmd/taskdoc"
)

// NextTask is a task an agent may claim now, with the protocol's hints.
type NextTask struct {
	ID     string         `json:"id"` // the task's address
	Title  string         `json:"title"`
	Status taskdoc.Status `json:"status"`
	// DependsOn lists the task's dependencies as addresses.
	DependsOn []string `json:"depends_on,omitempty"`
	// DependenciesCompleted is true when every dependency is completed or
	// skipped (always, for a pending task offered; a stranded task is
	// offered even if a dependency was reopened since it started).
	DependenciesCompleted bool `json:"dependencies_completed"`
	// CanParallelize is true when other work of the plan may go on at the
	// same time as this task: another task is offered, or held by an
	// online agent. Offered tasks never depend on each other.
	CanParallelize bool `json:"can_parallelize"`
	// Stranded is true for a task that was started (in progress or
	// planning) and whose holder went offline or released it: its work
	// waits to be picked up, with its journal, by the agent that claims it.
	Stranded bool `json:"stranded,omitempty"`
	// PreviousHolder is the agent whose claim lapsed, "" when none.
	PreviousHolder string `json:"previous_holder,omitempty"`
}

// NextTasks returns the tasks of plan ("/api/auth.md") that an agent may
// claim now (the agent protocol's workflow_next_tasks), in document order:
//
//   - pending tasks that no online agent holds, whose every dependency is
//     completed or skipped (a dependency no task has, or whose document
//     does not read, is never done);
//   - stranded tasks: in progress or planning, held by no online agent
//     (its agent went offline, was unregistered, or released the task),
//     so that no started work is left behind.
//
// Paused, blocked, failed and final tasks are not offered. The plan, the
// claims and the documents that cross-document dependencies name are read
// without locks; the list is advice, and Claim decides. A plan that does
// not exist is DOCUMENT_NOT_FOUND. A pending task whose Depends-On field
// does not read is not offered (its own calls report the error), so one
// task written badly by hand never hides the rest of the plan.
func (p *Plans) NextTasks(ctx context.Context, plan string) ([]NextTask, error) {
	t, err := planTarget(plan)
	if err != nil {
		return nil, err
	}
	v, err := p.view(ctx, t)
	if err != nil {
		return nil, err
	}
	res := t.Flow().Resolver(ctx, p.ws)
	out := []NextTask{}
	busy := false
	for i := range v.doc.Tasks {
		tk := &v.doc.Tasks[i]
		stranded := tk.Status == taskdoc.StatusInProgress || tk.Status == taskdoc.StatusPlanning
		if tk.Status != taskdoc.StatusPending && !stranded {
			continue
		}
		holder, live := v.holder(tk)
		if live {
			busy = true
			continue
		}
		n := NextTask{ID: t.Path + "#" + tk.Slug, Title: tk.Title, Status: tk.Status, Stranded: stranded, PreviousHolder: holder}
		if holder == "" {
			n.PreviousHolder, _ = tk.Field(taskdoc.KeyAssignee)
		}
		deps, err := res.Of(v.doc, tk)
		for _, d := range deps {
			n.DependsOn = append(n.DependsOn, d.Address)
		}
		// A Depends-On field that does not read is never satisfied: the
		// pending task waits until a person repairs it (its own calls
		// report the error); a stranded task is offered all the same.
		n.DependenciesCompleted = err == nil && allDone(deps)
		if !stranded && !n.DependenciesCompleted {
			continue
		}
		out = append(out, n)
	}
	for i := range out {
		out[i].CanParallelize = busy || len(out) > 1
	}
	return out, nil
}
