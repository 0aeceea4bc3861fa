package taskflow

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Resolver finds the tasks that Depends-On fields name. A dependency in
// the document a call works on is found in the parse the call holds (read
// under its lock: no extra read); another document is read once per
// Resolver, without its lock, through the workspace's cache of parses. So
// what another document says is what it held at some instant during the
// call: a dependency completed meanwhile may be missed, and a refused call
// may be made again.
type Resolver struct {
	ctx  context.Context
	ws   *workspace.Workspace
	flow Flow
	docs map[string]other
}

// other is another document as a Resolver read it.
type other struct {
	doc    *taskdoc.Document // nil when it does not exist or does not read
	exists bool
}

// Resolver returns a Resolver for the tasks of f's document.
func (f Flow) Resolver(ctx context.Context, ws *workspace.Workspace) *Resolver {
	return &Resolver{ctx: ctx, ws: ws, flow: f, docs: map[string]other{}}
}

// Dependency is one entry of a task's Depends-On field, resolved.
type Dependency struct {
	Address string        // "/api/auth.md#slug"
	Task    *taskdoc.Task // nil when no task has the address, or its document does not read
	// State is the task's status, or why there is no task: "not found"
	// (its document has no task of that slug), "no document" or
	// "unreadable document".
	State string
}

// Done reports whether the dependency is completed or skipped.
func (d Dependency) Done() bool { return d.Task != nil && d.Task.Status.Final() }

// Of resolves the Depends-On field of t, a task of doc (the Resolver's
// document). A field that does not read is its error (INVALID_ADDRESS).
func (r *Resolver) Of(doc *taskdoc.Document, t *taskdoc.Task) ([]Dependency, error) {
	deps, err := t.Dependencies()
	if err != nil || len(deps) == 0 {
		return nil, r.flow.At(err, t.Slug)
	}
	out := make([]Dependency, len(deps))
	for i, d := range deps {
		out[i] = r.resolve(doc, d)
	}
	return out, nil
}

// resolve finds the task d names; doc is the Resolver's document.
func (r *Resolver) resolve(doc *taskdoc.Document, d taskdoc.Dependency) Dependency {
	path, state := r.flow.Path, "not found"
	if d.Document != "" && d.Document != r.flow.Path {
		path = d.Document
		o := r.document(path)
		switch doc = o.doc; {
		case !o.exists:
			state = "no document"
		case doc == nil:
			state = "unreadable document"
		}
	}
	out := Dependency{Address: path + "#" + d.Slug, State: state}
	if doc != nil {
		if t, err := doc.Task(d.Slug); err == nil {
			out.Task, out.State = t, string(t.Status)
		}
	}
	return out
}

// document reads the document at path ("/api/other.md") once.
func (r *Resolver) document(path string) other {
	if o, ok := r.docs[path]; ok {
		return o
	}
	var o other
	if a, err := taskdoc.ParseAddress(path); err == nil && a.Slug == "" {
		s, ok, err := ReadOne(r.ctx, r.ws, a.File())
		o = other{doc: s.Doc, exists: ok || err != nil}
	}
	r.docs[path] = o
	return o
}

// NeedsDependencies reports whether move, taking a task from status from
// to status to, waits for the task's dependencies: a move the status
// machine allows into planning, in_progress or completed, out of another
// status. A move the machine refuses is left to it, so that its error is
// the one reported; a move to the status the task has is a retry.
func NeedsDependencies(move Move, from, to taskdoc.Status) bool {
	switch to {
	case taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusCompleted:
	default:
		return false
	}
	return from != to && CheckMove(move, from, to) == nil
}

// MoveSet is the move of SetStatus (a status set by hand) for CheckReady:
// an update, or a reopen out of completed or skipped.
const MoveSet Move = "set"

// CheckReady decides whether the task slug of doc (the Resolver's
// document) may make move to status to, for its dependencies: every one
// must be done (completed or skipped). For MoveStart, to is "" (its one
// target); MoveSet is SetStatus's move. It returns doc as it is when the move needs no dependencies
// (NeedsDependencies), when they are done, or when the task records an
// override (its Forced field). Otherwise it is TASK_BLOCKED naming each
// dependency that is not done and its status (or why it has none), unless
// force is set: then it returns doc with the override recorded in the
// task's Forced field, naming the same dependencies, so that people see
// the task was taken up out of order and later moves of it pass.
//
// A task that does not exist or whose status is not known is left to the
// move, which reports it. A Depends-On field that does not read is its
// INVALID_ADDRESS error, unless force is set.
func (r *Resolver) CheckReady(doc *taskdoc.Document, slug string, move Move, to taskdoc.Status, force bool) (*taskdoc.Document, error) {
	task, err := doc.Task(slug)
	if err != nil || r.flow.knownStatus(task) != nil {
		return doc, nil
	}
	switch move {
	case MoveStart:
		to, _ = MoveTarget(move, task.Status)
	case MoveSet:
		move = setMove(task.Status)
	}
	if to, err = taskdoc.ParseStatus(string(to)); err != nil {
		return doc, nil
	}
	if !NeedsDependencies(move, task.Status, to) {
		return doc, nil
	}
	return r.checkDone(doc, task, force)
}

