package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
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
	rep, err := s.run(ctx, []string{t.File}, func(ctx context.Context) (string, error) {
		res = plan.ClaimResult{}
		holder, lapsed, err := s.beforeClaim(ctx, t, agentID)
		if err != nil || holder != "" {
			res.AlreadyClaimedBy = holder
			return "", err
		}
		res, err = s.plans.Claim(ctx, task, agentID)
		if res.Claim != nil && res.Claim.TookOverFrom == "" && lapsed != "" && lapsed != agentID {
			res.Claim.TookOverFrom = lapsed
		}
		return fmt.Sprintf("taskmd: %s claims %s", agentID, t.Address()), err
	})
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
func (s *Sync) Push(ctx context.Context) (Report, error) {
	return s.run(ctx, nil, func(context.Context) (string, error) { return "", nil })
}

// Queued is how many commits the clone has that its remote's branch did
// not have when it was last reached.
func (s *Sync) Queued(ctx context.Context) (int, error) {
	ahead, _, err := s.counts(ctx)
	return ahead, err
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

// run makes the change fn, which may write the workspace files files,
// under the clone's lock, with a person's uncommitted edits set aside, and
// shares it.
func (s *Sync) run(ctx context.Context, files []string, fn change) (rep Report, err error) {
	err = s.ws.Lock(ctx, []string{asideFile, changeFile}, func(tx *workspace.Tx) error {
		if err := s.clearLocks(time.Now()); err != nil {
			return err
		}
		if err := s.settle(ctx, tx); err != nil {
			return err
		}
		prior, err := s.recoverAside(ctx, tx)
		if err != nil {
			return err
		}
		sha, err := s.setAside(ctx, tx)
		if err != nil {
			return err
		}
		s.released = map[string]string{}
		if err = s.begin(tx, files); err == nil {
			rep, err = s.share(ctx, files, fn)
		}
		if len(s.released) > 0 {
			rep.Released = s.released
		}
		if err != nil {
			// Whatever the change left half made goes, so that the call
			// changes nothing; failing that, the next call takes it back.
			if serr := s.settle(ctx, tx); serr != nil {
				err = errors.Join(err, serr)
			}
		} else {
			err = tx.Remove(changeFile)
		}
		if sha != "" {
			conflicts, kept, perr := s.putBack(ctx, tx, sha)
			rep.Conflicts, rep.Stash = conflicts, kept
			if err == nil {
				err = perr
			}
		}
		if rep.Stash == "" && prior.Stash != "" {
			rep.Conflicts, rep.Stash = prior.Conflicts, prior.Stash
		}
		return err
	})
	return rep, err
}

// share makes the change fn on the remote's branch: it merges the remote,
// makes the change, commits it and pushes, again while the push is
// rejected because the remote moved.
func (s *Sync) share(ctx context.Context, files []string, fn change) (Report, error) {
	var rep Report
	for {
		rep.Attempts++
		ahead, offline, err := s.integrate(ctx)
		if err != nil {
			return rep, err
		}
		before, err := s.snapshot(ctx, files)
		if err != nil {
			return rep, err
		}
		msg, err := fn(ctx)
		if err != nil {
			return rep, err
		}
		paths, added, err := s.changed(ctx, files, before)
		if err != nil {
			return rep, err
		}
		if len(paths) > 0 {
			if rep.Commit, err = s.commit(ctx, paths, added, msg); err != nil {
				// The change is taken back (settle, in run), so that the
				// call changes nothing.
				return rep, err
			}
		}
		if rep.Commit != "" {
			ahead++
		}
		if offline != "" {
			rep.Queued, rep.Offline = ahead > 0, offline
			return rep, nil
		}
		if ahead == 0 {
			return rep, nil
		}
		if s.beforePush != nil {
			s.beforePush()
		}
		rejected, offline, err := s.push(ctx)
		switch {
		case err != nil:
			// The remote refused the change for good (a hook, a protected
			// branch): it is taken back, so that the call changes nothing.
			if rep.Commit != "" {
				if uerr := s.uncommit(ctx, rep.Commit); uerr != nil {
					return rep, uerr
				}
				rep.Commit = ""
			}
			return rep, err
		case offline != "":
			rep.Queued, rep.Offline = true, offline
			return rep, nil
		case !rejected:
			rep.Pushed = true
			return rep, nil
		}
		if rep.Commit != "" {
			if err := s.uncommit(ctx, rep.Commit); err != nil {
				return rep, err
			}
			rep.Commit = ""
		}
		if rep.Attempts >= s.attempts {
			return rep, &taskdoc.Error{Code: taskdoc.CodeConflict, Msg: fmt.Sprintf(
				"%s/%s moved under each of %d attempts; the change was not shared: try again", s.remote, s.branch, rep.Attempts)}
		}
		if err := s.pause(ctx, rep.Attempts); err != nil {
			return rep, err
		}
	}
}

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
