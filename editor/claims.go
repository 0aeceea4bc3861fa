package editor

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// claimsFresh is how long, on the Session's clock, the claims of a
// document are trusted without a change on disk. Whether a holder is
// online changes with time alone (its heartbeats stop), so a holder that
// goes offline shows within this long.
const claimsFresh = 5 * time.Second

// derived is what the Session reads from files that are not documents,
// for its diagnostics: which workflows exist and who holds which task.
// Each is kept for the generation it was read in (DiskChanged and Saved
// start a new one); claims also for claimsFresh at most.
type derived struct {
	mu        sync.Mutex
	plans     *plan.Plans
	workflows map[string]bool // nil until read
	wfGen     uint64
	claims    map[string]claimState // by document path
}

// claimState is the tasks under way of one plan, by slug, as its file and
// claims said at a moment.
type claimState struct {
	gen   uint64
	at    time.Time
	tasks map[string]plan.TaskState
}

// workflowNames are the names of the workflows: the files of workflows/
// ("tdd" for workflows/tdd.md), and the open buffers there, which an
// editor is writing.
func (s *Session) workflowNames(ctx context.Context) (map[string]bool, error) {
	s.mu.Lock()
	gen := s.generation
	var open []string
	for p := range s.open {
		open = append(open, p)
	}
	s.mu.Unlock()
	d := &s.derived
	d.mu.Lock()
	names, fresh := d.workflows, d.workflows != nil && d.wfGen == gen
	d.mu.Unlock()
	if !fresh {
		files, err := s.ws.List(ctx, taskdoc.FolderWorkflows)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			files = nil // an unreadable folder holds no workflow anyone can load
		}
		names = make(map[string]bool, len(files))
		for _, f := range files {
			if name, ok := workflowName(f); ok {
				names[name] = true
			}
		}
		d.mu.Lock()
		d.workflows, d.wfGen = names, gen
		d.mu.Unlock()
	}
	var withOpen map[string]bool
	for _, p := range open {
		if name, ok := workflowName(p); ok && !names[name] {
			if withOpen == nil {
				withOpen = make(map[string]bool, len(names)+1)
				for n := range names {
					withOpen[n] = true
				}
			}
			withOpen[name] = true
		}
	}
	if withOpen != nil {
		return withOpen, nil
	}
	return names, nil
}

// workflowName is the workflow a workspace path holds: "tdd" for
// workflows/tdd.md.
func workflowName(path string) (string, bool) {
	name, ok := strings.CutPrefix(path, taskdoc.FolderWorkflows+"/")
	if !ok {
		return "", false
	}
	name, ok = strings.CutSuffix(name, ".md")
	return name, ok && name != "" && !strings.Contains(name, "/")
}

// claims reports the tasks under way whose claim holder is offline, as
// the plan's claims and the agents' heartbeats say (plan.Plans.Progress).
// Only documents under docs/ are plans.
func (c *checker) claims() error {
	if !strings.HasPrefix(c.v.Path, taskdoc.FolderDocs+"/") || c.v.Address == "" {
		return nil
	}
	under := false
	for i := range c.v.Doc.Tasks {
		under = under || underWay(c.v.Doc.Tasks[i].Status)
	}
	if !under {
		return nil
	}
	states, err := c.s.claimStates(c.ctx, c.v)
	if err != nil {
		return err
	}
	for i := range c.v.Doc.Tasks {
		t := &c.v.Doc.Tasks[i]
		st, ok := states[t.Slug]
		if !ok || st.Holder == "" || st.HolderOnline || !underWay(t.Status) {
			continue
		}
		r := headingRange(c.t, t)
		if f, ok := field(t, taskdoc.KeyAssignee); ok && f.Value != "" {
			r = c.valueRange(f)
		}
		c.add(r, SeverityWarning, CodeHolderOffline,
			fmt.Sprintf("task %q is held by %s, which is offline: its claim is stale, and the next agent to claim the task takes it over", t.Slug, st.Holder))
	}
	return nil
}

// underWay reports whether a task of status s is being worked on or needs
// attention: the tasks whose holders plan.Progress reports.
func underWay(s taskdoc.Status) bool {
	if _, err := taskdoc.ParseStatus(string(s)); err != nil {
		return false
	}
	return s != taskdoc.StatusPending && !s.Final()
}

// claimStates returns the tasks under way of the plan v is, by slug,
// read at most once per generation and claimsFresh of the clock. A plan
// whose file does not exist (a new buffer) has none.
func (s *Session) claimStates(ctx context.Context, v *view) (map[string]plan.TaskState, error) {
	s.mu.Lock()
	gen := s.generation
	s.mu.Unlock()
	now := s.cfg.Now()
	d := &s.derived
	d.mu.Lock()
	st, ok := d.claims[v.Path]
	if d.plans == nil {
		d.plans = plan.New(s.ws, plan.WithClock(s.cfg.Now))
	}
	plans := d.plans
	d.mu.Unlock()
	if ok && st.gen == gen && !now.Before(st.at) && now.Sub(st.at) < claimsFresh {
		return st.tasks, nil
	}
	progress, err := plans.Progress(ctx, v.Address)
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	st = claimState{gen: gen, at: now, tasks: map[string]plan.TaskState{}}
	for _, ts := range progress.Current {
		if _, slug, ok := strings.Cut(ts.ID, "#"); ok {
			st.tasks[slug] = ts
		}
	}
	d.mu.Lock()
	if d.claims == nil {
		d.claims = map[string]claimState{}
	}
	d.claims[v.Path] = st
	d.mu.Unlock()
	return st.tasks, nil
}
