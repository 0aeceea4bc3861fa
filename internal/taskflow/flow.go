package taskflow

import (
	"fmt"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
)

// Flow applies the task rules to the documents of one address. Its
// methods take a parsed document and return the edited one, without I/O.
type Flow struct {
	Path string // the address errors name: "/api/auth.md", "/coordinator/active.md"
	File string // the file it names, root-relative: "docs/api/auth.md"
}

// Create adds tasks to doc in one batch and reads them back as written: a
// Status that is not a known status is UNKNOWN_STATUS, and a task cannot
// be created completed (INVALID_TASK), since completing is what records
// the note. Depends-On fields are checked (see CheckDependencies). No tasks
// is INVALID_TASK.
func (f Flow) Create(doc *taskdoc.Document, tasks []taskdoc.NewTask) (*taskdoc.Document, []*taskdoc.Task, error) {
	if err := f.CheckCreate(tasks); err != nil {
		return nil, nil, err
	}
	nd, added, err := doc.AddTasks(tasks)
	if err != nil {
		return nil, nil, f.At(err, "")
	}
	for _, t := range added {
		if err := f.knownStatus(t); err != nil {
			return nil, nil, err
		}
		if t.Status == taskdoc.StatusCompleted {
			return nil, nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: f.Path, Slug: t.Slug,
				Msg: fmt.Sprintf("task %q in %s cannot be created completed: create it pending, then complete it with a note", t.Slug, f.Path)}
		}
	}
	if err := f.CheckDependencies(nd, added); err != nil {
		return nil, nil, err
	}
	return nd, added, nil
}

// Edit changes a task's title and/or content. The Status it leaves must be
// a move an edit may make: an edit cannot complete a task
// (INVALID_TRANSITION), Complete does, with a note; and an edit of a
// completed task that would take it out of completed or change its
// Completed or Note is INVALID_TRANSITION unless e.Reopen asks for it, so a
// writer holding content read before the completion cannot undo it. With
// e.IfVersion, a task that changed since the caller read it is CONFLICT.
// An empty edit is INVALID_TASK.
func (f Flow) Edit(doc *taskdoc.Document, slug string, e taskdoc.Edit) (*taskdoc.Document, *taskdoc.Task, error) {
	if err := f.CheckEdit(slug, e); err != nil {
		return nil, nil, err
	}
	before, err := doc.Task(slug)
	if err != nil {
		return nil, nil, f.At(err, slug)
	}
	if err := before.CheckVersion(f.Path, e.IfVersion); err != nil {
		return nil, nil, err
	}
	nd, after, err := doc.EditTask(slug, e)
	if err != nil {
		return nil, nil, f.At(err, slug)
	}
	if err := f.knownStatus(after); err != nil {
		return nil, nil, err
	}
	move, from := MoveEdit, editedFrom(before.Status)
	if from.Final() && e.Reopen {
		move = MoveReopen
	}
	kept := move != MoveEdit || from != taskdoc.StatusCompleted || sameOutcome(before, after)
	if CheckMove(move, from, after.Status) != nil || !kept {
		var why string
		switch {
		case from.Final() && move == MoveEdit:
			why = fmt.Sprintf("is %s: an edit cannot reopen it or change its Completed, Note or Request unless it asks to (Reopen)", from)
		case after.Status == taskdoc.StatusFailed:
			why = "cannot fail by an edit: report the failure with its error text (a status update to failed)"
		default:
			why = "cannot be completed by an edit: complete it with a note instead"
		}
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s %s", slug, f.Path, why)}
	}
	if err := f.CheckDependencies(nd, []*taskdoc.Task{after}); err != nil {
		return nil, nil, err
	}
	if after.Slug != slug {
		if err := f.checkNotDependedOn(nd, slug, after.Slug); err != nil {
			return nil, nil, err
		}
	}
	return nd, after, nil
}

