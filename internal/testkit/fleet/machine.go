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
	Completed int `json:"completed"`
	Calls     int `json:"calls"`
	Failed    int `json:"failed"`
	Pushed    int `json:"pushed"`   // calls whose change reached the remote
	Rejected  int `json:"rejected"` // pushes the remote rejected on the way
	// Waits are how long each call that changed a task took (seconds),
	// from the call to its answer.
	Waits  []float64 `json:"waits"`
	Errors []string  `json:"errors,omitempty"`
}

// tally is a machine's report, shared by its agents.
type tally struct {
	mu sync.Mutex
	machineReport
}

// change counts one gitsync call that changed a task, made at start.
func (t *tally) change(start time.Time, rep gitsync.Report, err error) {
	t.mu.Lock()
	if err == nil {
		t.Waits = append(t.Waits, time.Since(start).Seconds())
	}
	t.mu.Unlock()
	t.call(rep, err)
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
// every plan is done, each agent starting on a plan of its own, or all on
// plan i (planAMachine). With plan refs, it then brings the remote's
// branch up to date (Push).
func machine(ctx context.Context, dir string, i, agents, plans int, planRefs, planAMachine bool) (machineReport, error) {
	ws, err := workspace.Open(dir)
	if err != nil {
		return machineReport{}, err
	}
	defer ws.Close()
	p := plan.New(ws)
	var opts []gitsync.Option
	if planRefs {
		opts = append(opts, gitsync.WithPlanRefs())
	}
	s, err := gitsync.New(ctx, ws, p, opts...)
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
		first := (i*agents + a) % plans
		if planAMachine {
			first = i % plans
		}
		wg.Go(func() { work(ctx, s, p, id, first, plans, &t) })
	}
	beat, stop := context.WithCancel(ctx)
	go heartbeat(beat, p.Agents(), s, ids)
	wg.Wait()
	stop()
	if planRefs {
		rep, err := s.Push(ctx)
		t.call(rep, err)
	}
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

// work is one agent: it takes the plans in turn from first and claims the
// next task that a plan offers (gitsync's ClaimNext), starts and
// completes it, until every plan is done or ctx ends. A plan that offers
// nothing on the clone, as last merged, is passed over without a call;
// when no plan offered a task while some are not done (the last tasks are
// held), the agent waits a moment and learns what the remote has (Push),
// as the agent protocol says to poll again after a short delay.
func work(ctx context.Context, s *gitsync.Sync, p *plan.Plans, id string, first, plans int, t *tally) {
	done := make([]bool, plans)
	for ctx.Err() == nil {
		took, open := false, false
		for k := range plans {
			i := (first + k) % plans
			addr := "/" + PlanFile(i)
			for !done[i] && ctx.Err() == nil {
				offered, left, err := offers(ctx, p, addr)
				if err != nil {
					t.call(gitsync.Report{}, err)
					return
				}
				done[i], open = !left, open || left
				if !offered {
					break
				}
				start := time.Now()
				res, err := s.ClaimNext(ctx, addr, id)
				if err != nil || !res.Success {
					t.call(res.Report, err)
					break
				}
				t.change(start, res.Report, err)
				took = true
				do(ctx, s, id, *res.Claim, t)
			}
		}
		if !open {
			return
		}
		if !took {
			select {
			case <-ctx.Done():
			case <-time.After(idle/2 + rand.N(idle)):
			}
			rep, err := s.Push(ctx)
			t.call(rep, err)
		}
	}
}

// offers reports whether plan addr, on the clone as last merged, offers a
// task, and whether it has a task not completed yet (left).
func offers(ctx context.Context, p *plan.Plans, addr string) (offered, left bool, err error) {
	next, err := p.NextTasks(ctx, addr)
	if err != nil {
		return false, false, err
	}
	prog, err := p.Progress(ctx, addr)
	if err != nil {
		return false, false, err
	}
	return len(next) > 0, prog.Counts[taskdoc.StatusCompleted] < prog.Total, nil
}

// idle is about how long an agent that found nothing to claim waits
// before it asks again.
const idle = 300 * time.Millisecond

// do starts and completes the task of claim c; a failed call is counted
// and made again (a retried change is made once), so that the agent does
// not leave its task held.
func do(ctx context.Context, s *gitsync.Sync, id string, cl plan.Claim, t *tally) {
	c := plan.Claimant{Agent: id, Token: cl.Token}
	for _, u := range []plan.StatusUpdate{{Status: taskdoc.StatusInProgress}, {Status: taskdoc.StatusCompleted, Note: "Done by " + id + "."}} {
		var err error
		for range 3 {
			start := time.Now()
			var got gitsync.StatusResult
			got, err = s.UpdateStatus(ctx, cl.Task, c, u)
			t.change(start, got.Report, err)
			if err == nil || ctx.Err() != nil {
				break
			}
		}
		if err != nil {
			return
		}
	}
	t.mu.Lock()
	t.Completed++
	t.mu.Unlock()
}
