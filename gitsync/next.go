package gitsync

import (
	"context"
	"slices"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// NextTasks returns the tasks of plan ("/api/auth.md") that agentID may
// claim now, as plan.Plans.NextTasks does, on the plan as the remote has
// it: it fetches and merges the remote first (and sends what this clone
// queued). Across machines the rule is Claim's: a task that another
// machine's agent holds under a lease that has not ended is left out; a
// task whose lease ended is offered, its PreviousHolder naming that
// agent. The tasks agentID holds itself come first, so that an agent
// that restarted takes its work back before new work ("" for none). The
// list is advice; Claim decides.
func (s *Sync) NextTasks(ctx context.Context, planAddr, agentID string) ([]plan.NextTask, error) {
	t, err := taskflow.ParseDocs(planAddr)
	if err != nil {
		return nil, err
	}
	var out []plan.NextTask
	_, err = s.runCall(&call{ctx: ctx, reads: []string{t.File}, fn: func(ctx context.Context) (string, error) {
		out, err = s.nextTasks(ctx, t, planAddr, agentID)
		return "", err
	}})
	return out, err
}

// nextTasks is NextTasks on the merged clone.
func (s *Sync) nextTasks(ctx context.Context, t taskflow.Target, planAddr, agentID string) ([]plan.NextTask, error) {
	list, err := s.plans.NextTasks(ctx, planAddr)
	if err != nil {
		return nil, err
	}
	data, err := s.ws.ReadIfExists(ctx, t.File)
	if err != nil || data == nil {
		return list, err
	}
	doc, err := s.ws.Parse(t.File, data)
	if err != nil {
		return list, nil
	}
	sh, err := s.readLeases(ctx)
	if err != nil {
		return nil, err
	}
	own, err := s.ownTasks(ctx, sh, t, doc, agentID, list)
	if err != nil {
		return nil, err
	}
	out := own
	for _, n := range list {
		tk, err := doc.Task(n.ID[len(t.Path)+1:])
		if err != nil || slices.ContainsFunc(own, func(o plan.NextTask) bool { return o.ID == n.ID }) {
			continue
		}
		holder, lapsed, err := s.holding(ctx, sh, t, tk)
		switch {
		case err != nil:
			return nil, err
		case holder != "":
			continue
		case lapsed != "":
			n.PreviousHolder = lapsed
		}
		out = append(out, n)
	}
	for i := range out {
		out[i].CanParallelize = out[i].CanParallelize || len(out) > 1
	}
	return out, nil
}

// ownTasks are the tasks of doc whose Assignee names agentID and that it
// has not finished, in document order: those list offers (its lease ended
// while nobody took them) as listed, the others as the claim that
// answers with agentID's own claim would find them.
func (s *Sync) ownTasks(ctx context.Context, sh shared, t taskflow.Target, doc *taskdoc.Document, agentID string, list []plan.NextTask) ([]plan.NextTask, error) {
	if agentID == "" {
		return nil, nil
	}
	var out []plan.NextTask
	res := t.Flow().Resolver(ctx, s.ws)
	for i := range doc.Tasks {
		tk := &doc.Tasks[i]
		// Claim answers the agent an Assignee names with its claim, also
		// where that claim was made on another clone (the agent restarted
		// here with the same id).
		if tk.Status.Final() || assigneeOf(tk) != agentID {
			continue
		}
		if _, ok, live, err := s.elsewhere(ctx, sh, t.File, tk.Slug, agentID); err != nil {
			return nil, err
		} else if ok && live {
			continue // another clone's claim of the same agent id holds it
		}
		id := t.Path + "#" + tk.Slug
		if at := slices.IndexFunc(list, func(n plan.NextTask) bool { return n.ID == id }); at >= 0 {
			out = append(out, list[at])
			continue
		}
		n := plan.NextTask{ID: id, Title: tk.Title, Status: tk.Status,
			Stranded: tk.Status == taskdoc.StatusInProgress || tk.Status == taskdoc.StatusPlanning}
		deps, err := res.Of(doc, tk)
		n.DependenciesCompleted = err == nil
		for _, d := range deps {
			n.DependsOn = append(n.DependsOn, d.Address)
			n.DependenciesCompleted = n.DependenciesCompleted && d.Done()
		}
		out = append(out, n)
	}
	return out, nil
}
