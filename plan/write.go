package plan

import (
	"context"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
)

// StatusUpdate is what an agent reports with UpdateStatus (the agent protocol's
// task_update_status).
type StatusUpdate struct {
	Status taskdoc.Status
	// Note is what was done: required for completed, recorded as the
	// task's Note (on one line, with the Completed date); the agent
	// protocol calls it the outcome.
	Note string
	// Error is what went wrong: required for failed, recorded as the
	// task's Error field (on one line); for blocked, why, recorded as its
	// Blocked field. A task leaving failed or blocked loses that field.
	Error string
}

// UpdateStatus moves task to u.Status through the status machine, as c
// reports it. A fenced claimant (c.Agent set) must present the task's
// current claim, or no token when no agent holds the task: otherwise it is
// STALE_CLAIM and nothing is written, so an agent whose claim was taken
// over cannot undo its successor's work.
//
// Completed needs a Note (NOTE_REQUIRED), failed an Error; a Note with
// another status is INVALID_ARGUMENTS (no field would keep it; an Error
// with a status but failed and blocked is not kept either, as a person's
// reason); a move the status machine does not list is INVALID_TRANSITION
// naming from and to.
// A move to in_progress, planning or completed while a dependency of the
// task is not done is TASK_BLOCKED naming them (a person's Override goes
// past it, recorded in the task's Forced field).
// When the task reaches completed or skipped its claim ends (the Assignee
// field stays, saying who did the work). A retried update is answered
// without a write: the same status again, or completed again with the same
// note (answered even once the claim has ended).
func (p *Plans) UpdateStatus(ctx context.Context, task string, c Claimant, u StatusUpdate) (taskdoc.Task, error) {
	t, err := taskTarget(task)
	if err != nil {
		return taskdoc.Task{}, err
	}
	if err := c.check(); err != nil {
		return taskdoc.Task{}, err
	}
	status, err := taskdoc.ParseStatus(string(u.Status))
	if err != nil {
		return taskdoc.Task{}, t.Flow().At(err, t.Slug)
	}
	if status == taskdoc.StatusCompleted {
		if err := t.Flow().CheckNote(u.Note, t.Slug); err != nil {
			return taskdoc.Task{}, err
		}
	} else if strings.TrimSpace(u.Note) != "" {
		return taskdoc.Task{}, invalid(fmt.Sprintf("a note (the outcome) goes with status completed, not %s, and would not be recorded: leave it out, or record it in the task's journal (a checkpoint); nothing was written", status))
	}
	var out taskdoc.Task
	ch := p.change(t, c)
	ch.Move, ch.To = taskflow.MoveUpdate, status
	if status == taskdoc.StatusCompleted {
		ch.Move, ch.Note = taskflow.MoveComplete, u.Note
	}
	ch.Apply = func(doc *taskdoc.Document, _ *taskdoc.Task, st *claims.File) (*taskdoc.Document, error) {
		var nd *taskdoc.Document
		var tk *taskdoc.Task
		var err error
		if status == taskdoc.StatusCompleted {
			nd, tk, err = t.Flow().Complete(doc, t.Slug, u.Note, p.cfg.Today())
		} else {
			nd, tk, err = t.Flow().UpdateStatus(doc, t.Slug, status, u.Error)
		}
		if err != nil {
			return nil, err
		}
		out = *tk
		return nd, nil
	}
	made, err := claims.Make(ctx, p.ws, ch)
	if err != nil {
		return taskdoc.Task{}, err
	}
	if made.Replayed {
		out = *made.Task
	}
	return out, nil
}

// SetApproach records the approach c will take on task (the agent protocol's
// task_set_plan) in the task's Plan field, on one line (line breaks become
// spaces), and moves a pending task to planning (TASK_BLOCKED while a
// dependency is not done). The fence is UpdateStatus's. An empty approach is INVALID_ARGUMENTS; the same approach again
// writes nothing. A multi-line approach is better kept whole in the task's
// journal as well: AddEntry with journal.TypePlan.
func (p *Plans) SetApproach(ctx context.Context, task string, c Claimant, approach string) (taskdoc.Task, error) {
	t, err := taskTarget(task)
	if err != nil {
		return taskdoc.Task{}, err
	}
	if err := c.check(); err != nil {
		return taskdoc.Task{}, err
	}
	line := plaintext.FoldLine(approach)
	if line == "" {
		return taskdoc.Task{}, invalid(fmt.Sprintf("the approach for %s is empty: say how the task will be done", t.Address()))
	}
	var out taskdoc.Task
	ch := p.change(t, c)
	ch.Decide = func(_ *taskdoc.Document, tk *taskdoc.Task) (taskflow.Move, taskdoc.Status, error) {
		if tk.Status != taskdoc.StatusPending {
			return "", "", nil
		}
		return taskflow.MoveUpdate, taskdoc.StatusPlanning, nil
	}
	ch.Apply = func(doc *taskdoc.Document, tk *taskdoc.Task, _ *claims.File) (*taskdoc.Document, error) {
		if tk.Status.Final() {
			return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: t.Path, Slug: t.Slug,
				Msg: fmt.Sprintf("task %q in %s is %s: it needs no approach", t.Slug, t.Path, tk.Status)}
		}
		nd, tk, err := doc.SetField(t.Slug, taskdoc.KeyApproach, line)
		if err != nil {
			return nil, err
		}
		if tk.Status == taskdoc.StatusPending {
			if nd, tk, err = t.Flow().UpdateStatus(nd, t.Slug, taskdoc.StatusPlanning, ""); err != nil {
				return nil, err
			}
		}
		out = *tk
		return nd, nil
	}
	if _, err := claims.Make(ctx, p.ws, ch); err != nil {
		return taskdoc.Task{}, err
	}
	return out, nil
}

// AddEntry records e in the journal of task (the agent protocol's
// checkpoint_add; see journal.Journal.Add), as c: a fenced claimant's
// entry is written only under its current claim (STALE_CLAIM otherwise,
// nothing written; see journal.Journal.AddClaimed), and names it as
// the entry's agent. Appending never rewrites the plan document.
func (p *Plans) AddEntry(ctx context.Context, task string, c Claimant, e journal.Entry) (journal.Entry, error) {
	if err := c.check(); err != nil {
		return journal.Entry{}, err
	}
	if c.Override != "" {
		return journal.Entry{}, invalid(fmt.Sprintf("a journal entry of %s is the record of the agent holding it: it takes no override", task))
	}
	if !c.fenced() {
		return p.journal.Add(ctx, task, e)
	}
	return p.journal.AddClaimed(ctx, task, e, c.Agent, c.Token)
}