// CheckWritten is CheckReady for a task that an edit or a create wrote
// into its status (task, in doc as written) from status from (pending for
// a new task): a status of work (planning, in progress) written while a
// dependency is not done is TASK_BLOCKED, unless force (a person's
// override, recorded in the Forced field).
func (r *Resolver) CheckWritten(doc *taskdoc.Document, task *taskdoc.Task, from taskdoc.Status, force bool) (*taskdoc.Document, error) {
	if task.Status == from || r.flow.knownStatus(task) != nil {
		return doc, nil
	}
	switch task.Status {
	case taskdoc.StatusPlanning, taskdoc.StatusInProgress:
		return r.checkDone(doc, task, force)
	}
	return doc, nil
}

// checkDone is the decision of CheckReady once the move needs task's
// dependencies done.
func (r *Resolver) checkDone(doc *taskdoc.Document, task *taskdoc.Task, force bool) (*taskdoc.Document, error) {
	slug := task.Slug
	if _, ok := task.Field(taskdoc.KeyForced); ok {
		return doc, nil
	}
	deps, err := r.Of(doc, task)
	if err != nil && !force {
		return nil, err
	}
	var unmet []string
	for _, d := range deps {
		if !d.Done() {
			unmet = append(unmet, d.Address+" ("+d.State+")")
		}
	}
	if err != nil {
		unmet = append(unmet, "an unreadable "+taskdoc.KeyDependsOn+" field")
	}
	if len(unmet) == 0 {
		return doc, nil
	}
	list := strings.Join(unmet, ", ")
	if !force {
		return nil, &taskdoc.Error{Code: taskdoc.CodeTaskBlocked, Path: r.flow.Path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s waits for dependencies that are not done: %s; complete or skip them first (a person may override: taskmd start --force)",
				slug, r.flow.Path, list)}
	}
	nd, _, err := doc.SetField(slug, taskdoc.KeyForced, "taken up before its dependencies were done: "+list)
	if err != nil {
		return nil, r.flow.At(err, slug)
	}
	return nd, nil
}

// CheckLinks checks the dependencies of changed, tasks of doc (the
// document a create or an edit would write, whose own dependencies
// CheckDependencies has checked), on other documents: each names a task
// that exists (TASK_NOT_FOUND naming it otherwise: its document does not
// exist, or has no task of that slug, with the slugs it has), and
// following dependencies across documents never leads back to a changed
// task (DEPENDENCY_CYCLE naming the cycle). A document that exists but
// does not read is passed over, and so is any cycle through it: its own
// calls report why it does not read.
//
// A task that depends only on tasks of its own document costs no read.
func (r *Resolver) CheckLinks(doc *taskdoc.Document, changed []*taskdoc.Task) error {
	own := r.flow.Path
	next := func(node string) []string {
		path, slug, _ := strings.Cut(node, "#")
		src := doc
		if path != own {
			src = r.document(path).doc
		}
		if src == nil {
			return nil
		}
		t, err := src.Task(slug)
		if err != nil {
			return nil
		}
		var out []string
		for _, d := range t.ValidDependencies() {
			out = append(out, cmp.Or(d.Document, path)+"#"+d.Slug)
		}
		return out
	}
	for _, t := range changed {
		for _, d := range t.ValidDependencies() {
			if d.Document == "" || d.Document == own {
				continue
			}
			o := r.document(d.Document)
			if o.exists && o.doc == nil {
				continue // does not read: passed over
			}
			if !o.exists {
				return &taskdoc.Error{Code: taskdoc.CodeTaskNotFound, Path: own, Slug: d.Slug,
					Msg: fmt.Sprintf("task %q in %s depends on %s, but there is no document %s", t.Slug, own, d, d.Document)}
			}
			var e *taskdoc.Error
			if _, err := o.doc.Task(d.Slug); errors.As(err, &e) && e.Code == taskdoc.CodeTaskNotFound {
				return &taskdoc.Error{Code: taskdoc.CodeTaskNotFound, Path: own, Slug: d.Slug, Available: e.Available,
					Msg: fmt.Sprintf("task %q in %s depends on %s, but %s has no task %q", t.Slug, own, d, d.Document, d.Slug)}
			}
		}
		if cycle := FindCycle(next, own+"#"+t.Slug); cycle != nil {
			return &taskdoc.Error{Code: taskdoc.CodeDependencyCycle, Path: own, Slug: t.Slug,
				Msg: fmt.Sprintf("the dependencies of task %q in %s make a cycle across documents: %s", t.Slug, own, strings.Join(cycle, " -> "))}
		}
	}
	return nil
}