// UpdateStatus moves a task to status to, as an agent reports where its
// task stands (the agent protocol's task_update_status): planning, in_progress,
// paused, blocked (text, when given, is why: its Blocked field), skipped,
// pending, or failed with an error text (text, recorded in the task's
// Error field; required). A task leaving blocked or failed loses the
// reason it had there, as SetStatus's. Completed is Complete's,
// with a note. A move the status machine does not list is
// INVALID_TRANSITION naming from and to. A move to the status the task has
// already is a retry: the task is returned and nothing changes (a blocked
// or failed task given another text records it). Text with another
// status is not kept.
func (f Flow) UpdateStatus(doc *taskdoc.Document, slug string, to taskdoc.Status, text string) (*taskdoc.Document, *taskdoc.Task, error) {
	status, task, err := f.statusTarget(doc, slug, to)
	if err != nil {
		return nil, nil, err
	}
	text = plaintext.FoldLine(text)
	if status == task.Status {
		if status == taskdoc.StatusBlocked {
			return f.keepStatus(doc, task, text)
		}
		// A retry of the update that made it: answered, nothing written. A
		// failed task failing again with another text records that text.
		if v, _ := task.Field(taskdoc.KeyError); status != taskdoc.StatusFailed || v == text {
			return doc, task, nil
		}
	}
	if err := CheckMove(MoveUpdate, task.Status, status); err != nil && !(status == task.Status && status == taskdoc.StatusFailed) {
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s cannot move from %s to %s", slug, f.Path, task.Status, status)}
	}
	if status == taskdoc.StatusFailed && text == "" {
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeNoteRequired, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("failing task %q in %s needs an error text saying what went wrong", slug, f.Path)}
	}
	if status != task.Status {
		if doc, err = f.dropFields(doc, slug, leaving(task.Status)); err != nil {
			return nil, nil, err
		}
	}
	if text != "" && (status == taskdoc.StatusFailed || status == taskdoc.StatusBlocked) {
		key := taskdoc.KeyError
		if status == taskdoc.StatusBlocked {
			key = taskdoc.KeyBlocked
		}
		if doc, _, err = doc.SetField(slug, key, text); err != nil {
			return nil, nil, f.At(err, slug)
		}
	}
	nd, updated, err := doc.SetStatus(slug, status)
	if err != nil {
		return nil, nil, f.At(err, slug)
	}
	return nd, updated, nil
}

// sameOutcome reports whether after keeps the Completed, Note and Request
// fields before has: what a completion recorded, and what answers its
// retry.
func sameOutcome(before, after *taskdoc.Task) bool {
	for _, key := range []string{taskdoc.KeyCompleted, taskdoc.KeyNote, taskdoc.KeyRequest} {
		b, _ := before.Field(key)
		a, _ := after.Field(key)
		if a != b {
			return false
		}
	}
	return true
}

// editedFrom is the status an edit moves from. A status the machine does
// not know (written by hand) reads as pending, so that an edit can repair
// it.
func editedFrom(s taskdoc.Status) taskdoc.Status {
	if _, err := taskdoc.ParseStatus(string(s)); err != nil {
		return taskdoc.StatusPending
	}
	return s
}

// Start marks the task slug in progress. A task in progress already is
// returned as it is (a worker resuming after losing its context); a task
// the start move cannot leave (completed, blocked) is INVALID_TRANSITION.
func (f Flow) Start(doc *taskdoc.Document, slug string) (*taskdoc.Document, *taskdoc.Task, error) {
	task, err := f.task(doc, slug)
	if err != nil {
		return nil, nil, err
	}
	to, ok := MoveTarget(MoveStart, task.Status)
	if !ok {
		return nil, nil, f.notStartable(task)
	}
	if to == task.Status {
		return doc, task, nil
	}
	nd, started, err := doc.SetStatus(slug, to)
	if err != nil {
		return nil, nil, f.At(err, slug)
	}
	return nd, started, nil
}

// Startable reports whether Start may take task: pending, planning,
// paused, or in progress already (a resume).
func Startable(task *taskdoc.Task) bool {
	_, ok := MoveTarget(MoveStart, task.Status)
	return ok
}

func (f Flow) notStartable(task *taskdoc.Task) error {
	why := "it is completed"
	switch task.Status {
	case taskdoc.StatusCompleted:
	case taskdoc.StatusBlocked:
		why = "it is blocked; set its Status to pending with Edit once it can go on"
	default:
		why = fmt.Sprintf("its status is %s", task.Status)
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: f.Path, Slug: task.Slug,
		Msg: fmt.Sprintf("task %q in %s cannot be started: %s", task.Slug, f.Path, why)}
}

