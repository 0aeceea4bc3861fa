package subagent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Started is what a subagent needs to work on a task: the task itself, the
// text of its Workflow and the documents it references. It never carries a
// Main-Workflow, even when the task has that field: orchestration belongs to
// the coordinator.
type Started struct {
	Document string       // "/api/auth.md"
	Task     taskdoc.Task // as it is in the file, in progress
	// Workflow is the task's Workflow, nil when it has none or when the
	// workflow file does not exist (then Missing names it).
	Workflow *workspace.Workflow
	// References are the documents and sections the task references, each
	// with the ones it references in turn, down to the reference depth.
	References []workspace.LoadedDocument
	// Missing lists, by name, the workflow and by raw text ("@/x.md#y") the
	// references that do not exist. They do not make Start fail: the task
	// can still be worked on, and the caller can tell its user.
	Missing []string
}

// Completed confirms a completion. It names no next task: subagent tasks
// are taken ad hoc, and choosing the next one is the caller's business.
type Completed struct {
	Document string       // "/api/auth.md"
	Task     taskdoc.Task // as it is after completion
	Note     string       // as recorded
	Date     string       // YYYY-MM-DD, UTC
}

// Start marks the task at address ("/api/auth.md#implement-jwt-signing") in
// progress and returns it with its Workflow and references. Starting a task
// that is in progress already is allowed and changes nothing (a subagent
// resuming after its context was lost); a completed or blocked task is
// INVALID_TRANSITION.
//
// The workflow and the references are read while the document is locked
// and before it is written, so a failure to load them (a reference that is
// a symbolic link, say) leaves the task as it was.
func (s *Tasks) Start(ctx context.Context, address string) (*Started, error) {
	t, err := taskTarget(address)
	if err != nil {
		return nil, err
	}
	started := &Started{Document: t.path}
	_, err = s.ws.Update(ctx, t.name, func(current []byte, exists bool) ([]byte, error) {
		doc, task, err := parseTask(t, current, exists, t.slug)
		if err != nil {
			return nil, err
		}
		if err := checkStatus(task); err != nil {
			return nil, err
		}
		src := current
		switch task.Status {
		case taskdoc.StatusInProgress:
		case taskdoc.StatusPending:
			if src, err = doc.SetStatus(t.slug, taskdoc.StatusInProgress); err != nil {
				return nil, err
			}
			if task, err = doc.TaskAfter(src, task.Slug); err != nil {
				return nil, err
			}
		default:
			return nil, notStartable(t, task)
		}
		started.Task = *task
		return src, s.loadContext(ctx, started)
	})
	if err != nil {
		return nil, at(err, t.path, t.slug)
	}
	return started, nil
}

func notStartable(t target, task *taskdoc.Task) error {
	why := "it is completed"
	if task.Status == taskdoc.StatusBlocked {
		why = "it is blocked; set its Status to pending with Edit once it can go on"
	} else if task.Status != taskdoc.StatusCompleted {
		why = fmt.Sprintf("its status is %s", task.Status)
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidTransition,
		Msg: fmt.Sprintf("task %q in %s cannot be started: %s", t.slug, t.path, why)}
}

// loadContext fills in the task's Workflow and references.
func (s *Tasks) loadContext(ctx context.Context, st *Started) error {
	if name, ok := st.Task.Field(WorkflowField); ok && strings.TrimSpace(name) != "" {
		name = strings.TrimSpace(name)
		wf, err := s.ws.LoadWorkflow(ctx, name)
		switch code := taskdoc.CodeOf(err); {
		case err == nil:
			st.Workflow = &wf
		case code == taskdoc.CodeDocumentNotFound || code == taskdoc.CodeInvalidAddress:
			// A name that cannot be a workflow file names no workflow
			// either: both are a field a person has to correct.
			st.Missing = append(st.Missing, name)
		default:
			return err
		}
	}
	docs, missing, err := s.ws.LoadReferences(ctx, st.Task.References, s.depth)
	if err != nil {
		return err
	}
	st.References = docs
	st.Missing = append(st.Missing, missing...)
	return nil
}

// Complete marks the task at address completed, recording the date (UTC,
// from the clock) and note in its metadata, and returns the confirmation.
// The note is required: empty or only white space is NOTE_REQUIRED. A task
// that is completed already is INVALID_TRANSITION: it keeps its first note.
// A pending, in-progress or blocked task can be completed.
func (s *Tasks) Complete(ctx context.Context, address, note string) (*Completed, error) {
	t, err := taskTarget(address)
	if err != nil {
		return nil, err
	}
	note = strings.TrimSpace(note)
	if note == "" {
		return nil, &taskdoc.Error{Code: taskdoc.CodeNoteRequired, Path: t.path, Slug: t.slug,
			Msg: fmt.Sprintf("completing task %q in %s needs a note saying what was done", t.slug, t.path)}
	}
	date := s.now().UTC()
	done := &Completed{Document: t.path, Note: note, Date: date.Format(time.DateOnly)}
	_, err = s.ws.Update(ctx, t.name, func(current []byte, exists bool) ([]byte, error) {
		doc, task, err := parseTask(t, current, exists, t.slug)
		if err != nil {
			return nil, err
		}
		if err := checkStatus(task); err != nil {
			return nil, err
		}
		if task.Status == taskdoc.StatusCompleted {
			return nil, alreadyCompleted(t, task)
		}
		src, err := doc.Complete(t.slug, note, date)
		if err != nil {
			return nil, err
		}
		if task, err = doc.TaskAfter(src, task.Slug); err != nil {
			return nil, err
		}
		done.Task = *task
		if v, ok := task.Field("Note"); ok {
			done.Note = v
		}
		return src, nil
	})
	if err != nil {
		return nil, at(err, t.path, t.slug)
	}
	return done, nil
}

func alreadyCompleted(t target, task *taskdoc.Task) error {
	when := ""
	if d, ok := task.Field("Completed"); ok {
		when = " on " + d
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidTransition,
		Msg: fmt.Sprintf("task %q in %s was completed%s already; it keeps its first note", t.slug, t.path, when)}
}
