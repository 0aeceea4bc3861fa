package gitsync

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Group commit: the calls that one Sync receives while it is sharing a
// change wait in its queue, and the next of them to be served takes the
// whole queue as one batch: one fetch and merge, each call's change made
// and committed in turn (a commit each, with its own message), and one
// push for them all. Each call is told its own result. A rejected push
// takes every commit of the batch back and makes each change again on
// the merged plan, as for one call, so that a retried change is still made
// once.

// call is one operation waiting in the queue, and then its result.
type call struct {
	ctx   context.Context
	files []string
	fn    change
	rep   Report
	err   error
	done  chan struct{} // closed when rep and err are final
	lead  chan struct{} // closed when this call is to serve the queue
}

// queue is a Sync's calls waiting to be shared.
type queue struct {
	mu      sync.Mutex
	calls   []*call
	serving bool // a call is serving the queue
	// cycle is how long an attempt takes (a moving average).
	cycle time.Duration
	// seen is the waiting ref as this Sync last fetched it, signal the
	// commit it last forced it to (see waitingRefs).
	seen, signal string
}

// run makes the change fn, which may write the workspace files files,
// under the clone's lock, with a person's uncommitted edits set aside, and
// shares it, together with the calls that wait with it.
func (s *Sync) run(ctx context.Context, files []string, fn change) (Report, error) {
	c := &call{ctx: ctx, files: files, fn: fn, done: make(chan struct{}), lead: make(chan struct{})}
	q := &s.queue
	q.mu.Lock()
	q.calls = append(q.calls, c)
	first := !q.serving
	q.serving = true
	q.mu.Unlock()
	if first {
		close(c.lead)
	}
	select {
	case <-c.done:
	case <-c.lead:
		s.serve()
	case <-ctx.Done():
		q.mu.Lock()
		select {
		case <-c.lead: // its turn came at the same moment: it serves
			q.mu.Unlock()
			s.serve()
			<-c.done
			return c.rep, c.err
		default:
		}
		if i := indexOf(q.calls, c); i >= 0 {
			q.calls = append(q.calls[:i], q.calls[i+1:]...)
			q.mu.Unlock()
			return Report{}, cancelled(ctx)
		}
		q.mu.Unlock()
		// Taken into a batch already: its result comes.
		select {
		case <-c.done:
		case <-c.lead:
			s.serve()
		}
	}
	<-c.done
	return c.rep, c.err
}

// serve shares the waiting calls as one batch, then passes the queue on
// to the first call that arrived meanwhile.
func (s *Sync) serve() {
	q := &s.queue
	q.mu.Lock()
	batch := q.calls
	q.calls = nil
	q.mu.Unlock()
	s.lockAndShare(batch)
	for _, c := range batch {
		close(c.done)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.calls) == 0 {
		q.serving = false
		return
	}
	close(q.calls[0].lead)
}

// lockAndShare shares batch under the clone's lock, with a person's
// uncommitted edits set aside, after what a crashed call left behind is
// settled (stale git locks, a half-made change, an interrupted aside); an
// error of the lock, of the settling or of the aside is every call's.
func (s *Sync) lockAndShare(batch []*call) {
	ctx, stop := batchContext(batch)
	defer stop()
	var prior Report
	err := s.ws.Lock(ctx, []string{asideFile, changeFile}, func(tx *workspace.Tx) error {
		if err := s.clearLocks(time.Now()); err != nil {
			return err
		}
		if err := s.settle(ctx, tx, nil); err != nil {
			return err
		}
		var err error
		if prior, err = s.recoverAside(ctx, tx); err != nil {
			return err
		}
		sha, err := s.setAside(ctx, tx)
		if err != nil {
			return err
		}
		s.released = map[string]string{}
		rec, err := s.begin(tx, batchFiles(batch))
		if err != nil {
			fail(batch, err)
		} else {
			s.share(ctx, tx, rec, batch)
		}
		for _, c := range batch {
			if len(s.released) > 0 {
				c.rep.Released = s.released
			}
		}
		// Whatever a failed change left half made goes, so that its call
		// changes nothing; failing that, the next call takes it back. This
		// and putting a person's edits back are done even when every call
		// has given up: only the clone's git commands run, no network.
		ctx := context.WithoutCancel(ctx)
		if failed(batch) {
			if err := s.settle(ctx, tx, rec); err != nil {
				for _, c := range batch {
					c.err = errors.Join(c.err, err)
				}
			}
		} else if err := tx.Remove(changeFile); err != nil {
			fail(batch, err)
		}
		if sha != "" {
			conflicts, kept, perr := s.putBack(ctx, tx, sha)
			for _, c := range batch {
				c.rep.Conflicts, c.rep.Stash = conflicts, kept
				if c.err == nil {
					c.err = perr
				}
			}
		}
		return nil
	})
	for _, c := range batch {
		if err != nil && c.err == nil {
			c.err = err
		}
		if c.rep.Stash == "" && prior.Stash != "" {
			c.rep.Conflicts, c.rep.Stash = prior.Conflicts, prior.Stash
		}
	}
}

