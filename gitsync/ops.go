package gitsync

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// ClaimResult answers Claim: plan's answer (who holds the task) and what
// became of the change.
type ClaimResult struct {
	plan.ClaimResult
	Report
}

// StatusResult answers UpdateStatus: the task as it now stands and what
// became of the change.
type StatusResult struct {
	Task taskdoc.Task `json:"task"`
	Report
}

// Claim claims task for agentID as plan.Plans.Claim does, on the plan as
// the remote has it: it fetches and merges the remote, claims, commits the
// document and pushes. When another machine pushed first, the claim is
// taken back and made again on the merged plan, so that of machines
// claiming one task exactly one holds it and every other is told who does
// (AlreadyClaimedBy). A task whose Assignee names an agent this clone does
// not know is held by another machine's agent while its lease runs; once
// it ended the claim takes the task over (Claim.TookOverFrom), with a
// token above every token any machine gave in the plan. The claim is
// pushed with this machine's leases. A retried claim commits nothing, and
// an agent's claim of a task it holds answers with its claim. When the
// remote cannot be reached the claim is made and committed here, Queued:
// it holds once Push sends it, unless another machine's claim was pushed
// first (Report.Released).
func (s *Sync) Claim(ctx context.Context, task, agentID string) (ClaimResult, error) {
	t, err := taskflow.ParseDocs(task)
	if err != nil {
		return ClaimResult{}, err
	}
	var res plan.ClaimResult
	rep, err := s.run(ctx, []string{t.File}, func(ctx context.Context) (msg string, err error) {
		res, msg, err = s.claim(ctx, t, task, agentID)
		return msg, err
	})
	return s.claimed(ctx, res, rep, err)
}

// ClaimNext claims for agentID the first task of plan ("/api/auth.md")
// that NextTasks offers it, on the plan as the remote has it: a task it
// holds itself first (answered with its claim; one it paused, blocked or
// failed is not handed back), then the next free one.
// The task is chosen on the merged plan when the change is made, and again
// when a rejected push makes it again, so that machines claiming from one
// plan at once each get a task and none is refused: agents of a fleet
// claim with ClaimNext where they would list tasks and claim one, which
// another machine may have taken since the list was read. The claim is
// Claim's (leases, tokens, offline queue). When the plan offers nothing
// now (every task done, held, or waiting for a dependency), Success is
// false and AlreadyClaimedBy is "".
func (s *Sync) ClaimNext(ctx context.Context, planAddr, agentID string) (ClaimResult, error) {
	pt, err := taskflow.ParseDocs(planAddr)
	if err == nil && pt.Slug != "" {
		err = &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: pt.Path, Slug: pt.Slug,
			Msg: fmt.Sprintf("%q names a task: ClaimNext takes a plan, like %s (Claim takes a task)", planAddr, pt.Path)}
	}
	if err == nil {
		// Refused now, not only when the plan offers a task.
		_, err = s.plans.Agents().Get(ctx, agentID)
	}
	if err != nil {
		return ClaimResult{}, err
	}
	var res plan.ClaimResult
	rep, err := s.run(ctx, []string{pt.File}, func(ctx context.Context) (string, error) {
		res = plan.ClaimResult{}
		next, err := s.nextTasks(ctx, pt, planAddr, agentID)
		if err != nil {
			return "", err
		}
		for _, n := range next {
			// Work to do now: a started task (Stranded: in progress or
			// planning), or a pending one whose dependencies are done; not
			// a task of its own that it paused, blocked or failed.
			if !n.Stranded && (n.Status != taskdoc.StatusPending || !n.DependenciesCompleted) {
				continue
			}
			t, err := taskflow.ParseDocs(n.ID)
			if err != nil {
				return "", err
			}
			r, msg, err := s.claim(ctx, t, n.ID, agentID)
			if err != nil || r.Success {
				res = r
				return msg, err
			}
		}
		return "", nil
	})
	return s.claimed(ctx, res, rep, err)
}

// claim is Claim's change on the merged clone: task's claim for agentID,
// with the commit's message.
func (s *Sync) claim(ctx context.Context, t taskflow.Target, task, agentID string) (plan.ClaimResult, string, error) {
	holder, lapsed, err := s.beforeClaim(ctx, t, agentID)
	if err != nil || holder != "" {
		return plan.ClaimResult{AlreadyClaimedBy: holder}, "", err
	}
	res, err := s.plans.Claim(ctx, task, agentID)
	if res.Claim != nil && res.Claim.TookOverFrom == "" && lapsed != "" && lapsed != agentID {
		res.Claim.TookOverFrom = lapsed
	}
	return res, fmt.Sprintf("taskmd: %s claims %s", agentID, t.Address()), err
}

// claimed is the answer of a claim whose change ended with rep and err:
// a claim taken back holds nothing, and a claim that was held already
// (nothing committed) is shared with this machine's leases.
func (s *Sync) claimed(ctx context.Context, res plan.ClaimResult, rep Report, err error) (ClaimResult, error) {
	if err != nil {
		res = plan.ClaimResult{} // the claim was taken back: it holds nothing
	} else if res.Success && rep.Commit == "" && !rep.Queued && rep.Offline == "" {
		rep.Offline, err = s.shareLeases(ctx)
	}
	return ClaimResult{ClaimResult: res, Report: rep}, err
}

