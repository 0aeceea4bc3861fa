package subagent

import (
	"context"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

// Started is what a subagent needs to work on a task: the task itself, the
// text of its Workflow and the documents it references. It never carries a
// Main-Workflow, even when the task has that field: orchestration belongs to
// the coordinator.
type Started struct {
	Document string       `json:"document"` // "/api/auth.md"
	Task     taskdoc.Task `json:"task"`     // as it is in the file, in progress
	// Workflow is the task's Workflow, nil when it has none or when the
	// workflow file does not exist (then Missing names it).
	Workflow *taskcontext.Workflow `json:"workflow,omitempty"`
	// References are the documents and sections the task references, each
	// with the ones it references in turn, down to the reference depth.
	References []taskcontext.LoadedDocument `json:"referenced_documents,omitempty"`
	// Missing lists, by name, the workflow and by raw text ("@/x.md#y") the
	// references that do not exist. They do not make Start fail: the task
	// can still be worked on, and the caller can tell its user.
	Missing []string `json:"missing,omitempty"`
}

// Completed confirms a completion. It names no next task: subagent tasks
// are taken ad hoc, and choosing the next one is the caller's business.
type Completed struct {
	Document string       `json:"document"`       // "/api/auth.md"
	Task     taskdoc.Task `json:"task"`           // as it is after completion
	Note     string       `json:"note"`           // as recorded
	Date     string       `json:"completed_date"` // YYYY-MM-DD, UTC
	// Replayed is set when the task was completed already with this note:
	// the call is a retry of the one that completed it (its answer was
	// lost), and this is that call's result. Nothing was written.
	Replayed bool `json:"replayed,omitempty"`
}

// Start marks the task at address ("/api/auth.md#implement-jwt-signing") in
// progress and returns it with its Workflow and references. Starting a task
// that is in progress already is allowed and changes nothing (a subagent
// resuming after its context was lost); a blocked, failed or final task is
// INVALID_TRANSITION, and a task whose dependencies (its Depends-On) are
// not all completed or skipped is TASK_BLOCKED naming them (a person
// overrides it with WithOverride, recorded in the task's Forced field).
//
// The workflow and the references are loaded before the document is
// locked, from an unlocked read of it, and checked again under the lock
// (see package taskcontext for what is missing and what is an error). A
// failure to load them (a reference that is a symbolic link, say) leaves
// the task as it was.
func (s *Tasks) Start(ctx context.Context, address string) (*Started, error) {
	t, err := taskTarget(address)
	if err != nil {
		return nil, err
	}
	// A document that cannot be read or parsed now is read again under the
	// lock, which reports why; only context loading needs the snapshot.
	snap, _ := s.snapshot(ctx, t)
	var pre *taskflow.Preloaded
	if task, err := snap.Task(t.Slug); err == nil && taskflow.Startable(task) {
		if pre, err = taskflow.Preload(ctx, s.ws, s.request(task)); err != nil {
			return nil, taskflow.At(err, t.Path, t.Slug)
		}
	}
	started := &Started{Document: t.Path}
	c := s.change(ctx, t)
	c.Read, c.Move, c.To = snap, taskflow.MoveStart, taskdoc.StatusInProgress
	c.Apply = func(doc *taskdoc.Document, _ *taskdoc.Task, _ *claims.File) (*taskdoc.Document, error) {
		nd, task, err := t.Flow().Start(doc, t.Slug)
		if err != nil {
			return nil, err
		}
		loaded, err := pre.Context(ctx, s.ws, s.request(task))
		if err != nil {
			return nil, err
		}
		started.Task = *task
		started.Workflow, started.References, started.Missing = loaded.Workflow, loaded.References, loaded.Missing
		return nd, nil
	}
	if _, err := claims.Make(ctx, s.ws, c); err != nil {
		return nil, err
	}
	return started, nil
}

// request is what Start loads for task: its Workflow and references, never
// a Main-Workflow.
func (s *Tasks) request(task *taskdoc.Task) taskcontext.Request {
	return taskcontext.Request{Task: task, Depth: s.cfg.Depth}
}

// Complete marks the task at address completed, recording the date (UTC,
// from the clock) and note in its metadata, and returns the confirmation.
// The note is required: empty or only white space is NOTE_REQUIRED. A task
// that is completed already is INVALID_TRANSITION: it keeps its first note.
// A pending, in-progress or blocked task can be completed, once its
// dependencies are done (TASK_BLOCKED otherwise).
//
// Complete is safe to retry: when the task is completed already with the
// same note (as recorded, on one line), the call is taken for a retry of
// the one that completed it, and its result comes back with Replayed set;
// nothing is written.
func (s *Tasks) Complete(ctx context.Context, address, note string) (*Completed, error) {
	t, err := taskTarget(address)
	if err != nil {
		return nil, err
	}
	if err := t.Flow().CheckNote(note, t.Slug); err != nil {
		return nil, err
	}
	date := s.cfg.Today()
	done := &Completed{Document: t.Path}
	c := s.change(ctx, t)
	c.Move, c.To, c.Note = taskflow.MoveComplete, taskdoc.StatusCompleted, note
	c.Apply = func(doc *taskdoc.Document, _ *taskdoc.Task, _ *claims.File) (*taskdoc.Document, error) {
		nd, task, err := t.Flow().Complete(doc, t.Slug, note, date)
		if err != nil {
			return nil, err
		}
		done.Task = *task
		return nd, nil
	}
	made, err := claims.Make(ctx, s.ws, c)
	if err != nil {
		return nil, err
	}
	if made.Replayed {
		done.Task, done.Replayed = *made.Task, true
	}
	done.Note, done.Date = taskflow.CompletedFields(&done.Task, note, date)
	return done, nil
}
