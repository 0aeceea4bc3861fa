package claims

import (
	"context"
	"fmt"

	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
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
// (package subagent; see WhoOf), as an MCP session that registered writes. Without
// one the writer is a caller that is not an agent.
func WithWriter(ctx context.Context, w Writer) context.Context {
	return context.WithValue(ctx, writerKey{}, w)
}

// writerOf is who ctx's writer (WithWriter) writes task as: its agent
// and claim token, or "" for a caller that is not an agent.
func writerOf(ctx context.Context, task string) (agent string, token int64) {
	if w, ok := ctx.Value(writerKey{}).(Writer); ok && w != nil {
		return w.Claimant(task)
	}
	return "", 0
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
	if name == "" || plaintext.FoldLine(name) != name {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("the overriding person's name %q must be one line of text, without surrounding space", name)}
	}
	return nil
}
