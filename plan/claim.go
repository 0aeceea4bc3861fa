package plan

import (
	"context"
	"fmt"
	"time"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/taskdoc"
)

// Claim is a task held by an agent.
type Claim struct {
	Task  string `json:"task_id"`  // "/api/auth.md#implement-jwt-signing"
	Agent string `json:"agent_id"` // the holder
	// Token is the claim's fencing token: it grows with every new claim of
	// the task and survives restarts. The holder presents it
	// (Claimant.Token) with every write it makes on the task.
	Token   int64     `json:"token"`
	Claimed time.Time `json:"claimed"` // when the claim was made (UTC)
	// TookOverFrom is the agent that held the task before, whose lease ran
	// out (it went offline or was unregistered); "" when the task was free.
	TookOverFrom string `json:"took_over_from,omitempty"`
}

// ClaimResult answers Claim, with the protocol's field names.
type ClaimResult struct {
	Success bool `json:"success"`
	// AlreadyClaimedBy is the agent holding the task, when another agent
	// does and it is online (Success is false).
	AlreadyClaimedBy string `json:"already_claimed_by,omitempty"`
	// Claim is the claim the agent holds (Success is true).
	Claim *Claim `json:"claim,omitempty"`
}

// Claim claims task for agentID (the agent protocol's task_claim), atomically across
// goroutines and processes: of agents claiming one free task at once,
// exactly one succeeds and every other is told who holds it.
//
//   - A task no agent holds is claimed: it gets a new fencing token, and its
//     Assignee field in the plan names the agent.
//   - The holder claiming again succeeds with the claim it holds (same
//     token): a retried claim changes nothing.
//   - A task held by another agent that is online is not claimed: Success is
//     false and AlreadyClaimedBy names the holder.
//   - A task whose holder is offline (its heartbeats stopped for longer than
//     the timeout) or unregistered is taken over: a new claim with a new
//     token, TookOverFrom naming the previous holder, recorded in the
//     claims file. Every later write of the previous holder presenting its
//     old token is STALE_CLAIM.
//
// The task's status is not changed: a stranded task in progress stays in
// progress for its new holder, a pending one is started with UpdateStatus.
// A completed or skipped task cannot be claimed (INVALID_TRANSITION), nor
// a pending one whose dependencies are not all done (TASK_BLOCKED naming
// them: the start the claim leads to would be refused). An
// agent that is not registered is AGENT_NOT_FOUND, a task that does not
// exist TASK_NOT_FOUND or DOCUMENT_NOT_FOUND; nothing is written then.
func (p *Plans) Claim(ctx context.Context, task, agentID string) (ClaimResult, error) {
	return p.claim(ctx, task, agentID, false)
}

// CheckClaim answers what Claim of task for agentID would answer, the
// holder that keeps it and every refusal, and writes nothing: a caller
// that writes something else first (a pivot's checkpoint and pause) asks
// it before, so that a refused claim leaves every file as it was.
func (p *Plans) CheckClaim(ctx context.Context, task, agentID string) (ClaimResult, error) {
	return p.claim(ctx, task, agentID, true)
}

// claim is Claim, or with check its answer alone (claims.Change.Check).
func (p *Plans) claim(ctx context.Context, task, agentID string, check bool) (ClaimResult, error) {
	t, err := taskTarget(task)
	if err != nil {
		return ClaimResult{}, err
	}
	if _, err := p.agents.Get(ctx, agentID); err != nil {
		return ClaimResult{}, err
	}
	var res ClaimResult
	ch := p.change(t, Claimant{})
	ch.Unfenced, ch.Check = true, check // who may claim is Claim's own rule
	ch.Apply = func(doc *taskdoc.Document, tk *taskdoc.Task, st *claims.File) (*taskdoc.Document, error) {
		if tk.Status.Final() {
			return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: t.Path, Slug: t.Slug,
				Msg: fmt.Sprintf("task %q in %s is %s: there is nothing left to claim", t.Slug, t.Path, tk.Status)}
		}
		if err := p.checkClaimable(ctx, t, doc, tk); err != nil {
			return nil, err
		}
		assignee, _ := tk.Field(taskdoc.KeyAssignee)
		holder := st.Holder(t.Slug, assignee)
		if rec := st.Record(t.Slug); holder == "" && assignee != "" && assignee != agentID && rec.Released != assignee && rec.Ended != assignee && p.online(ctx, assignee) {
			// Shown but not recorded (a renamed task, a hand edit): the
			// agent it names may be working on it; it claims it again.
			// An Assignee whose claim the record says was let go (left
			// by an older version's release, which wrote the claims
			// file first) or ended (a done task a person reopened)
			// holds nothing.
			res = ClaimResult{AlreadyClaimedBy: assignee}
			return nil, nil
		}
		cur := st.Record(t.Slug)
		switch {
		case holder == agentID:
		case holder != "" && p.online(ctx, holder):
			res = ClaimResult{AlreadyClaimedBy: holder}
			return nil, nil
		default:
			cur = st.Grant(t.Slug, agentID, holder, p.cfg.Now())
		}
		res = ClaimResult{Success: true, Claim: &Claim{Task: t.Address(), Agent: cur.Agent, Token: cur.Token,
			Claimed: cur.Claimed, TookOverFrom: cur.TookOverFrom}}
		if assignee == agentID {
			return nil, nil
		}
		nd, _, err := doc.SetField(t.Slug, taskdoc.KeyAssignee, agentID)
		if err != nil {
			return nil, err
		}
		return nd, nil
	}
	if _, err := claims.Make(ctx, p.ws, ch); err != nil {
		return ClaimResult{}, err
	}
	return res, nil
}

// online reports whether agent id is registered and online now; an agent
// that cannot be read is taken as offline (its lease is over).
func (p *Plans) online(ctx context.Context, id string) bool {
	a, err := p.agents.Get(ctx, id)
	return err == nil && a.Online
}

// Release gives up the claim c holds on task (the agent protocol's task_release):
// the task is free for any agent, and its Assignee field is removed. Only
// the holder may release, presenting its claim: any other Claimant is
// STALE_CLAIM and nothing is written. A retried Release (the claim c
// presents was the task's last, and was released) succeeds without
// writing. The task's status is not changed: a released task in progress
// is offered again by NextTasks.
func (p *Plans) Release(ctx context.Context, task string, c Claimant) error {
	t, err := taskTarget(task)
	if err != nil {
		return err
	}
	if err := c.check(); err != nil {
		return err
	}
	if c.Agent == "" || c.Token == 0 {
		return invalid(fmt.Sprintf("releasing %s needs the id of the agent holding it and its claim's token", task))
	}
	ch := p.change(t, c)
	retry := false
	ch.Retried = func(st *claims.File, _ *taskdoc.Task) bool {
		rec := st.Record(t.Slug)
		retry = st.ReleasedBy(t.Slug, c.Agent, c.Token) || rec.Agent == "" && rec.Token == c.Token && rec.Ended == c.Agent
		return retry // released or ended already, this claim
	}
	ch.Apply = func(doc *taskdoc.Document, tk *taskdoc.Task, st *claims.File) (*taskdoc.Document, error) {
		if retry {
			return nil, nil
		}
		st.Release(t.Slug)
		if v, _ := tk.Field(taskdoc.KeyAssignee); v != c.Agent {
			return nil, nil
		}
		nd, _, err := doc.RemoveField(t.Slug, taskdoc.KeyAssignee)
		return nd, err
	}
	_, err = claims.Make(ctx, p.ws, ch)
	return err
}