// share makes the changes of batch on the remote's branch: it merges the
// remote, makes each change and commits it, and pushes them all, again
// while the push is rejected because the remote moved. A call whose
// change fails, or whose context ends before it is pushed, leaves the
// batch with its error and nothing of it committed.
func (s *Sync) share(ctx context.Context, tx *workspace.Tx, rec *record, batch []*call) {
	live := batch
	yielded := 0
	for attempt := 1; ; attempt++ {
		for _, c := range live {
			c.rep.Attempts++
		}
		began := time.Now()
		ahead, offline, err := s.integrate(ctx)
		if err != nil {
			fail(live, err)
			return
		}
		if yielded < maxYields && s.othersWait(ctx) {
			// Another machine keeps losing the race: this batch lets it
			// push first, and merges its change.
			yielded++
			for _, c := range live {
				c.rep.Attempts--
			}
			if err := s.letWaitingGo(ctx); err != nil {
				fail(live, err)
				return
			}
			attempt--
			continue
		}
		live = s.makeAll(tx, rec, live)
		var first string
		for _, c := range live {
			if c.rep.Commit != "" {
				ahead++
				if first == "" {
					first = c.rep.Commit
				}
			}
		}
		if offline != "" {
			for _, c := range live {
				c.rep.Queued, c.rep.Offline = ahead > 0, offline
			}
			return
		}
		if ahead == 0 || len(live) == 0 {
			return
		}
		if s.beforePush != nil {
			s.beforePush()
		}
		rejected, offline, err := s.push(ctx)
		s.timeCycle(time.Since(began))
		switch {
		case err != nil:
			// The remote refused the changes for good (a hook, a protected
			// branch): they are taken back, so that the calls change nothing.
			if uerr := s.takeBack(ctx, live, first); uerr != nil {
				err = uerr
			}
			fail(live, err)
			return
		case offline != "":
			for _, c := range live {
				c.rep.Queued, c.rep.Offline = true, offline
			}
			return
		case !rejected:
			for _, c := range live {
				c.rep.Pushed = true
			}
			return
		}
		if err := s.takeBack(ctx, live, first); err != nil {
			fail(live, err)
			return
		}
		if s.attempts > 0 && attempt >= s.attempts {
			fail(live, &taskdoc.Error{Code: taskdoc.CodeConflict, Msg: fmt.Sprintf(
				"%s/%s moved under each of %d attempts; the change was not shared: try again", s.remote, s.branch, attempt)})
			return
		}
		if attempt >= waitAfter {
			s.sayWaiting(ctx, attempt)
		}
		if err := s.pause(ctx, attempt); err != nil {
			fail(live, err)
			return
		}
		live = stillWaiting(live)
	}
}

