package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
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
	// reads are the plan files a call that writes none reads (with plan
	// refs, its batch merges their refs: see mergeTips).
	reads []string
	// fold asks the batch to bring the remote's branch up to the plan
	// refs once its changes are pushed (Push with plan refs, see fold);
	// folded reports that it landed, or that the remote was away.
	fold, folded bool
	fn           change
	// paths are the repository paths the call's commit changed (when
	// rep.Commit is set).
	paths []string
	rep   Report
	err   error
	done  chan struct{} // closed when rep and err are final
	lead  chan struct{} // closed when this call is to serve the queue
	// released is true when its batch ended it early (its caller gave up
	// during a pause): done is closed, and the batch no longer touches it.
	released bool
}

// queue is a Sync's calls waiting to be shared.
type queue struct {
	mu      sync.Mutex
	calls   []*call
	serving bool // a call is serving the queue
	// cycle is how long an attempt takes (a moving average).
	cycle time.Duration
	// seen is each waiting ref (by name, see waitNames) as this Sync last
	// fetched it, signal the commit it last forced it to (see waitingRefs).
	seen, signal map[string]string
}

// run makes the change fn, which may write the workspace files files,
// under the clone's lock, with a person's uncommitted edits set aside, and
// shares it, together with the calls that wait with it.
func (s *Sync) run(ctx context.Context, files []string, fn change) (Report, error) {
	return s.runCall(&call{ctx: ctx, files: files, fn: fn})
}

