package fleet

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/procs"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// machineReport is what a machine process prints.
type machineReport struct {
	Completed int      `json:"completed"`
	Calls     int      `json:"calls"`
	Failed    int      `json:"failed"`
	Pushed    int      `json:"pushed"`   // calls whose change reached the remote
	Rejected  int      `json:"rejected"` // pushes the remote rejected on the way
	Errors    []string `json:"errors,omitempty"`
}

// tally is a machine's report, shared by its agents.
type tally struct {
	mu sync.Mutex
	machineReport
}

// call counts one gitsync call.
func (t *tally) call(rep gitsync.Report, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Calls++
	if rep.Attempts > 1 {
		t.Rejected += rep.Attempts - 1
	}
	if rep.Pushed {
		t.Pushed++
	}
	if err != nil {
		t.Failed++
		if len(t.Errors) < 3 {
			t.Errors = append(t.Errors, err.Error())
		}
	}
}

// machine opens the clone dir, registers its agents m<i>-a0 to
// m<i>-a<agents-1>, says "ready", and on the start signal runs them until
// every plan is done.
func machine(ctx context.Context, dir string, i, agents, plans int) (machineReport, error) {
	ws, err := workspace.Open(dir)
	if err != nil {
		return machineReport{}, err
	}
	defer ws.Close()
	p := plan.New(ws)
	s, err := gitsync.New(ctx, ws, p)
	if err != nil {
		return machineReport{}, err
	}
	ids := make([]string, agents)
	for a := range ids {
		ag, err := p.Agents().Register(ctx, agent.Registration{ID: fmt.Sprintf("m%d-a%d", i, a), Name: "fleet", Runtime: "fleet"})
		if err != nil {
			return machineReport{}, err
		}
		ids[a] = ag.ID
	}
	if err := procs.Ready(); err != nil {
		return machineReport{}, err
	}
	var t tally
	var wg sync.WaitGroup
	for a, id := range ids {
		wg.Go(func() { work(ctx, s, p, id, (i*agents+a)%plans, plans, &t) })
	}
	beat, stop := context.WithCancel(ctx)
	go heartbeat(beat, p.Agents(), s, ids)
	wg.Wait()
	stop()
	return t.machineReport, nil
}

// heartbeat keeps the agents ids online while they work, and the
// machine's leases on their claims alive, as a running machine does.
func heartbeat(ctx context.Context, r *agent.Registry, s *gitsync.Sync, ids []string) {
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			for _, id := range ids {
				_, _ = r.Heartbeat(ctx, id, agent.HeartbeatInfo{})
			}
			_, _ = s.Renew(ctx) // one push for all the machine's agents
		}
	}
}

// work is one agent: it takes the plans in turn from first, claims a task
// that the plan offers, starts and completes it, until every plan is
// done or ctx ends. A task refused is not tried again until a round of
// every plan found nothing to claim.
func work(ctx context.Context, s *gitsync.Sync, p *plan.Plans, id string, first, plans int, t *tally) {
	refused := map[string]bool{}
	for ctx.Err() == nil {
		took, open := false, false
		for k := range plans {
			addr := "/" + PlanFile((first+k)%plans)
			for ctx.Err() == nil {
				task, left, err := pick(ctx, p, addr, refused)
				if err != nil {
					t.call(gitsync.Report{}, err)
					return
				}
				open = open || left
				if task == "" {
					break
				}
				if do(ctx, s, id, task, t) {
					took = true
				} else {
					refused[task] = true
				}
			}
		}
		if !open {
			return
		}
		if !took {
			// Every task offered was refused: the clone learns what the
			// remote has now, and the agent tries them all again.
			clear(refused)
			rep, err := s.Push(ctx)
			t.call(rep, err)
		}
	}
}

// pick chooses a task that plan addr offers and that was not refused, at
// random so that agents spread over the plan; open reports that the plan
// has a task not completed yet.
func pick(ctx context.Context, p *plan.Plans, addr string, refused map[string]bool) (task string, open bool, err error) {
	next, err := p.NextTasks(ctx, addr)
	if err != nil {
		return "", false, err
	}
	prog, err := p.Progress(ctx, addr)
	if err != nil {
		return "", false, err
	}
	open = prog.Counts[taskdoc.StatusCompleted] < prog.Total
	var free []string
	for _, n := range next {
		if !refused[n.ID] {
			free = append(free, n.ID)
		}
	}
	if len(free) == 0 {
		return "", open, nil
	}
	return free[rand.IntN(len(free))], open, nil
}

// do claims task for id, starts it and completes it; false when the
// claim was refused or a call failed.
func do(ctx context.Context, s *gitsync.Sync, id, task string, t *tally) bool {
	res, err := s.Claim(ctx, task, id)
	if taskdoc.CodeOf(err) == taskdoc.CodeInvalidTransition {
		// Completed by another machine since this clone last fetched: a
		// refusal, as a task another agent holds.
		err = nil
	}
	t.call(res.Report, err)
	if err != nil || !res.Success {
		return false
	}
	c := plan.Claimant{Agent: id, Token: res.Claim.Token}
	for _, u := range []plan.StatusUpdate{{Status: taskdoc.StatusInProgress}, {Status: taskdoc.StatusCompleted, Note: "Done by " + id + "."}} {
		// A failed call is counted and made again (a retried change is
		// made once), so that the agent does not leave its task held.
		var err error
		for range 3 {
			var got gitsync.StatusResult
			got, err = s.UpdateStatus(ctx, task, c, u)
			t.call(got.Report, err)
			if err == nil || ctx.Err() != nil {
				break
			}
		}
		if err != nil {
			return false
		}
	}
	t.mu.Lock()
	t.Completed++
	t.mu.Unlock()
	return true
}