// makeAll makes the change of each call of live in turn on the merged
// clone and commits it, recording (rec) what each change wrote before
// its commit; it returns the calls still in the batch (those whose change
// failed have their error).
func (s *Sync) makeAll(tx *workspace.Tx, rec *record, live []*call) []*call {
	kept := live[:0:0]
	for _, c := range live {
		if c.ctx.Err() != nil {
			c.err = cancelled(c.ctx)
			continue
		}
		before, err := s.snapshot(c.ctx, c.files)
		if err != nil {
			c.fail(err)
			continue
		}
		msg, err := c.fn(c.ctx)
		if err != nil {
			// What it wrote before it failed is the change's, to take back.
			if werr := s.wrote(tx, rec, c.files); werr != nil {
				err = errors.Join(err, werr)
			}
			c.fail(err)
			continue
		}
		paths, added, err := s.changed(c.ctx, c.files, before)
		if err != nil {
			c.fail(err)
			continue
		}
		if len(paths) > 0 {
			if err := s.wrote(tx, rec, c.files); err != nil {
				c.fail(err) // taken back as below
				continue
			}
			if c.rep.Commit, err = s.commit(c.ctx, paths, added, msg); err != nil {
				// The change is taken back (settle, in lockAndShare), so
				// that the call changes nothing.
				c.rep.Commit = ""
				c.fail(err)
				continue
			}
		}
		kept = append(kept, c)
	}
	return kept
}

// takeBack undoes the commits of the batch, from first on: the branch
// goes back to first's parent, the files to its version.
func (s *Sync) takeBack(ctx context.Context, live []*call, first string) error {
	if first == "" {
		return nil
	}
	for _, c := range live {
		c.rep.Commit = ""
	}
	return s.uncommit(ctx, first)
}

// waitingRefs is where machines that keep losing the race for the
// remote say so: a ref a machine forces with a new commit each time it
// loses again (refs/taskmd/waiting/<branch>), which every machine fetches.
// A machine that pushes while another says it waits rests a moment
// before its next push, so that the one waiting gets its turn.
const waitingRefs = "refs/taskmd/waiting/"

// waitingRef is the remote-tracking ref of the waiting ref of branch
// (a glob with "*").
func (s *Sync) waitingRef(branch string) string {
	return "refs/taskmd/" + s.remote + "/waiting/" + branch
}

// othersWait reports whether another machine said it waits since this
// Sync last looked: the fetched waiting ref moved, and not by this Sync.
func (s *Sync) othersWait(ctx context.Context) bool {
	out, err := s.git(ctx, "rev-parse", "-q", "--verify", s.waitingRef(s.branch))
	if err != nil {
		return false // no machine ever waited
	}
	sha := strings.TrimSpace(out)
	q := &s.queue
	q.mu.Lock()
	defer q.mu.Unlock()
	seen := q.seen
	q.seen = sha
	return seen != sha && sha != q.signal
}

// sayWaiting tells the other machines that this one lost the race again:
// it forces the waiting ref to a new commit (the tree of HEAD, which the
// remote mostly has). A failure only means the others are not told.
func (s *Sync) sayWaiting(ctx context.Context, attempt int) {
	sha, err := s.gitAs(ctx, "commit-tree", "HEAD^{tree}", "-p", "HEAD",
		"-m", fmt.Sprintf("taskmd: waiting to push to %s (attempt %d, %s)", s.branch, attempt, time.Now().UTC().Format(time.RFC3339Nano)))
	if err != nil {
		return
	}
	sha = strings.TrimSpace(sha)
	if _, err := s.git(ctx, "push", "-q", "-f", s.remote, sha+":"+waitingRefs+s.branch); err != nil {
		return
	}
	s.queue.mu.Lock()
	s.queue.signal = sha
	s.queue.mu.Unlock()
}

// letWaitingGo waits between half a cycle and one and a half, the head start
// that a machine that just pushed has on the machines it beat, so that a
// machine that keeps losing gets the remote.
func (s *Sync) letWaitingGo(ctx context.Context) error {
	s.queue.mu.Lock()
	cycle := max(s.queue.cycle, cycleMin)
	s.queue.mu.Unlock()
	return sleep(ctx, cycle/2+rand.N(cycle))
}

