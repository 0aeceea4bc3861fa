package plan

import (
	"context"
	"fmt"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
)

// Pause stops c's work on task and lets go of it, in one locked update: the
// task becomes paused, its Checkpoint field points at checkpoint (the
// workspace path of the worker checkpoint that holds its progress; "" sets
// none), its Assignee field is removed and c's claim ends. A new worker
// resumes it with Claim and UpdateStatus to in_progress. The fence is
// UpdateStatus's; c's claim is let go, so that every later write of c on
// the task (a checkpoint, a status) is STALE_CLAIM until it claims the
// task again. A retried Pause by the same claim writes nothing, or only
// the Checkpoint field when it names another. A
// pending task (claimed, not started) stays pending; a task that is not
// pending, planning, in progress or paused is INVALID_TRANSITION.
func (p *Plans) Pause(ctx context.Context, task string, c Claimant, checkpoint string) (taskdoc.Task, error) {
	return p.pause(ctx, task, c, checkpoint, false)
}

// CheckPause answers whether Pause of task by c would be made, with the
// error Pause would return, and writes nothing: a caller that writes
// something else first (a worker's checkpoint) asks it before, so that a
// refused pause leaves every file as it was.
func (p *Plans) CheckPause(ctx context.Context, task string, c Claimant) error {
	_, err := p.pause(ctx, task, c, "", true)
	return err
}

// pause is Pause, or with check its answer alone (claims.Change.Check).
func (p *Plans) pause(ctx context.Context, task string, c Claimant, checkpoint string, check bool) (taskdoc.Task, error) {
	t, err := taskTarget(task)
	if err != nil {
		return taskdoc.Task{}, err
	}
	if err := c.check(); err != nil {
		return taskdoc.Task{}, err
	}
	checkpoint = plaintext.FoldLine(checkpoint)
	var out taskdoc.Task
	// A retried Pause of this claim, whose pause let the task go, may
	// point the task at its checkpoint again (see
	// worker.Pivots.Acknowledge); any other write of that claim is
	// STALE_CLAIM. A pause takes no override.
	ch := p.change(t, Claimant{Agent: c.Agent, Token: c.Token})
	ch.To, ch.Check = taskdoc.StatusPaused, check
	ch.Retried = func(st *claims.File, tk *taskdoc.Task) bool {
		return st.ReleasedBy(t.Slug, c.Agent, c.Token) && tk.Status == taskdoc.StatusPaused
	}
	ch.Apply = func(doc *taskdoc.Document, tk *taskdoc.Task, st *claims.File) (*taskdoc.Document, error) {
		var err error
		nd := doc
		if tk.Status != taskdoc.StatusPending { // a task not started yet stays pending
			if nd, tk, err = t.Flow().UpdateStatus(doc, t.Slug, taskdoc.StatusPaused, ""); err != nil {
				return nil, err
			}
		}
		if checkpoint != "" {
			if nd, tk, err = nd.SetField(t.Slug, taskdoc.KeyCheckpoint, checkpoint); err != nil {
				return nil, err
			}
		}
		if _, ok := tk.Field(taskdoc.KeyAssignee); ok {
			if nd, tk, err = nd.RemoveField(t.Slug, taskdoc.KeyAssignee); err != nil {
				return nil, err
			}
		}
		out = *tk
		st.Release(t.Slug)
		return nd, nil
	}
	if _, err := claims.Make(ctx, p.ws, ch); err != nil {
		return taskdoc.Task{}, err
	}
	return out, nil
}

// Revoke takes task away from whoever holds it, for an orchestrator (the
// pivot protocol's hard pivot): the claim ends and its token lets nothing through any
// more, the Assignee field is removed, and a task in progress, planning or
// paused returns to pending, so that NextTasks offers it again. No
// checkpoint is written. Revoking a task no agent holds only moves its
// status; a completed, skipped, failed or blocked task keeps its status.
// A retried Revoke writes nothing. With from set, the task is revoked only
// when that agent holds it: a task no agent holds is left as it is (a
// paused task stays in the resume queue), and one another agent holds is
// CONFLICT, so a pivot of one worker never takes another's task.
func (p *Plans) Revoke(ctx context.Context, task, from string) (taskdoc.Task, error) {
	t, err := taskTarget(task)
	if err != nil {
		return taskdoc.Task{}, err
	}
	var out taskdoc.Task
	ch := p.change(t, Claimant{})
	ch.Unfenced = true // an orchestrator's: it takes the task from whoever holds it
	ch.Apply = func(doc *taskdoc.Document, tk *taskdoc.Task, st *claims.File) (*taskdoc.Document, error) {
		var err error
		assignee, _ := tk.Field(taskdoc.KeyAssignee)
		switch holder := st.Holder(t.Slug, assignee); {
		case from == "" || holder == from:
		case holder == "":
			out = *tk // from holds it no more (released, paused, taken back already): nothing to take
			return nil, nil
		default:
			return nil, &taskdoc.Error{Code: taskdoc.CodeConflict, Path: t.Path, Slug: t.Slug,
				Msg: fmt.Sprintf("task %q in %s is held by agent %s, not %s: it was not revoked", t.Slug, t.Path, holder, from)}
		}
		nd := doc
		switch tk.Status {
		case taskdoc.StatusInProgress, taskdoc.StatusPlanning, taskdoc.StatusPaused:
			if nd, tk, err = t.Flow().UpdateStatus(doc, t.Slug, taskdoc.StatusPending, ""); err != nil {
				return nil, err
			}
		}
		if _, ok := tk.Field(taskdoc.KeyAssignee); ok && !tk.Status.Final() {
			if nd, tk, err = nd.RemoveField(t.Slug, taskdoc.KeyAssignee); err != nil {
				return nil, err
			}
		}
		out = *tk
		st.Release(t.Slug)
		return nd, nil
	}
	if _, err := claims.Make(ctx, p.ws, ch); err != nil {
		return taskdoc.Task{}, err
	}
	return out, nil
}
