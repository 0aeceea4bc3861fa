package coordinator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/taskmd/taskmd/archive"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// StartOptions tunes Start.
type StartOptions struct {
	// FullContext asks for Main-Workflow again, as after a context
	// compression. Without it Main-Workflow comes only with the list's first
	// start.
	FullContext bool
}

// CompleteOptions tunes Complete.
type CompleteOptions struct {
	// IncludeFullWorkflow loads the next task's Workflow and references, as
	// Start does. Without it Next carries the task only.
	IncludeFullWorkflow bool
}

// Started is the task to work on, with what it needs.
type Started struct {
	Task         taskdoc.Task
	MainWorkflow *workspace.Workflow // on the list's first start, or with FullContext
	Workflow     *workspace.Workflow // the task's Workflow field; nil when it has none
	References   []workspace.LoadedDocument
	// Missing names the workflows and references (as written) that do not
	// exist. They do not stop the start.
	Missing []string
}

// Completed reports a completed task and what comes next.
type Completed struct {
	Task taskdoc.Task // as it is after completion
	Note string       // as stored: folded onto one line
	Date string       // YYYY-MM-DD, UTC
	// Next is the next task, already in progress; nil when the list was
	// archived or when only blocked tasks are left (see Blocked).
	Next *Started
	// ArchivedTo is the root-relative name of the archived list
	// ("archived/coordinator/active-2026-11-22-093000.md") when this
	// completion finished the list; "" otherwise.
	ArchivedTo string
	// Blocked lists the slugs of the tasks left when none of them can be
	// started (Next is nil and the list is not archived).
	Blocked []string
}

// Start returns the task to work on: the one in progress, else the first
// pending task, which it marks in_progress. Blocked tasks are skipped; when
// no task can be started it is NO_AVAILABLE_TASKS naming the blocked ones.
// Starting again returns the same in-progress task, which is how a caller
// resumes after losing its context.
//
// Main-Workflow (read from the first task's Main-Workflow field) comes with
// the list's first start, judged from the file: no task was in progress or
// completed before this call. It comes again whenever opt.FullContext is
// set. The task's Workflow and its references (depth-limited) always come;
// missing ones are listed in Missing.
func (c *List) Start(ctx context.Context, opt StartOptions) (*Started, error) {
	var (
		task      taskdoc.Task
		mainName  string
		firstTime bool
	)
	err := c.withList(ctx, func(s *state) error {
		if s.doc == nil {
			return noneAvailable(nil)
		}
		firstTime = firstStart(s.doc)
		mainName = mainWorkflowName(s.doc)
		t, src, err := startNext(s.source, s.doc)
		if err != nil {
			return err
		}
		task = t
		return s.write(src)
	})
	if err != nil {
		return nil, err
	}
	if !firstTime && !opt.FullContext {
		mainName = ""
	}
	return c.load(ctx, task, mainName, true)
}

// Complete completes the current task with note (required: NOTE_REQUIRED
// otherwise) and returns the next one, marked in_progress like Start would
// leave it but without Main-Workflow. The current task is the one in
// progress; when none is, it is the task Start would return, so a caller
// that skipped Start loses nothing. When every task is then completed, the
// list is archived in the same critical section and ArchivedTo names the
// archive; the next Create starts a fresh list.
func (c *List) Complete(ctx context.Context, note string, opt CompleteOptions) (*Completed, error) {
	if strings.TrimSpace(note) == "" {
		return nil, &taskdoc.Error{Code: taskdoc.CodeNoteRequired, Path: Address, Msg: "completing a task of " + Address + " needs a note"}
	}
	now := c.now().UTC()
	var (
		res  Completed
		next *taskdoc.Task
	)
	err := c.withList(ctx, func(s *state) error {
		if s.doc == nil {
			return noneAvailable(nil)
		}
		current, err := pick(s.doc)
		if err != nil {
			return err
		}
		src, err := s.doc.Complete(current.Slug, note, now)
		if err != nil {
			return inList(err)
		}
		if onlyOneLeft(s.doc, current) {
			return c.completeLast(ctx, s, &res, src, current.Slug, note, now)
		}
		doc, err := parse(src)
		if err != nil {
			return err
		}
		done, err := doc.Task(current.Slug)
		if err != nil {
			return inList(err)
		}
		res.record(done, note, now)
		t, src, err := startNext(src, doc)
		switch {
		case errors.Is(err, taskdoc.ErrNoAvailableTasks):
			res.Blocked = waitingSlugs(doc)
		case err != nil:
			return err
		default:
			next = &t
		}
		return s.write(src)
	})
	if err != nil {
		return nil, err
	}
	if next != nil {
		if res.Next, err = c.load(ctx, *next, "", opt.IncludeFullWorkflow); err != nil {
			return nil, err
		}
	}
	return &res, nil
}