// runCall is run for the call c (its context, files, reads and change).
func (s *Sync) runCall(c *call) (Report, error) {
	ctx := c.ctx
	if err := s.checkTracked(ctx, c.files); err != nil {
		return Report{}, err
	}
	c.done, c.lead = make(chan struct{}), make(chan struct{})
	q := &s.queue
	q.mu.Lock()
	q.calls = append(q.calls, c)
	first := !q.serving
	q.serving = true
	q.mu.Unlock()
	if first {
		close(c.lead)
	}
	// The queue is served on a goroutine of its own, so that a caller who
	// gives up is not held by the batch it started: its call ends at the
	// batch's next step.
	select {
	case <-c.done:
	case <-c.lead:
		go s.serve()
	case <-ctx.Done():
		q.mu.Lock()
		select {
		case <-c.lead: // its turn came at the same moment: it serves
			q.mu.Unlock()
			go s.serve()
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
			go s.serve()
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
	batch = s.lockAndShare(batch)
	if s.maintenanceDue() {
		// Before the calls end, as git's commit runs its own: a process
		// that exits after its last call leaves none running.
		s.maintain()
	}
	for _, c := range batch {
		if !c.released {
			close(c.done)
		}
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
// error of the lock, of the settling or of the aside is every call's. It
// returns the batch with the calls it took in on the way (see share).
func (s *Sync) lockAndShare(batch []*call) []*call {
	b := newBatch(batch)
	defer b.stop()
	ctx := b.ctx
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
		// The pause comes before a person's edits are set aside: they stay
		// in their files while the batch waits (see pace).
		paced := false
		if slices.ContainsFunc(batch, func(c *call) bool { return len(c.files) > 0 }) {
			if pause := s.pace(ctx, batchFiles(batch)); pause > 0 {
				paced = true
				if _, err := s.wait(b, batch, pause); err != nil {
					return nil // every call gave up: each ended with its error
				}
			}
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
			s.share(ctx, tx, rec, b, paced)
			batch = b.calls
		}
		open := slices.DeleteFunc(slices.Clone(batch), func(c *call) bool { return c.released })
		for _, c := range open {
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
				for _, c := range open {
					c.err = errors.Join(c.err, err)
				}
			}
		} else if err := tx.Remove(changeFile); err != nil {
			fail(open, err)
		}
		if sha != "" {
			conflicts, kept, perr := s.putBack(ctx, tx, sha)
			for _, c := range open {
				c.rep.Conflicts, c.rep.Stash = conflicts, kept
				if c.err == nil {
					c.err = perr
				}
			}
		}
		return nil
	})
	for _, c := range batch {
		if c.released {
			continue
		}
		if err != nil && c.err == nil {
			c.fail(err) // a caller who gave up (the lock's wait ended for it) is told so
		}
		if c.rep.Stash == "" && prior.Stash != "" {
			c.rep.Conflicts, c.rep.Stash = prior.Conflicts, prior.Stash
		}
	}
	return batch
}

// share makes the changes of batch on the remote's branch: it merges the
// remote, makes each change and commits it, and pushes them all, again
// while the push is rejected because the remote moved. A call whose
// change fails, or whose context ends before it is pushed, leaves the
// batch with its error and nothing of it committed. Before each attempt
// after the first, and before the first when the batch paused before it
// (paced, see pace), the calls that arrived meanwhile join the batch (b):
// their changes are made on the merged plan like the others', so that
// machines racing for the remote push fewer, larger batches.
func (s *Sync) share(ctx context.Context, tx *workspace.Tx, rec *record, b *batch, paced bool) {
	live := slices.DeleteFunc(slices.Clone(b.calls), func(c *call) bool { return c.released })
	yielded := 0
	for attempt := 1; ; attempt++ {
		if attempt > 1 || paced {
			joined, err := s.takeIn(tx, rec, b)
			if err != nil {
				fail(live, err)
				return
			}
			live = append(live, joined...)
		}
		for _, c := range live {
			c.rep.Attempts++
		}
		began := time.Now()
		ahead, queued, offline, err := s.integrate(ctx, live)
		if err != nil {
			fail(live, err)
			return
		}
		if yielded < maxYields && s.othersWait(ctx, batchFiles(live)) {
			// Another machine keeps losing the race: this batch lets it
			// push first, and merges its change.
			yielded++
			for _, c := range live {
				c.rep.Attempts--
			}
			if live, err = s.wait(b, live, s.yieldTime()); err != nil {
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
			s.foldFor(ctx, live)
			return
		}
		if s.beforePush != nil {
			s.beforePush()
		}
		rejected, offline, err := s.push(ctx, pushed(queued, live))
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
			if !s.foldFor(ctx, live) && s.planRefs && !s.pushedBranch {
				_, _, _ = s.fold(ctx, false) // Push brings the branch up to date
			}
			return
		}
		s.raced = time.Now()
		s.merged = nil
		if err := s.takeBack(ctx, live, first); err != nil {
			fail(live, err)
			return
		}
		if s.attempts > 0 {
			live = s.givenUp(live)
			if len(live) == 0 {
				return
			}
		}
		if attempt >= waitAfter {
			s.sayWaiting(ctx, attempt, batchFiles(live))
		}
		if live, err = s.wait(b, live, s.backoff(attempt)); err != nil {
			fail(live, err)
			return
		}
	}
}

// foldFor brings the remote's branch up to the plan refs (fold, always)
// when a call of live asks it (Push), with a person's edits set aside as
// for any change; each such call is folded once it landed or the remote
// was away, and fails with fold's error. It reports whether a call asked.
func (s *Sync) foldFor(ctx context.Context, live []*call) bool {
	asked := slices.DeleteFunc(slices.Clone(live), func(c *call) bool { return !c.fold })
	if len(asked) == 0 {
		return false
	}
	pushed, offline, err := s.fold(ctx, true)
	for _, c := range asked {
		switch {
		case err != nil:
			c.fail(err)
		case offline != "":
			c.folded, c.rep.Offline = true, offline
		default:
			c.folded = pushed
		}
	}
	return true
}

// givenUp ends the calls of live that made their last attempt (see
// WithMaxAttempts) and returns the others.
func (s *Sync) givenUp(live []*call) []*call {
	kept := live[:0:0]
	for _, c := range live {
		if c.rep.Attempts >= s.attempts {
			c.err = &taskdoc.Error{Code: taskdoc.CodeConflict, Msg: fmt.Sprintf(
				"%s/%s moved under each of %d attempts; the change was not shared: try again", s.remote, s.branch, c.rep.Attempts)}
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// takeIn takes the calls waiting in the queue into b, with the files
// they may write, as they are now, added to the change's record rec, and
// returns them. A call that did not join stays in the queue.
func (s *Sync) takeIn(tx *workspace.Tx, rec *record, b *batch) ([]*call, error) {
	if b.ctx.Err() != nil {
		return nil, nil
	}
	q := &s.queue
	q.mu.Lock()
	waiting := q.calls
	q.calls = nil
	q.mu.Unlock()
	if len(waiting) == 0 {
		return nil, nil
	}
	// A file with uncommitted edits was edited by a person after the
	// batch set the clone's edits aside: a call that may write it waits
	// for a batch of its own, which sets them aside too.
	files := batchFiles(waiting)
	edited, err := s.edited(b.ctx, files)
	if err != nil {
		edited = map[string]bool{}
		for _, f := range files {
			edited[f] = true // none joins
		}
	}
	var joined, left []*call
	for _, c := range waiting {
		if !slices.ContainsFunc(c.files, func(f string) bool { return edited[f] }) && b.add(c) {
			joined = append(joined, c)
		} else {
			left = append(left, c)
		}
	}
	// A call left out whose caller gave up meanwhile (it found itself out
	// of the queue) ends now instead of waiting for this batch.
	left = slices.DeleteFunc(left, func(c *call) bool {
		if c.ctx.Err() == nil {
			return false
		}
		c.release()
		return true
	})
	if len(left) > 0 {
		q.mu.Lock()
		q.calls = append(left, q.calls...)
		q.mu.Unlock()
	}
	if len(joined) == 0 {
		return nil, nil
	}
	if err := s.note(tx, rec, "file", batchFiles(joined)); err != nil {
		fail(joined, err)
		return nil, err
	}
	return joined, nil
}

// edited reports which of the workspace files files differ from HEAD
// (modified, added or untracked), with one git command.
func (s *Sync) edited(ctx context.Context, files []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(files) == 0 {
		return out, nil
	}
	paths := make([]string, len(files))
	byPath := map[string]string{}
	for i, f := range files {
		paths[i] = s.path(f)
		byPath[paths[i]] = f
	}
	entries, err := s.status(ctx, paths)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		out[byPath[e[3:]]] = true
	}
	return out, nil
}

// makeAll makes the change of each call of live in turn on the merged
// clone and commits it, recording (rec) what each change wrote before
// its commit; it returns the calls still in the batch (those whose change
// failed have their error).
func (s *Sync) makeAll(tx *workspace.Tx, rec *record, live []*call) []*call {
	var kept, committed []*call
	for _, c := range live {
		if c.ctx.Err() != nil {
			c.release() // nothing of it made yet
			continue
		}
		before, err := s.snapshot(c.ctx, c.files)
		if err != nil {
			c.fail(err)
			continue
		}
		msg, err := c.fn(c.ctx)
		if err != nil {
			// What it wrote before it failed is the change's, to take back
			// now, before the next change reads the file.
			c.fail(s.undo(tx, rec, c, before, err))
			continue
		}
		// Made: it is committed even if its caller gives up now (and then
		// taken back with the batch), never left for the next change.
		paths, added, err := s.changed(context.WithoutCancel(c.ctx), c.files, before)
		if err == nil && len(paths) > 0 {
			if err = s.wrote(tx, rec, c.files); err == nil {
				err = s.commit(c.ctx, paths, added, msg)
			}
		}
		if err != nil {
			c.fail(s.undo(tx, rec, c, before, err))
			continue
		}
		if len(paths) > 0 {
			c.paths = paths
			committed = append(committed, c)
		}
		kept = append(kept, c)
	}
	if err := s.commitsOf(committed); err != nil {
		fail(committed, err)
		return slices.DeleteFunc(kept, func(c *call) bool { return c.err != nil })
	}
	return kept
}

// undo takes back what c's change wrote before it failed with err: each
// of its files is put back as it was before the change (before), under
// the file's lock, so that the next change of the batch does not commit
// it. What undo cannot put back is recorded (rec) for the settle that
// ends the batch. It returns err, with undo's own failure.
func (s *Sync) undo(tx *workspace.Tx, rec *record, c *call, before [][]byte, err error) error {
	if werr := s.wrote(tx, rec, c.files); werr != nil {
		err = errors.Join(err, werr)
	}
	uerr := s.ws.Lock(context.WithoutCancel(c.ctx), c.files, func(ftx *workspace.Tx) error {
		for i, f := range c.files {
			now, err := ftx.ReadIfExists(f)
			switch {
			case err != nil:
				return err
			case before[i] == nil && now != nil:
				err = ftx.Remove(f)
			case before[i] != nil && (now == nil || !bytes.Equal(now, before[i])):
				err = ftx.Write(f, before[i])
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if uerr != nil {
		err = errors.Join(err, uerr)
	}
	return err
}

// commitsOf tells each call of committed, in the order they committed,
// its commit: the last len(committed) commits of HEAD, one git command
// for the batch. When git cannot say, they are taken back.
func (s *Sync) commitsOf(committed []*call) error {
	if len(committed) == 0 {
		return nil
	}
	ctx := context.WithoutCancel(committed[0].ctx)
	out, err := s.git(ctx, "rev-list", "--max-count="+strconv.Itoa(len(committed)), "HEAD")
	shas := strings.Fields(out)
	if err == nil && len(shas) != len(committed) {
		err = fmt.Errorf("git rev-list: %d commits for %d changes", len(shas), len(committed))
	}
	if err != nil {
		if _, rerr := s.git(ctx, "reset", "-q", "--keep", "HEAD~"+strconv.Itoa(len(committed))); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return err
	}
	for i, c := range committed {
		c.rep.Commit = shas[len(shas)-1-i]
	}
	s.commits += len(committed)
	return nil
}

// maintainEvery is how many commits and fetches a clone's batches make
// between two runs of "git maintenance run --auto" (taskmd's git commands
// start none of their own): it packs the loose objects of the changes and
// the fetches when git's thresholds (gc.auto) say so, and does next to
// nothing otherwise.
const maintainEvery = 100

// maintenanceDue reports whether the batches made maintainEvery commits
// and fetches since maintenance last ran (read by the call serving the
// queue, which alone counts them).
func (s *Sync) maintenanceDue() bool {
	work := s.commits + s.fetches
	if work-s.maintained < maintainEvery {
		return false
	}
	s.maintained = work
	return true
}

// maintain runs git's maintenance on the clone, unless it runs already; a
// failure is git's concern, not the changes'. It takes a few milliseconds
// unless git's thresholds are reached; then git packs in a process of its
// own in the background (gc.autoDetach), as its automatic maintenance does.
func (s *Sync) maintain() {
	if !s.maintaining.CompareAndSwap(false, true) {
		return
	}
	defer s.maintaining.Store(false)
	_, _ = s.git(context.Background(), "maintenance", "run", "--auto", "--quiet")
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
// Sync last looked, to push where the batch pushes (files are the files
// its calls may write): a fetched waiting ref moved, and not by this Sync.
func (s *Sync) othersWait(ctx context.Context, files []string) bool {
	sh, err := s.readLeases(ctx)
	if err != nil || len(sh.waiting) == 0 {
		return false // no machine ever waited
	}
	q := &s.queue
	q.mu.Lock()
	defer q.mu.Unlock()
	others := false
	for _, name := range s.waitNames(files) {
		sha := sh.waiting[name]
		if sha == "" {
			continue
		}
		seen := q.seen[name]
		q.seen[name] = sha
		if seen != sha && sha != q.signal[name] {
			others = true
		}
	}
	if others {
		s.raced = time.Now() // another machine races this one (see pace)
	}
	return others
}

// waitNames are the names of the waiting refs (under waitingRefs) of a
// batch whose calls may write files: the branch's, or with plan refs one
// for each plan (<branch>@<key>), since only machines pushing to the same
// plans race each other then.
func (s *Sync) waitNames(files []string) []string {
	if !s.planRefs {
		return []string{s.branch}
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		out = append(out, s.branch+"@"+planKey(s.path(f)))
	}
	return out
}

// sayWaiting tells the other machines that this one lost the race again
// to push where the batch pushes (files, see waitNames): it forces each
// waiting ref to a new commit (the tree of HEAD, which the remote mostly
// has). A failure only means the others are not told.
func (s *Sync) sayWaiting(ctx context.Context, attempt int, files []string) {
	names := s.waitNames(files)
	if len(names) == 0 {
		return
	}
	sha, err := s.gitAs(ctx, "commit-tree", "HEAD^{tree}", "-p", "HEAD",
		"-m", fmt.Sprintf("taskmd: waiting to push to %s (attempt %d, %s)", s.branch, attempt, time.Now().UTC().Format(time.RFC3339Nano)))
	if err != nil {
		return
	}
	sha = strings.TrimSpace(sha)
	args := []string{"push", "-q", "-f", s.remote}
	for _, name := range names {
		args = append(args, sha+":"+waitingRefs+name)
	}
	if _, err := s.git(ctx, args...); err != nil {
		return
	}
	s.queue.mu.Lock()
	defer s.queue.mu.Unlock()
	for _, name := range names {
		s.queue.signal[name] = sha
	}
}

// yieldTime is how long a batch lets a waiting machine go first: between
// half a cycle and one and a half, the head start that a machine that just
// pushed has on the machines it beat, so that a machine that keeps losing
// gets the remote.
func (s *Sync) yieldTime() time.Duration {
	cycle := s.cycle()
	return cycle/2 + rand.N(cycle)
}

// cycle is how long an attempt takes on this clone (see timeCycle), at
// least cycleMin: the unit of every pause.
func (s *Sync) cycle() time.Duration {
	s.queue.mu.Lock()
	defer s.queue.mu.Unlock()
	return max(s.queue.cycle, cycleMin)
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
// not wait longer and longer: it says it waits (waitAfter) and tries
// again the sooner the longer it has lost, and a machine about to push
// while another waits lets it go first (yieldTime), up to maxYields times
// a batch. Before its first attempt, a batch of a machine that races
// others pauses too (pace), at most maxPace.
const (
	spread = 2
	// maxPace bounds the pause before a batch's first attempt.
	maxPace  = 5 * time.Second
	cycleMin = 10 * time.Millisecond
	cycleMax = time.Second
	// waitAfter is the attempt from which a machine says it waits.
	waitAfter = 2
	// maxYields is how many times a batch lets machines that wait go
	// first, so that it does not wait for good either.
	maxYields = 8
)

// raceMemory is how long, in cycles, a clone counts as racing other
// machines for the remote after it last saw one push (see pace).
const raceMemory = 10

// pace is the pause before the first attempt of a batch that changes
// files, while other machines race this one for the remote: one of them
// pushed within the last raceMemory cycles, as this clone saw it (a fetch
// brought its commits, or it rejected this clone's push). The pause is at
// random up to a cycle for each other machine that holds a claim under a
// live lease (at most maxPace), whichever machine won the last push.
// Machines that take turns push less often and carry more calls each, so
// fewer pushes are rejected (each one a fetch, a merge, commits and a push
// made for nothing), and the machine that pushed last, whose clone has the
// remote as it is, does not push again at once, ahead of those that lost
// to it. A machine alone on its remote never pauses.
func (s *Sync) pace(ctx context.Context, files []string) time.Duration {
	cycle := s.cycle()
	if time.Since(s.raced) >= raceMemory*cycle {
		return 0
	}
	sh, err := s.readLeases(ctx)
	if err != nil {
		return 0 // the attempt reports it
	}
	var in []string // with plan refs, only the machines pushing to the batch's plans
	if s.planRefs {
		in = files
	}
	others := s.othersHolding(sh, in)
	if others == 0 {
		return 0
	}
	return rand.N(min(cycle*time.Duration(others), maxPace)) + time.Millisecond
}

// othersHolding is how many other machines hold a claim under a live
// lease, by the wall clock (pacing is timing, not a lease's verdict): in
// one of the plan files files, or anywhere when files is nil.
func (s *Sync) othersHolding(sh shared, files []string) int {
	others := 0
	now := time.Now()
	for _, lf := range sh.files {
		if lf.Machine != s.machineID() && slices.ContainsFunc(lf.Leases, func(l lease) bool {
			return l.Expires.After(now) && (files == nil || slices.Contains(files, l.Document))
		}) {
			others++
		}
	}
	return others
}

// backoff is the pause before attempt+1 of a batch (see spread).
func (s *Sync) backoff(attempt int) time.Duration {
	// The longer a machine has lost, the sooner it tries again: among
	// machines that wait, the one that waited longest is first.
	bound := s.cycle() * waitAfter / time.Duration(attempt)
	if attempt < waitAfter {
		bound *= spread
	}
	return rand.N(bound) + time.Millisecond
}

// wait pauses the batch b for d. A call whose caller gives up meanwhile
// ends at once (its caller does not wait for the others); it returns the
// calls still waiting, and the error of the batch's context when every
// call gave up.
func (s *Sync) wait(b *batch, live []*call, d time.Duration) ([]*call, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		live = b.letGo(live)
		select {
		case <-t.C:
			return live, nil
		case <-b.ctx.Done():
			return b.letGo(live), cancelled(b.ctx)
		case <-b.gaveUp:
		}
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

// batch is the calls one serve shares, and a context that ends when
// every one of them has given up (a call that ends alone leaves the batch
// at the next step).
type batch struct {
	calls  []*call
	ctx    context.Context
	cancel context.CancelFunc
	left   atomic.Int64
	gaveUp chan struct{} // a call's context ended (a wake-up, not a count)
	mu     sync.Mutex
	stops  []func() bool
}

func newBatch(calls []*call) *batch {
	b := &batch{gaveUp: make(chan struct{}, 1)}
	b.ctx, b.cancel = context.WithCancel(context.WithoutCancel(calls[0].ctx))
	b.left.Store(int64(len(calls)))
	for _, c := range calls {
		b.join(c)
	}
	return b
}

// add takes c into b, unless every call of b has given up already.
func (b *batch) add(c *call) bool {
	if b.left.Add(1) == 1 {
		// Every call had given up: b's context has ended.
		b.left.Add(-1)
		return false
	}
	b.join(c)
	return true
}

// join makes c one of b's calls, counted in left already.
func (b *batch) join(c *call) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, c)
	b.stops = append(b.stops, context.AfterFunc(c.ctx, func() {
		if b.left.Add(-1) == 0 {
			b.cancel()
		}
		select {
		case b.gaveUp <- struct{}{}:
		default:
		}
	}))
}

// letGo ends at once the calls of live whose caller gave up, which hold
// nothing of the batch (between attempts, its commits taken back), and
// returns the others.
func (b *batch) letGo(live []*call) []*call {
	kept := live[:0:0]
	for _, c := range live {
		if c.ctx.Err() == nil {
			kept = append(kept, c)
			continue
		}
		c.release()
	}
	return kept
}

// release ends c, whose caller gave up, before its batch ends (or
// before it joined one).
func (c *call) release() {
	c.err = cancelled(c.ctx)
	c.released = true
	close(c.done)
}

// stop ends b's context and forgets its calls' contexts.
func (b *batch) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, stop := range b.stops {
		stop()
	}
	b.cancel()
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

// batchPlans are the files the calls of batch may write or read, each
// once; all reports a call that names none (Push): it needs every plan.
func batchPlans(batch []*call) (files []string, all bool) {
	files = batchFiles(batch)
	for _, c := range batch {
		all = all || len(c.files) == 0 && len(c.reads) == 0
		for _, f := range c.reads {
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	return files, all
}

// pushed are the repository paths that HEAD's own commits change, for
// the push after the changes of live: those of the commits queued before
// the batch (queued), and those of the calls' commits, each once.
func pushed(queued []string, live []*call) []string {
	out := slices.Clone(queued)
	for _, c := range live {
		if c.rep.Commit == "" {
			continue
		}
		for _, p := range c.paths {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// failed reports whether a call of batch failed.
func failed(batch []*call) bool {
	return slices.ContainsFunc(batch, func(c *call) bool { return c.err != nil })
}
