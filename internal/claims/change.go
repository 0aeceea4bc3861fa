package claims

import (
	"context"
	"errors"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Who is who makes a write on a task: an agent and the fencing token of
// its claim on the task (0 for none), or a caller that is not an agent
// (Agent ""); Person, for a caller that is not an agent, is the person
// whose override writes over an agent's claim (see guard) and goes past
// the task's dependencies (recorded in its Forced field).
type Who struct {
	Agent  string
	Token  int64
	Person string
}

// WhoOf is the writer ctx carries (WithWriter) for the task at address
// ("/api/auth.md#x"), with person's override ("" for none).
func WhoOf(ctx context.Context, address, person string) Who {
	agent, token := writerOf(ctx, address)
	return Who{Agent: agent, Token: token, Person: person}
}

// A Change is one write on one task of a document (Make). Move and To, or
// Decide, say what the write does to the task's status; Apply makes it.
type Change struct {
	Target taskflow.Target // the task's address, parsed and checked once
	Who    Who
	Date   string // the day (YYYY-MM-DD) an override records
	// Missing is the error when the document does not exist.
	Missing error
	// Read, when set, is a read of the document made before the lock,
	// whose parse is taken when the bytes did not change (taskflow.Snapshot).
	Read *taskflow.Snapshot
	// Move is the move of the task's status that waits for its
	// dependencies (taskflow.Resolver.CheckReady), "" for none; To is the
	// status the write moves the task to, "" for none (the fence's, and
	// CheckReady's).
	Move taskflow.Move
	To   taskdoc.Status
	// Decide, when set, gives Move and To from the task as found.
	Decide func(doc *taskdoc.Document, task *taskdoc.Task) (taskflow.Move, taskdoc.Status, error)
	// Note, for a completion, makes a task completed with that note a
	// retry of the call that completed it (taskflow.Replays): it is
	// answered (Made.Replayed) and Apply is not called.
	Note string
	// Retried, when set, reports a retry of a write the fence let
	// through (a release, a pause of a claim it let go): the fence is not
	// asked again.
	Retried func(st *File, task *taskdoc.Task) bool
	// Unfenced is set for a write that decides itself who may make it
	// (a claim, a revoke).
	Unfenced bool
	// Apply makes the write on task of doc, under the claims st, and
	// returns the document to write (nil, or doc, for none).
	Apply func(doc *taskdoc.Document, task *taskdoc.Task, st *File) (*taskdoc.Document, error)
	// Check makes Make decide the write, every refusal included, and write
	// nothing: a caller that must write elsewhere first asks it before.
	Check bool
}

// Made is what Make did: the document as it is after the call, the task
// as Apply found it (the completed task of a retry), and whether the call
// was a retry.
type Made struct {
	Doc      *taskdoc.Document
	Task     *taskdoc.Task
	Replayed bool
}

// Make makes c, the one sequence of every write on a task of a document,
// each step once and in this order: lock the document and its claims
// file; read and parse the document (c.Read's parse, or the workspace's
// cache, when either holds these bytes) and the claims; bring the task's claim into line with
// the document (File.Follow); find the task; answer a retried completion
// (c.Note); check the task's dependencies for the move (c.Move; a person's
// override records itself in the Forced field); fence the write (guard);
// apply it (c.Apply); bring the claim into line again; write.
//
// One write decides and the other follows, so that no crash point leaves a
// claim the two files disagree on: a call that grants a claim writes the
// claims file first and the document second (the claim counts once the
// Assignee shows it); every other call writes the document first and the
// claims second (a claim ends when its Assignee goes). A crash in between
// leaves a record whose task does not show it, which holds nothing and
// which the next call on the task settles (Follow). When the second write
// fails the first is put back, so a failed call changes nothing. Errors
// name the task's address, once, here.
func Make(ctx context.Context, ws *workspace.Workspace, c Change) (Made, error) {
	t := c.Target
	name, err := Name(ws, t.File)
	if err != nil {
		return Made{}, t.Flow().At(err, t.Slug)
	}
	var made Made
	err = ws.Lock(ctx, []string{t.File, name}, func(tx *workspace.Tx) error {
		src, err := tx.ReadIfExists(t.File)
		if err != nil {
			return err
		}
		if src == nil {
			return c.Missing
		}
		doc, err := c.Read.Parse(ws, t.File, src)
		if err != nil {
			return err
		}
		st, held, err := Read(tx, t.File, name)
		if err != nil {
			return err
		}
		follow(&st, doc, t.Slug)
		before := st.Record(t.Slug)
		nd, err := c.apply(ctx, ws, doc, &st, &made)
		if err != nil || c.Check {
			return err
		}
		if nd == nil {
			nd = doc
		}
		follow(&st, nd, t.Slug)
		made.Doc = nd
		var out *taskdoc.Document
		if nd != doc && string(nd.Source) != string(src) {
			out = nd
		}
		first := write{name: name, old: held, due: st.changed}
		if first.due { // encoding a large claims file costs more than the write of a small document
			first.data = st.Encode()
		}
		second := write{name: t.File, doc: out, old: src, due: out != nil}
		if after := st.Record(t.Slug); after.Agent == "" || after.Token == before.Token {
			first, second = second, first // no new claim: the document decides
		}
		if err := first.do(tx); err != nil {
			return err
		}
		if err := second.do(tx); err != nil {
			return errors.Join(err, first.undo(tx))
		}
		return nil
	})
	if err != nil {
		return Made{}, t.Flow().At(err, t.Slug)
	}
	return made, nil
}

// apply is Make's part between the two Follows: find, replay, dependencies,
// fence, apply.
func (c Change) apply(ctx context.Context, ws *workspace.Workspace, doc *taskdoc.Document, st *File, made *Made) (*taskdoc.Document, error) {
	t := c.Target
	task, err := doc.Task(t.Slug)
	if err != nil {
		return nil, err
	}
	if err := taskflow.CheckSeen(ctx, t.Path, task); err != nil {
		return nil, err
	}
	made.Task = task
	if c.Note != "" && taskflow.Replays(task, c.Note) {
		if c.Who.Person == "" {
			if err := check(st, t, task, c.Who, ""); err != nil {
				return nil, err
			}
		}
		made.Replayed = true
		return nil, nil
	}
	move, to := c.Move, c.To
	if c.Decide != nil {
		if move, to, err = c.Decide(doc, task); err != nil {
			return nil, err
		}
	}
	if move != "" {
		ready, err := t.Flow().Resolver(ctx, ws).CheckReady(doc, t.Slug, move, to, c.Who.Person != "")
		if err != nil {
			return nil, err
		}
		if ready != doc { // the override recorded in the Forced field
			doc = ready
			if task, err = doc.Task(t.Slug); err != nil {
				return nil, err
			}
		}
	}
	if !c.Unfenced && (c.Retried == nil || !c.Retried(st, task)) {
		if doc, task, err = guard(st, t, doc, task, c.Who, to, c.Date); err != nil {
			return nil, err
		}
	}
	made.Task = task
	return c.Apply(doc, task, st)
}

// check is the fence (File.Check) for w's write on task of t, moving it to
// status to ("" for no move).
func check(st *File, t taskflow.Target, task *taskdoc.Task, w Who, to taskdoc.Status) error {
	assignee, _ := task.Field(taskdoc.KeyAssignee)
	return st.Check(Write{Path: t.Path, Slug: task.Slug, Agent: w.Agent, Token: w.Token,
		Assignee: assignee, Status: task.Status, To: to})
}

// guard is the fence for w's write on task of doc, moving it to status to.
// With w.Person set (a person's override) a write the fence refuses on a
// task an agent holds goes ahead: the claim is released in st, and guard
// returns doc with the task's Assignee removed and its Override field
// recording who took it from whom on date (YYYY-MM-DD), and the task as it
// is then. Otherwise it returns doc and task unchanged.
func guard(st *File, t taskflow.Target, doc *taskdoc.Document, task *taskdoc.Task, w Who, to taskdoc.Status, date string) (*taskdoc.Document, *taskdoc.Task, error) {
	err := check(st, t, task, w, to)
	assignee, _ := task.Field(taskdoc.KeyAssignee)
	holder := st.Holder(task.Slug, assignee)
	if err == nil || w.Person == "" || w.Agent != "" || holder == "" {
		return doc, task, err
	}
	token := st.Record(task.Slug).Token
	st.Release(task.Slug)
	return Override(doc, task.Slug, w.Person, holder, token, date)
}

// follow brings the claim of task slug into line with doc (File.Follow).
func follow(st *File, doc *taskdoc.Document, slug string) {
	var assignee string
	var status taskdoc.Status
	if tk, err := doc.Task(slug); err == nil {
		assignee, _ = tk.Field(taskdoc.KeyAssignee)
		status = tk.Status
	}
	st.Follow(slug, assignee, status)
}

// write is one of the two writes of Make.
type write struct {
	name string
	data []byte            // the new content, or
	doc  *taskdoc.Document // the new document (kept as the file's parse)
	old  []byte            // the content to put back (nil: no file)
	due  bool              // whether the call writes it
}

func (w write) do(tx *workspace.Tx) error {
	switch {
	case !w.due:
		return nil
	case w.doc != nil:
		return tx.WriteDocument(w.name, w.doc)
	}
	return tx.Write(w.name, w.data)
}

// undo puts back what do wrote.
func (w write) undo(tx *workspace.Tx) error {
	switch {
	case !w.due:
		return nil
	case w.old == nil:
		return tx.Remove(w.name)
	default:
		return tx.Write(w.name, w.old)
	}
}