// completeLast writes the list with its last task completed (src) and
// archives it in the same critical section. The completed task is read back
// from src without parsing the whole list again.
func (c *List) completeLast(ctx context.Context, s *state, res *Completed, src []byte, slug, note string, now time.Time) error {
	done, err := s.doc.TaskAfter(src, slug)
	if err != nil {
		return inList(err)
	}
	res.record(done, note, now)
	if err := s.write(src); err != nil {
		return err
	}
	res.ArchivedTo, err = archive.CoordinatorLocked(ctx, c.ws, s.tx, src, now)
	return err
}

// onlyOneLeft reports whether completing current finishes the list: every
// other task is completed already.
func onlyOneLeft(doc *taskdoc.Document, current *taskdoc.Task) bool {
	for i := range doc.Tasks {
		if &doc.Tasks[i] != current && doc.Tasks[i].Status != taskdoc.StatusCompleted {
			return false
		}
	}
	return true
}

// record fills the completed task, its note and its date as the file has
// them.
func (r *Completed) record(t *taskdoc.Task, note string, now time.Time) {
	r.Task, r.Note, r.Date = *t, note, now.Format("2006-01-02")
	if v, ok := t.Field("Note"); ok {
		r.Note = v
	}
	if v, ok := t.Field("Completed"); ok {
		r.Date = v
	}
}

// startNext picks the task to work on and marks it in_progress when it is
// pending. It returns the task and the (possibly unchanged) list; the task
// is read back from the edited list without parsing all of it.
func startNext(src []byte, doc *taskdoc.Document) (taskdoc.Task, []byte, error) {
	t, err := pick(doc)
	if err != nil {
		return taskdoc.Task{}, src, err
	}
	if t.Status == taskdoc.StatusInProgress {
		return *t, src, nil
	}
	out, err := doc.SetStatus(t.Slug, taskdoc.StatusInProgress)
	if err != nil {
		return taskdoc.Task{}, src, inList(err)
	}
	started, err := doc.TaskAfter(out, t.Slug)
	if err != nil {
		return taskdoc.Task{}, src, inList(err)
	}
	return *started, out, nil
}

// pick returns the task in progress, else the first pending task.
func pick(doc *taskdoc.Document) (*taskdoc.Task, error) {
	for i := range doc.Tasks {
		if doc.Tasks[i].Status == taskdoc.StatusInProgress {
			return &doc.Tasks[i], nil
		}
	}
	for i := range doc.Tasks {
		if doc.Tasks[i].Status == taskdoc.StatusPending {
			return &doc.Tasks[i], nil
		}
	}
	return nil, noneAvailable(doc)
}

// waitingSlugs lists the tasks that are neither completed nor startable
// (blocked, or a status this package does not start).
func waitingSlugs(doc *taskdoc.Document) []string {
	var slugs []string
	for _, t := range doc.Tasks {
		switch t.Status {
		case taskdoc.StatusCompleted, taskdoc.StatusPending, taskdoc.StatusInProgress:
		default:
			slugs = append(slugs, t.Slug)
		}
	}
	return slugs
}

// noneAvailable is NO_AVAILABLE_TASKS, naming the blocked tasks of doc.
func noneAvailable(doc *taskdoc.Document) error {
	e := &taskdoc.Error{Code: taskdoc.CodeNoAvailableTasks, Path: Address}
	switch {
	case doc == nil:
		e.Msg = "no coordinator task to work on: there is no list (" + Address + "); create tasks first"
	case len(waitingSlugs(doc)) > 0:
		e.Available = waitingSlugs(doc)
		var names []string
		for _, t := range doc.Tasks {
			if t.Status != taskdoc.StatusCompleted && t.Status != taskdoc.StatusPending && t.Status != taskdoc.StatusInProgress {
				names = append(names, fmt.Sprintf("%q (%s)", t.Slug, t.Status))
			}
		}
		e.Msg = "no coordinator task to work on in " + Address + ": every remaining task is blocked: " + strings.Join(names, ", ")
	default:
		e.Msg = "no coordinator task to work on in " + Address + ": the list has no tasks"
	}
	return e
}