// UpdateStatus moves task through the status machine as
// plan.Plans.UpdateStatus does (completing it with u.Note), on the plan
// as the remote has it, and commits and pushes the change like Claim. The
// claim is checked on the merged plan: a claim that another machine's
// agent holds now is STALE_CLAIM and nothing is written.
func (s *Sync) UpdateStatus(ctx context.Context, task string, c plan.Claimant, u plan.StatusUpdate) (StatusResult, error) {
	t, err := taskflow.ParseDocs(task)
	if err != nil {
		return StatusResult{}, err
	}
	var out taskdoc.Task
	rep, err := s.run(ctx, []string{t.File}, func(ctx context.Context) (string, error) {
		if err := s.fence(ctx, t, c); err != nil {
			return "", err
		}
		tk, err := s.plans.UpdateStatus(ctx, task, c, u)
		out = tk
		return fmt.Sprintf("taskmd: %s marks %s %s", who(c), t.Address(), tk.Status), err
	})
	return StatusResult{Task: out, Report: rep}, err
}

// Release gives up c's claim on task as plan.Plans.Release does, and
// commits and pushes the change like Claim.
func (s *Sync) Release(ctx context.Context, task string, c plan.Claimant) (Report, error) {
	t, err := taskflow.ParseDocs(task)
	if err != nil {
		return Report{}, err
	}
	return s.run(ctx, []string{t.File}, func(ctx context.Context) (string, error) {
		if err := s.fence(ctx, t, c); err != nil {
			return "", err
		}
		return fmt.Sprintf("taskmd: %s releases %s", who(c), t.Address()), s.plans.Release(ctx, task, c)
	})
}

// Push sends the changes queued while the remote could not be reached,
// merging what other machines pushed meanwhile. Where another machine
// changed a task first (two machines claimed it, this one offline), the
// remote's version wins: this clone's queued changes of that task are
// given up, and Report.Released names the task with its holder. A
// conflict outside the tasks (a person's edits of the text on both
// sides) is MERGE_CONFLICT: nothing is merged, and a person settles it.
//
// With plan refs (WithPlanRefs), Push then brings the remote's branch up
// to date with every plan ref, again while another machine or a person
// moves the branch meanwhile, until ctx ends (or, with WithMaxAttempts,
// CONFLICT after as many attempts).
func (s *Sync) Push(ctx context.Context) (Report, error) {
	var sent Report // what the attempts before this one did
	for attempt := 1; ; attempt++ {
		c := &call{ctx: ctx, fold: s.planRefs, fn: func(context.Context) (string, error) { return "", nil }}
		rep, err := s.runCall(c)
		rep = sent.then(rep)
		if err != nil || !s.planRefs || rep.Offline != "" || c.folded {
			return rep, err
		}
		if s.attempts > 0 && attempt >= s.attempts {
			return rep, &taskdoc.Error{Code: taskdoc.CodeConflict, Msg: fmt.Sprintf(
				"%s/%s moved under each of %d attempts to bring it up to the plan refs: try Push again", s.remote, s.branch, attempt)}
		}
		if werr := sleep(ctx, s.backoff(attempt)); werr != nil {
			return rep, cancelled(ctx)
		}
		sent = rep
	}
}

// then is rep, the report of a call's attempt, after the call's earlier
// attempts reported prior (Push): what they pushed, gave up or kept in
// the stash is still told.
func (prior Report) then(rep Report) Report {
	rep.Pushed = rep.Pushed || prior.Pushed
	rep.Attempts += prior.Attempts
	if rep.Stash == "" && prior.Stash != "" {
		rep.Conflicts, rep.Stash = prior.Conflicts, prior.Stash
	}
	if len(prior.Released) > 0 {
		released := maps.Clone(prior.Released)
		maps.Copy(released, rep.Released)
		rep.Released = released
	}
	return rep
}

// Queued is how many commits the clone has that its remote's branch did
// not have when it was last reached (with plan refs: that neither the
// branch nor any plan ref had).
func (s *Sync) Queued(ctx context.Context) (int, error) {
	if s.planRefs {
		sh, err := s.readLeases(ctx)
		if err != nil {
			return 0, err
		}
		n, _, err := s.unpushed(ctx, s.tips(sh))
		return n, err
	}
	ahead, _, err := s.counts(ctx)
	return ahead, err
}

// sleep waits d, or until ctx ends (its error then).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// who names the claimant in a commit message.
func who(c plan.Claimant) string {
	if c.Agent == "" {
		return "a person"
	}
	return c.Agent
}

// change is an operation's change to the plan, made on the merged clone;
// it returns its commit message.
type change func(ctx context.Context) (msg string, err error)

// snapshot reads the workspace files files before a change (nil for a
// file that does not exist).
func (s *Sync) snapshot(ctx context.Context, files []string) ([][]byte, error) {
	out := make([][]byte, len(files))
	for i, f := range files {
		data, err := s.ws.ReadIfExists(ctx, f)
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

// changed returns the repository paths of the files that differ from
// before, and of those the ones that did not exist.
func (s *Sync) changed(ctx context.Context, files []string, before [][]byte) (paths, added []string, err error) {
	for i, f := range files {
		data, err := s.ws.ReadIfExists(ctx, f)
		if err != nil {
			return nil, nil, err
		}
		if bytes.Equal(data, before[i]) && (data == nil) == (before[i] == nil) {
			continue
		}
		paths = append(paths, s.path(f))
		if before[i] == nil {
			added = append(added, s.path(f))
		}
	}
	return paths, added, nil
}
