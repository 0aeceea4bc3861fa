package coordinator

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// StartOptions tunes Start.
type StartOptions struct {
	// FullContext asks for Main-Workflow again, as after a context
	// compression. Without it Main-Workflow comes only with the list's first
	// start.
	FullContext bool
	// Force starts the next task even though its dependencies (its
	// Depends-On) are not all done, which is TASK_BLOCKED otherwise: a
	// person's override, recorded in the task's Forced field. Agents never
	// set it.
	Force bool
}

// CompleteOptions tunes Complete.
type CompleteOptions struct {
	// IncludeFullWorkflow loads the next task's Workflow and references, as
	// Start does. Without it Next carries the task only.
	IncludeFullWorkflow bool
	// RequestKey, when set, makes the call safe to retry: the completed task
	// records it (a "Request: <key>" field), and a later call with the same
	// key is answered with that completion (Completed.Replayed) instead of
	// completing the next task. Use one key per intended completion, such
	// as a random ID made before the first attempt. At most 128 bytes, one
	// line. A key sent again with another note is CONFLICT and writes
	// nothing.
	RequestKey string
	// Slug, when set, is the task the caller means to complete ("#" is
	// optional). Complete completes the list's current task; when that is
	// another, it refuses with INVALID_TRANSITION naming the current task
	// and changes nothing. The check is made under the list's lock, so a
	// caller that read the list earlier never completes a task it did not
	// mean to because another process completed the one it read. When the
	// task it names is completed already with the same note (as recorded,
	// on one line), in the list or, once that completion finished and
	// archived it, in the newest archive, the call is a retry of the one
	// that completed it: it is answered with that completion
	// (Completed.Replayed) and nothing is written.
	Slug string
}

// Started is the task to work on, with what it needs.
type Started struct {
	Task         taskdoc.Task                 `json:"task"`
	MainWorkflow *taskcontext.Workflow        `json:"main_workflow,omitempty"`        // on the list's first start, or with FullContext
	Workflow     *taskcontext.Workflow        `json:"workflow,omitempty"`             // the task's Workflow field; nil when it has none
	References   []taskcontext.LoadedDocument `json:"referenced_documents,omitempty"` // the documents the task references, as in subagent.Started
	// Missing names the workflows and references (as written) that do not
	// exist. They do not stop the start.
	Missing []string `json:"missing,omitempty"`
}

// Completed reports a completed task and what comes next.
type Completed struct {
	Task taskdoc.Task `json:"task"`           // as it is after completion
	Note string       `json:"note"`           // as stored: folded onto one line
	Date string       `json:"completed_date"` // YYYY-MM-DD, UTC
	// Next is the next task, already in progress; nil when the list was
	// archived or when only blocked tasks are left (see Blocked).
	Next *Started `json:"next_task,omitempty"`
	// ArchivedTo is the root-relative name of the archived list
	// ("archived/coordinator/active-2026-11-22-093000.md") when this
	// completion finished the list; "" otherwise.
	ArchivedTo string `json:"archived_to,omitempty"`
	// Blocked lists the slugs of the tasks left when none of them can be
	// started (Next is nil and the list is not archived).
	Blocked []string `json:"blocked,omitempty"`
	// Replayed is set when the call carried the RequestKey of an earlier
	// completion, or named (Slug) a task completed with the same note: this is that completion, as the list (or, once it was
	// archived, its newest archive) holds it, and nothing was written. Next
	// is the task in progress now, if any.
	Replayed bool `json:"replayed,omitempty"`
	// ArchiveError is set when this completion finished the list and was
	// written, but the archive step failed (a deadline, a full disk): the
	// list stays in coordinator/active.md, complete, and the next operation
	// of any List archives it. ArchivedTo is then "". In JSON it is its
	// message, "archive_error".
	ArchiveError error `json:"-"`
}

