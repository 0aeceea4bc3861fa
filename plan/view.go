package plan

import (
	"context"
	"fmt"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// view is a plan read without locks: its document, its claims, and the
// liveness of the agents asked about, each read once.
type view struct {
	p      *Plans
	ctx    context.Context
	doc    *taskdoc.Document
	claims claims.File
	live   map[string]bool
}

func (p *Plans) view(ctx context.Context, t taskflow.Target) (*view, error) {
	doc, err := p.readPlan(ctx, t)
	if err != nil {
		return nil, err
	}
	st, err := p.readClaims(ctx, t.File)
	if err != nil {
		return nil, t.Flow().At(err, "")
	}
	return &view{p: p, ctx: ctx, doc: doc, claims: st, live: map[string]bool{}}, nil
}

// readPlan reads and parses the plan of t without its lock.
func (p *Plans) readPlan(ctx context.Context, t taskflow.Target) (*taskdoc.Document, error) {
	snap, err := taskflow.ReadSnapshot(ctx, p.ws, t.File)
	if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
		return nil, planNotFound(t)
	}
	if err != nil {
		return nil, t.Flow().At(err, "")
	}
	return snap.Doc, nil
}

// planNotFound is the error of a plan whose document does not exist.
func planNotFound(t taskflow.Target) error {
	return &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: t.Path, Slug: t.Slug,
		Msg: fmt.Sprintf("plan %s not found (no %s)", t.Path, t.File)}
}

// online reports whether agent id is online now, reading it once.
func (v *view) online(id string) bool {
	on, ok := v.live[id]
	if !ok {
		on = v.p.online(v.ctx, id)
		v.live[id] = on
	}
	return on
}

// holder is the agent holding tk and whether it is online; "" when none.
//
// A task whose Assignee names an online agent that holds no claim of it
// (shown but not recorded: the claims file removed, a hand edit, a rename)
// counts as held by that agent, online, as Claim counts it: Claim refuses
// such a task to every other agent, so NextTasks must not offer it (it
// did, and every claim of the task it advised failed). Once the agent is
// offline the task is free, as before.
func (v *view) holder(tk *taskdoc.Task) (string, bool) {
	assignee, _ := tk.Field(taskdoc.KeyAssignee)
	h := v.claims.Holder(tk.Slug, assignee)
	if h == "" {
		if assignee != "" && v.online(assignee) {
			return assignee, true
		}
		return "", false
	}
	return h, v.online(h)
}