// CheckNote refuses an empty note (NOTE_REQUIRED) before any file is read;
// slug is "" when the task is not known yet. It is the one check of the
// note: every face calls it before its lock, and Complete does not again.
func (f Flow) CheckNote(note, slug string) error {
	if plaintext.FoldLine(note) != "" { // as the note is recorded
		return nil
	}
	what := fmt.Sprintf("task %q in %s", slug, f.Path)
	if slug == "" {
		what = "a task of " + f.Path
	}
	return &taskdoc.Error{Code: taskdoc.CodeNoteRequired, Path: f.Path, Slug: slug,
		Msg: fmt.Sprintf("completing %s needs a note saying what was done", what)}
}

// Complete marks the task completed with the date (in UTC) and the note,
// which the caller checked (CheckNote) before taking its lock; a blocked
// or failed task loses its Blocked or Error field. A completed task is
// INVALID_TRANSITION: it keeps its first note (see Replays for a retry of
// the call that completed it).
func (f Flow) Complete(doc *taskdoc.Document, slug, note string, date time.Time) (*taskdoc.Document, *taskdoc.Task, error) {
	task, err := f.task(doc, slug)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := MoveTarget(MoveComplete, task.Status); !ok {
		when := ""
		if d, ok := task.Field(taskdoc.KeyCompleted); ok {
			when = " on " + d
		}
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s was completed%s already; it keeps its first note", slug, f.Path, when)}
	}
	if doc, err = f.dropFields(doc, slug, leaving(task.Status)); err != nil {
		return nil, nil, err
	}
	nd, done, err := doc.Complete(slug, strings.TrimSpace(note), date.UTC())
	if err != nil {
		return nil, nil, f.At(err, slug)
	}
	return nd, done, nil
}

// task finds slug and refuses a Status value that is not a known status:
// the parser reads it leniently, but a write must not act on a value the
// status machine cannot reason about.
func (f Flow) task(doc *taskdoc.Document, slug string) (*taskdoc.Task, error) {
	task, err := doc.Task(slug)
	if err != nil {
		return nil, f.At(err, slug)
	}
	return task, f.knownStatus(task)
}

func (f Flow) knownStatus(task *taskdoc.Task) error {
	v, ok := task.Field(taskdoc.KeyStatus)
	if !ok || strings.TrimSpace(v) == "" {
		return nil // no value reads as pending, as the parser reads it
	}
	if _, err := taskdoc.ParseStatus(v); err != nil {
		return f.At(err, task.Slug)
	}
	return nil
}

// CheckCreate refuses a create that has no tasks (INVALID_TASK), before
// any file is read.
func (f Flow) CheckCreate(tasks []taskdoc.NewTask) error {
	if len(tasks) == 0 {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: f.Path,
			Msg: fmt.Sprintf("no tasks to create in %s", f.Path)}
	}
	return nil
}

// CheckEdit refuses an edit that changes nothing (INVALID_TASK), before
// any file is read.
func (f Flow) CheckEdit(slug string, e taskdoc.Edit) error {
	if e.Title == "" && e.Content == "" {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("edit of task %q in %s changes nothing: give a title, content or both", slug, f.Path)}
	}
	return nil
}

// Filter returns the tasks with one of the statuses of want (StatusSet; nil
// keeps every task), as a non-nil slice.
func Filter(tasks []taskdoc.Task, want map[taskdoc.Status]bool) []taskdoc.Task {
	out := make([]taskdoc.Task, 0, len(tasks))
	for _, t := range tasks {
		if want == nil || want[t.Status] {
			out = append(out, t)
		}
	}
	return out
}

// StatusSet reads a status filter; nil means every status. Statuses are
// read with taskdoc.ParseStatus (" In_Progress " is in_progress); an
// unknown one is UNKNOWN_STATUS. Call it before any file is read, so that a
// bad filter fails fast.
func (f Flow) StatusSet(statuses []taskdoc.Status) (map[taskdoc.Status]bool, error) {
	if len(statuses) == 0 {
		return nil, nil
	}
	want := make(map[taskdoc.Status]bool, len(statuses))
	for _, st := range statuses {
		parsed, err := taskdoc.ParseStatus(string(st))
		if err != nil {
			return nil, f.At(err, "")
		}
		want[parsed] = true
	}
	return want, nil
}

// CompletedFields returns the note and date recorded on a completed task,
// falling back to what was asked when the fields are absent.
func CompletedFields(t *taskdoc.Task, note string, date time.Time) (string, string) {
	day := date.UTC().Format(time.DateOnly)
	if v, ok := t.Field(taskdoc.KeyNote); ok {
		note = v
	}
	if v, ok := t.Field(taskdoc.KeyCompleted); ok {
		day = v
	}
	return note, day
}