// firstStart reports whether no task of the list was ever started: none is
// in progress or completed.
func firstStart(doc *taskdoc.Document) bool {
	for _, t := range doc.Tasks {
		if t.Status == taskdoc.StatusInProgress || t.Status == taskdoc.StatusCompleted {
			return false
		}
	}
	return true
}

// mainWorkflowName is the first task's Main-Workflow, or "".
func mainWorkflowName(doc *taskdoc.Document) string {
	if len(doc.Tasks) == 0 {
		return ""
	}
	v, _ := doc.Tasks[0].Field(MainWorkflowField)
	return strings.TrimSpace(v)
}

// load reads what a started task needs, outside the list's lock: the
// workflows and references are other files and the task is already marked.
// mainName is the Main-Workflow to load, "" for none; full loads the task's
// Workflow and references.
func (c *List) load(ctx context.Context, task taskdoc.Task, mainName string, full bool) (*Started, error) {
	st := &Started{Task: task}
	var err error
	if mainName != "" {
		if st.MainWorkflow, err = c.workflow(ctx, mainName, st); err != nil {
			return nil, err
		}
	}
	if !full {
		return st, nil
	}
	if name, ok := task.Field(WorkflowField); ok && strings.TrimSpace(name) != "" {
		if st.Workflow, err = c.workflow(ctx, strings.TrimSpace(name), st); err != nil {
			return nil, err
		}
	}
	if c.depth > 0 && len(task.References) > 0 {
		docs, missing, err := c.ws.LoadReferences(ctx, task.References, c.depth)
		if err != nil {
			return nil, err
		}
		st.References = docs
		st.Missing = append(st.Missing, missing...)
	}
	return st, nil
}

// workflow loads a workflow by name; a missing one (or a name that cannot
// name a workflow file) is added to st.Missing instead of failing the start.
func (c *List) workflow(ctx context.Context, name string, st *Started) (*workspace.Workflow, error) {
	wf, err := c.ws.LoadWorkflow(ctx, name)
	switch taskdoc.CodeOf(err) {
	case "":
		if err != nil {
			return nil, err
		}
		return &wf, nil
	case taskdoc.CodeDocumentNotFound, taskdoc.CodeInvalidAddress, taskdoc.CodeOutsideRoot, taskdoc.CodeSymlink:
		st.Missing = append(st.Missing, name)
		return nil, nil
	default:
		return nil, err
	}
}

// state is the list inside one critical section.
type state struct {
	tx     *workspace.Tx
	source []byte            // the file's bytes; nil when there is no list
	doc    *taskdoc.Document // parsed source; nil when there is no list
}

// write replaces the list with src unless it is unchanged. It ends the
// critical section's changes: s.doc no longer describes the file.
func (s *state) write(src []byte) error {
	if s.source != nil && bytes.Equal(src, s.source) {
		return nil
	}
	if err := s.tx.Write(archive.ActiveList, src); err != nil {
		return err
	}
	s.source, s.doc = src, nil
	return nil
}

// withList runs fn holding the list's lock, with the list read and parsed.
// It first finishes an archive that a crash interrupted (a list whose tasks
// are all completed is archived, see archive.Recover); fn then sees no list.
func (c *List) withList(ctx context.Context, fn func(s *state) error) error {
	return c.ws.Lock(ctx, []string{archive.ActiveList}, func(tx *workspace.Tx) error {
		s := &state{tx: tx}
		data, _, err := tx.Read(archive.ActiveList)
		if isNotExist(err) {
			return fn(s)
		}
		if err != nil {
			return err
		}
		doc, err := parse(data)
		if err != nil {
			return err
		}
		if archive.Finished(doc) {
			if _, err := archive.CoordinatorLocked(ctx, c.ws, tx, data, c.now()); err != nil {
				return err
			}
			return fn(s)
		}
		s.source, s.doc = data, doc
		return fn(s)
	})
}
