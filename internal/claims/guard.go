package claims

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// writerKey is the context key of the writer (WithWriter).
type writerKey struct{}

// A Writer says who writes on a task: the agent and its claim's token (0
// for none) it writes on task ("/api/auth.md#x") as; agent "" for a
// caller that is not an agent.
type Writer interface {
	Claimant(task string) (agent string, token int64)
}

// WithWriter returns ctx carrying the writer of the task systems' writes
// (package subagent), as an MCP session that registered writes. Without
// one the writer is a caller that is not an agent.
func WithWriter(ctx context.Context, w Writer) context.Context {
	return context.WithValue(ctx, writerKey{}, w)
}

// Rewrite is workspace.Workspace.Rewrite of document file for a task
// system (package subagent), under the locks of the document and of its
// claims file, with the claims (st) for fn to fence its write with
// (Guard) and to bring into line with what it writes (File.Follow). fn
// returns the document's new content (nil, or the same bytes, for no
// change). The document is written first and the claims second (a task
// system never grants a claim: see plan's one write that decides); a
// failed claims write puts the document back, so a failed call changes
// nothing.
func Rewrite(ctx context.Context, ws *workspace.Workspace, file string, fn func(current []byte, exists bool, st *File) ([]byte, error)) error {
	name, err := Name(ws, file)
	if err != nil {
		return err
	}
	return ws.Lock(ctx, []string{file, name}, func(tx *workspace.Tx) error {
		current, err := tx.ReadIfExists(file)
		if err != nil {
			return err
		}
		st, _, err := Read(tx, file, name)
		if err != nil {
			return err
		}
		next, err := fn(current, current != nil, &st)
		if err != nil {
			return err
		}
		wrote := next != nil && (current == nil || !bytes.Equal(next, current))
		if wrote {
			if err := tx.Write(file, next); err != nil {
				return err
			}
		}
		if !st.changed {
			return nil
		}
		err = tx.Write(name, st.Encode())
		if err != nil && wrote {
			if current == nil {
				return errors.Join(err, tx.Remove(file))
			}
			return errors.Join(err, tx.Write(file, current))
		}
		return err
	})
}

// writerOf is who ctx's writer (WithWriter) writes task as: its agent
// and claim token, or "" for a caller that is not an agent.
func writerOf(ctx context.Context, task string) (agent string, token int64) {
	if w, ok := ctx.Value(writerKey{}).(Writer); ok && w != nil {
		return w.Claimant(task)
	}
	return "", 0
}

// Guard is the fence (File.Check) for a write a task system makes on task
// tk of document file (path is its address, for errors), moving it to
// status to ("" for no move), by the writer ctx carries (WithWriter), under
// the claims st (Rewrite's).
//
// With person set (a person's override) a write the fence refuses on a
// task an agent holds goes ahead: the claim is released in st, and Guard
// returns doc with the task's Assignee removed and its Override field
// recording who took it from whom on date (YYYY-MM-DD), and the task as
// it is then. Otherwise it returns doc and tk unchanged.
func Guard(ctx context.Context, st *File, path string, doc *taskdoc.Document, tk *taskdoc.Task, to taskdoc.Status, person, date string) (*taskdoc.Document, *taskdoc.Task, error) {
	agent, token := writerOf(ctx, path+"#"+tk.Slug)
	assignee, _ := tk.Field(taskdoc.KeyAssignee)
	err := st.Check(Write{Path: path, Slug: tk.Slug, Agent: agent, Token: token, Assignee: assignee, Status: tk.Status, To: to})
	holder := st.Holder(tk.Slug, assignee)
	if err == nil || person == "" || agent != "" || holder == "" {
		return doc, tk, err
	}
	token = st.Record(tk.Slug).Token
	st.Release(tk.Slug)
	return Override(doc, tk.Slug, person, holder, token, date)
}

// CheckNew is the fence for task, which a task system creates in document
// path, by the writer ctx carries (WithWriter): no claim can hold a task
// that does not exist yet, so an agent creates one only outside work (not
// planning, in progress or paused: work is done under a claim) and any
// caller that is not an agent may create it.
func CheckNew(ctx context.Context, path string, task *taskdoc.Task) error {
	agent, _ := writerOf(ctx, path+"#"+task.Slug)
	if agent == "" {
		return nil
	}
	var none File // a new task: no claim, whatever token a writer kept
	return none.Check(Write{Path: path, Slug: task.Slug, Agent: agent, Status: taskdoc.StatusPending, To: task.Status})
}

// Override records on doc that person took task slug from agent holder,
// whose claim had token, on date: the Assignee field is removed (which
// ends the claim) and the Override field says so. It returns the new
// document and the task.
func Override(doc *taskdoc.Document, slug, person, holder string, token int64, date string) (*taskdoc.Document, *taskdoc.Task, error) {
	nd, _, err := doc.RemoveField(slug, taskdoc.KeyAssignee)
	if err != nil {
		return nil, nil, err
	}
	return nd.SetField(slug, taskdoc.KeyOverride, fmt.Sprintf("%s took it from agent %s (claim %d) on %s", person, holder, token, date))
}

// CheckPerson refuses a name that cannot be recorded as an overriding
// person's: empty, not one line of text, with surrounding space, control
// characters or invalid UTF-8 (INVALID_ARGUMENTS).
func CheckPerson(name string) error {
	if err := taskdoc.CheckText("overriding person's name", name); err != nil {
		return err
	}
	if name == "" || taskdoc.FoldLine(name) != name {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("the overriding person's name %q must be one line of text, without surrounding space", name)}
	}
	return nil
}