// MarshalJSON writes c with its ArchiveError as a message: an error value
// has no JSON form of its own.
func (c Completed) MarshalJSON() ([]byte, error) {
	type fields Completed // without the method, so that it does not recurse
	out := struct {
		fields
		ArchiveError string `json:"archive_error,omitempty"`
	}{fields: fields(c)}
	if c.ArchiveError != nil {
		out.ArchiveError = c.ArchiveError.Error()
	}
	return json.Marshal(out)
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
// missing ones are listed in Missing. They are loaded before the list is
// locked and checked again under the lock (see package taskflow), so a
// failure to load them leaves the list as it was.
func (c *List) Start(ctx context.Context, opt StartOptions) (*Started, error) {
	snap := c.snapshot(ctx)
	var pre *taskflow.Preloaded
	if snap != nil && !Finished(snap.Doc) {
		if t, err := next(snap.Doc); err == nil {
			var err error
			if pre, err = taskflow.Preload(ctx, c.ws, c.startRequest(snap.Doc, t, opt)); err != nil {
				return nil, c.flow.At(err, "")
			}
		}
	}
	var started *Started
	err := c.withList(ctx, listCall{snap: snap}, func(s *state) error {
		if s.doc == nil {
			return noneAvailable(nil)
		}
		t, err := next(s.doc)
		if err != nil {
			return err
		}
		if err := taskflow.CheckSeen(ctx, Address, t); err != nil {
			return err
		}
		req := c.startRequest(s.doc, t, opt)
		doc, err := c.flow.Resolver(ctx, c.ws).CheckReady(s.doc, t.Slug, taskflow.MoveStart, "", opt.Force)
		if err != nil {
			return err
		}
		nd, task, err := c.flow.Start(doc, t.Slug)
		if err != nil {
			return err
		}
		if started, err = c.started(ctx, pre, task, req); err != nil {
			return err
		}
		return s.writeDoc(nd)
	})
	if err != nil {
		return nil, err
	}
	return started, nil
}

// startRequest is what a start of t loads from doc, the list before the
// start: Main-Workflow on the list's first start or when asked for, and
// t's Workflow and references.
func (c *List) startRequest(doc *taskdoc.Document, t *taskdoc.Task, opt StartOptions) taskcontext.Request {
	req := taskcontext.Request{Task: t, Depth: c.cfg.Depth}
	if firstStart(doc) || opt.FullContext {
		req.MainWorkflow = mainWorkflowName(doc)
	}
	return req
}

// started loads (or takes the preloaded) context of task, which req was
// made for in the list before the edit, and returns it with the task.
func (c *List) started(ctx context.Context, pre *taskflow.Preloaded, task *taskdoc.Task, req taskcontext.Request) (*Started, error) {
	req.Task = task
	loaded, err := pre.Context(ctx, c.ws, req)
	if err != nil {
		return nil, err
	}
	return &Started{Task: *task, MainWorkflow: loaded.MainWorkflow, Workflow: loaded.Workflow,
		References: loaded.References, Missing: loaded.Missing}, nil
}

// Complete completes the current task with note (required: NOTE_REQUIRED
// otherwise) and returns the next one, marked in_progress like Start would
// leave it but without Main-Workflow. The current task is the one in
// progress; when none is, it is the task Start would return, so a caller
// that skipped Start loses nothing. When every task is then completed, the
// list is archived in the same critical section and ArchivedTo names the
// archive; the next Create starts a fresh list.
//
// With IncludeFullWorkflow the next task's context is loaded as Start
// loads it, before anything is written: a failure to load it leaves the
// list as it was.
func (c *List) Complete(ctx context.Context, note string, opt CompleteOptions) (*Completed, error) {
	if err := c.flow.CheckNote(note, ""); err != nil {
		return nil, err
	}
	key := strings.TrimSpace(opt.RequestKey)
	if err := c.flow.CheckRequestKey(key); err != nil {
		return nil, err
	}
	now := c.cfg.Today()
	var snap *taskflow.Snapshot
	var pre *taskflow.Preloaded
	if opt.IncludeFullWorkflow {
		var err error
		if snap, pre, err = c.preloadNext(ctx, note, now); err != nil {
			return nil, err
		}
	}
	var res Completed
	call := listCall{snap: snap}
	if key != "" {
		call.also, call.keepFinished = []string{requestName(key)}, true
	}
	err := c.withList(ctx, call, func(s *state) error {
		var rec *request
		if key != "" {
			rec = readRequest(s.tx, key)
			if replayed, err := c.replay(ctx, s, key, rec, opt, &res); replayed || err != nil {
				if err == nil && !taskflow.SameNote(res.Note, note) {
					return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: Address, Slug: res.Task.Slug,
						Msg: fmt.Sprintf("request key %q completed task %q with another note (%q): a retry repeats the call as it was, a new completion needs a new key; nothing was written", key, res.Task.Slug, res.Note)}
				}
				return err
			}
		}
		if done, archived := c.named(ctx, s, opt.Slug); done != nil && taskflow.Replays(done, note) {
			res.Task, res.Replayed = *done, true
			res.Note, res.Date = taskflow.CompletedFields(done, note, now)
			if archived != "" { // the completion finished the list, which was archived
				res.ArchivedTo = archived
				return nil
			}
			res.ArchiveError = s.archiveErr
			return c.replayNext(ctx, s, opt, &res)
		}
		if s.archiveErr != nil {
			return s.archiveErr
		}
		if s.doc == nil {
			return noneAvailable(nil)
		}
		current, err := next(s.doc)
		if err != nil {
			return err
		}
		if err := checkCurrent(current, opt.Slug); err != nil {
			return err
		}
		if err := taskflow.CheckSeen(ctx, Address, current); err != nil {
			return err
		}
		deps := c.flow.Resolver(ctx, c.ws)
		doc, err := deps.CheckReady(s.doc, current.Slug, taskflow.MoveComplete, taskdoc.StatusCompleted, false)
		if err != nil {
			return err
		}
		doc, done, err := c.flow.Complete(doc, current.Slug, note, now)
		if err != nil {
			return err
		}
		if key != "" {
			if doc, done, err = doc.SetField(done.Slug, taskdoc.KeyRequest, key); err != nil {
				return c.flow.At(err, current.Slug)
			}
			note, date := taskflow.CompletedFields(done, note, now)
			rec = &request{Key: key, State: "pending", Slug: done.Slug, Title: done.Title, Note: note, Date: date}
		}
		// commit writes the list, after a pending record of a keyed call;
		// once it has, the record is confirmed whatever comes next.
		landed := false
		commit := func(list *taskdoc.Document) error {
			if rec != nil {
				if err := rec.write(s.tx); err != nil {
					return err
				}
			}
			if err := s.writeDoc(list); err != nil {
				return err
			}
			landed = true
			return nil
		}
		defer func() {
			if landed && rec != nil {
				c.confirm(s.tx, rec, &res)
			}
		}()
		res.Task = *done
		res.Note, res.Date = taskflow.CompletedFields(done, note, now)
		if Finished(doc) {
			// The completion is written first, so that it survives anything
			// the archive step meets; an archive that fails then is not the
			// call's failure: the next operation of any List archives the
			// finished list (see Recover).
			if err := commit(doc); err != nil {
				return err
			}
			name, err := c.archiveLocked(ctx, s.tx, doc.Source)
			if err != nil {
				res.ArchiveError = c.flow.At(err, "")
			} else {
				res.ArchivedTo = name
			}
			return nil
		}
		t, err := next(doc)
		if err != nil {
			res.Blocked = waitingSlugs(doc)
			return commit(doc)
		}
		if _, err := deps.CheckReady(doc, t.Slug, taskflow.MoveStart, "", false); err != nil {
			// The next task waits for dependencies elsewhere: it stays
			// pending, for a Start once they are done.
			res.Blocked = append(waitingSlugs(doc), t.Slug)
			return commit(doc)
		}
		req := taskcontext.Request{Task: t, Depth: c.cfg.Depth}
		doc, task, err := c.flow.Start(doc, t.Slug)
		if err != nil {
			return err
		}
		if opt.IncludeFullWorkflow {
			if res.Next, err = c.started(ctx, pre, task, req); err != nil {
				return err
			}
		} else {
			res.Next = &Started{Task: *task}
		}
		return commit(doc)
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// replay answers a call whose request key an earlier completion used, and
// reports whether it did. The key is looked for on the tasks of the list
// (it is written there with the completion), then in the call's record
// (rec, nil when there is none): a "done" record answers by itself, so a
// retry is answered even after the list was cleared, archived or replaced;
// a "pending" one only when the completion is in the newest archive (it
// finished and archived the list, and the record's last write failed).
func (c *List) replay(ctx context.Context, s *state, key string, rec *request, opt CompleteOptions, res *Completed) (bool, error) {
	if done := taskflow.Requested(s.doc, key); done != nil {
		if done.Status != taskdoc.StatusCompleted {
			return true, &taskdoc.Error{Code: taskdoc.CodeConflict, Path: Address, Slug: done.Slug,
				Msg: fmt.Sprintf("the completion of task %q made with request key %q was reopened since; send a new key to complete it again", done.Slug, key)}
		}
		res.Task, res.Replayed, res.ArchiveError = *done, true, s.archiveErr
		res.Note, res.Date = taskflow.CompletedFields(done, "", time.Time{})
		return true, c.replayNext(ctx, s, opt, res)
	}
	switch {
	case rec == nil:
		return false, nil
	case rec.State == "done":
		res.Task, res.Replayed, res.ArchivedTo = rec.task(), true, rec.ArchivedTo
		res.Note, res.Date = rec.Note, rec.Date
		if rec.ArchivedTo != "" {
			if t := c.archivedTask(s.tx, rec.ArchivedTo, key); t != nil {
				res.Task = *t
			}
		}
		return true, nil
	}
	archived, err := c.Archives(ctx)
	if err != nil || len(archived) == 0 {
		return false, err
	}
	t := c.archivedTask(s.tx, archived[0].Name, key)
	if t == nil || t.Status != taskdoc.StatusCompleted {
		return false, nil // the completion never landed: make it now
	}
	res.Task, res.Replayed, res.ArchivedTo = *t, true, archived[0].Name
	res.Note, res.Date = taskflow.CompletedFields(t, "", time.Time{})
	return true, nil
}

// replayNext fills in the task in progress in the list, as the answer of
// the completion being replayed named it, with its context when asked.
func (c *List) replayNext(ctx context.Context, s *state, opt CompleteOptions, res *Completed) error {
	t, err := next(s.doc)
	switch {
	case err != nil && !Finished(s.doc):
		res.Blocked = waitingSlugs(s.doc)
	case err != nil || t.Status != taskdoc.StatusInProgress:
	case opt.IncludeFullWorkflow:
		res.Next, err = c.started(ctx, nil, t, taskcontext.Request{Task: t, Depth: c.cfg.Depth})
		return err
	default:
		res.Next = &Started{Task: *t}
	}
	return nil
}

// archivedTask reads the archive name and returns its task that records
// key, or nil.
func (c *List) archivedTask(tx *workspace.Tx, name, key string) *taskdoc.Task {
	return taskflow.Requested(readArchive(tx, name), key)
}

// readArchive reads and parses the archive name; nil when it does not
// read.
func readArchive(tx *workspace.Tx, name string) *taskdoc.Document {
	data, err := tx.ReadData(name)
	if err != nil {
		return nil
	}
	doc, err := taskdoc.Parse(data)
	if err != nil {
		return nil
	}
	return doc
}

// confirm marks the record of a keyed completion done once the list is
// written, with the archive it made. A failure to write it is not the
// call's failure: the completion landed, and a pending record whose key is
// in the list or its newest archive answers a retry just as well.
func (c *List) confirm(tx *workspace.Tx, rec *request, res *Completed) {
	rec.State, rec.ArchivedTo = "done", res.ArchivedTo
	_ = rec.write(tx)
}

// preloadNext reads the list without its lock, completes its current task
// in memory and loads the context of the task that would come next.
func (c *List) preloadNext(ctx context.Context, note string, now time.Time) (*taskflow.Snapshot, *taskflow.Preloaded, error) {
	snap := c.snapshot(ctx)
	if snap == nil || Finished(snap.Doc) {
		return snap, nil, nil
	}
	current, err := next(snap.Doc)
	if err != nil {
		return snap, nil, nil
	}
	doc, _, err := c.flow.Complete(snap.Doc, current.Slug, note, now)
	if err != nil || Finished(doc) {
		return snap, nil, nil
	}
	t, err := next(doc)
	if err != nil {
		return snap, nil, nil
	}
	pre, err := taskflow.Preload(ctx, c.ws, taskcontext.Request{Task: t, Depth: c.cfg.Depth})
	if err != nil {
		return nil, nil, c.flow.At(err, "")
	}
	return snap, pre, nil
}

// next is the coordinator's "pick next" rule: the task in progress, else
// the first pending task. A planning, paused, blocked or failed task waits
// for whoever put it there.
func next(doc *taskdoc.Document) (*taskdoc.Task, error) {
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

// waiting reports whether t is left but next does not take it.
func waiting(t *taskdoc.Task) bool {
	return !t.Status.Final() && t.Status != taskdoc.StatusPending && t.Status != taskdoc.StatusInProgress
}

// waitingSlugs lists the tasks that are left but that next does not take
// (blocked, paused, planning, failed, or a status written by hand).
func waitingSlugs(doc *taskdoc.Document) []string {
	var slugs []string
	for i := range doc.Tasks {
		if waiting(&doc.Tasks[i]) {
			slugs = append(slugs, doc.Tasks[i].Slug)
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
		for i, t := range doc.Tasks {
			if waiting(&doc.Tasks[i]) {
				names = append(names, fmt.Sprintf("%q (%s)", t.Slug, t.Status))
			}
		}
		e.Msg = "no coordinator task to work on in " + Address + ": every remaining task is blocked or waiting: " + strings.Join(names, ", ")
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

// checkCurrent refuses a completion whose caller named another task than
// the list's current one (CompleteOptions.Slug), in the same critical
// section as the completion.
func checkCurrent(current *taskdoc.Task, slug string) error {
	slug = slugOf(slug)
	if slug == "" || slug == current.Slug {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: Address, Slug: slug,
		Msg: fmt.Sprintf("coordinator tasks are completed in order: the current task is %s#%s (%s), not %q", Address, current.Slug, current.Status, slug)}
}

// slugOf is the slug CompleteOptions.Slug names ("#" is optional).
func slugOf(slug string) string {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(slug), "#"))
}

// named is the task that slug (CompleteOptions.Slug) names: the list's
// (s.doc), or, when the list holds none by that slug, the newest
// archive's, which archived names (a completion that finished the list
// archived it); nil when there is none or the archives do not read.
func (c *List) named(ctx context.Context, s *state, slug string) (task *taskdoc.Task, archived string) {
	if slug = slugOf(slug); slug == "" {
		return nil, ""
	}
	if s.doc != nil {
		if t, err := s.doc.Task(slug); err == nil {
			return t, ""
		}
	}
	all, err := c.Archives(ctx)
	if err != nil || len(all) == 0 {
		return nil, ""
	}
	if doc := readArchive(s.tx, all[0].Name); doc != nil {
		if t, err := doc.Task(slug); err == nil {
			return t, all[0].Name
		}
	}
	return nil, ""
}