// timeCycle records how long an attempt took, from the fetch to the
// push's answer: the pauses are measured in it.
func (s *Sync) timeCycle(d time.Duration) {
	d = min(max(d, cycleMin), cycleMax)
	s.queue.mu.Lock()
	defer s.queue.mu.Unlock()
	if s.queue.cycle == 0 {
		s.queue.cycle = d
	}
	s.queue.cycle = (3*s.queue.cycle + d) / 4
}

// The pauses between attempts, measured in cycles (how long an attempt
// takes on this clone, a moving average within cycleMin and cycleMax):
// full jitter, a random wait up to 2×spread cycles after a first rejected
// push, so that machines racing on one remote spread out, and up to
// 2/attempt cycles after the later ones. A machine that keeps losing does
// not wait longer and longer: it says it waits (waitAfter) and tries again
// the sooner the longer it has lost, and a machine about to push while
// another waits lets it go first (letWaitingGo), up to maxYields times a batch.
const (
	spread   = 2
	cycleMin = 10 * time.Millisecond
	cycleMax = time.Second
	// waitAfter is the attempt from which a machine says it waits.
	waitAfter = 2
	// maxYields is how many times a batch lets machines that wait go
	// first, so that it does not wait for good either.
	maxYields = 3
)

// backoff waits before attempt+1 (see spread).
func (s *Sync) backoff(ctx context.Context, attempt int) error {
	s.queue.mu.Lock()
	// The longer a machine has lost, the sooner it tries again: among
	// machines that wait, the one that waited longest is first.
	bound := max(s.queue.cycle, cycleMin) * waitAfter / time.Duration(attempt)
	if attempt < waitAfter {
		bound *= spread
	}
	s.queue.mu.Unlock()
	return sleep(ctx, rand.N(bound)+time.Millisecond)
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return cancelled(ctx)
	}
}

// cancelled is the error of a call whose context ended before its change
// was shared: nothing of it is left.
func cancelled(ctx context.Context) error {
	return &taskdoc.Error{Code: taskdoc.CodeConflict, Err: ctx.Err(),
		Msg: fmt.Sprintf("sharing the change: %v; it was not shared: try again", ctx.Err())}
}

// fail ends every call of live with err; a call whose context ended
// (the git command was stopped for it) ends with that.
func fail(live []*call, err error) {
	for _, c := range live {
		if c.err == nil {
			c.fail(err)
		}
	}
}

// fail ends c with err, or, when its context ended (which is what stops
// a git command or a lock wait made for it), with that.
func (c *call) fail(err error) {
	if c.ctx.Err() != nil {
		err = cancelled(c.ctx)
	}
	c.err = err
}

// stillWaiting is live without the calls whose context ended, which end
// with that.
func stillWaiting(live []*call) []*call {
	kept := live[:0:0]
	for _, c := range live {
		if c.ctx.Err() != nil {
			c.err = cancelled(c.ctx)
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// batchContext is a context that ends when every call of batch has
// given up (a call that ends alone leaves the batch at the next step).
func batchContext(batch []*call) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(batch[0].ctx))
	left := atomic.Int64{}
	left.Store(int64(len(batch)))
	stops := make([]func() bool, len(batch))
	for i, c := range batch {
		stops[i] = context.AfterFunc(c.ctx, func() {
			if left.Add(-1) == 0 {
				cancel()
			}
		})
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}

func indexOf(calls []*call, c *call) int {
	for i, x := range calls {
		if x == c {
			return i
		}
	}
	return -1
}

// batchFiles are the workspace files the calls of batch may write, each
// once.
func batchFiles(batch []*call) []string {
	var out []string
	for _, c := range batch {
		for _, f := range c.files {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// failed reports whether a call of batch failed.
func failed(batch []*call) bool {
	return slices.ContainsFunc(batch, func(c *call) bool { return c.err != nil })
}
