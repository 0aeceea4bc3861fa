package gitsync

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// machineFile holds the clone's machine id, made once; leaseLock orders
// the pushes of the clone's leases (Renew, and every claim's push).
const (
	machineFile = workspace.StateDir + "/gitsync/machine"
	leaseLock   = workspace.StateDir + "/gitsync/leases"
)

// machineID is what a machine id may be: it names a ref.
var machineID = regexp.MustCompile(`^m-[0-9a-f]{12}$`)

// leaseFile is what one machine shares of its claims, on the remote's ref
// refs/taskmd/leases/<machine>, which only that machine writes: the tasks
// its agents hold with their lease's end, and the last fencing token it
// gave in each plan, so that a claim made anywhere takes a higher one.
type leaseFile struct {
	Machine string           `json:"machine"`
	Written time.Time        `json:"written"`
	Tokens  map[string]int64 `json:"tokens,omitempty"` // plan file ("docs/plan.md") → last token given here
	Leases  []lease          `json:"leases"`
}

// lease is a claim of one task by an agent of the machine, held until
// Expires (its agent's last heartbeat plus the agent timeout), unless
// the machine renews it.
type lease struct {
	Document string    `json:"document"` // "docs/plan.md"
	Task     string    `json:"task"`     // the task's slug
	Agent    string    `json:"agent"`
	Token    int64     `json:"token"`
	Expires  time.Time `json:"expires"`
}

// maxToken bounds the tokens a lease file may give: far above any count
// of claims, and exact in every JSON reader (2^53).
const maxToken = 1 << 53

// valid reports whether l names a machine and gives only tokens from 1 to
// maxToken: a file that does not (written by hand, or by something else
// than a machine) would stop tokens from growing.
func (l leaseFile) valid() bool {
	if !machineID.MatchString(l.Machine) {
		return false
	}
	for _, n := range l.Tokens {
		if n < 1 || n > maxToken {
			return false
		}
	}
	for _, x := range l.Leases {
		if x.Token < 1 || x.Token > maxToken {
			return false
		}
	}
	return true
}

// covers reports whether l has every claim and token of want: a push of
// want would add nothing a reader decides on (only later ends).
func (l leaseFile) covers(want leaseFile) bool {
	for doc, tok := range want.Tokens {
		if l.Tokens[doc] < tok {
			return false
		}
	}
	for _, w := range want.Leases {
		if !slices.ContainsFunc(l.Leases, func(h lease) bool {
			return h.Document == w.Document && h.Task == w.Task && h.Agent == w.Agent && h.Token == w.Token
		}) {
			return false
		}
	}
	return true
}

// machine reads the clone's machine id, making it the first time.
func (s *Sync) machine(tx *workspace.Tx) (string, error) {
	data, err := tx.ReadIfExists(machineFile)
	if err != nil {
		return "", err
	}
	if data != nil {
		id := strings.TrimSpace(string(data))
		if !machineID.MatchString(id) {
			return "", &taskdoc.Error{Code: taskdoc.CodeParse, Path: machineFile, Msg: fmt.Sprintf(
				"%s reads %q, not a machine id like m-0123456789ab: remove the file, and the next call makes a new id", machineFile, id)}
		}
		return id, nil
	}
	return newMachine(tx)
}

// leaseRef is the remote's ref of machine m's leases; trackedLeases the
// clone's copy of the remote's lease refs.
func leaseRef(m string) string { return "refs/taskmd/leases/" + m }

func (s *Sync) trackedLeases() string { return "refs/taskmd/" + s.remote + "/leases/" }

// skew is how far apart two machines' clocks may be: a lease is taken
// over only once it ended that long ago by the reader's clock.
func (s *Sync) skew() time.Duration { return s.plans.Agents().Timeout() / 4 }

// ownLeases is the lease file of this clone as its claims stand: every
// task an agent registered here holds (its claims record and the plan's
// Assignee agree, and the task is not done), until its agent's lease
// ends, and the last token of every plan.
func (s *Sync) ownLeases(ctx context.Context) (leaseFile, error) {
	reg := s.plans.Agents()
	out := leaseFile{Machine: s.machineID(), Written: reg.Now().UTC(), Tokens: map[string]int64{}, Leases: []lease{}}
	files, err := claims.All(ctx, s.ws)
	if err != nil {
		return out, err
	}
	agents := map[string]*agent.Agent{} // nil: not registered here
	agentOf := func(id string) *agent.Agent {
		a, ok := agents[id]
		if !ok {
			if got, err := reg.Get(ctx, id); err == nil {
				a = &got
			}
			agents[id] = a
		}
		return a
	}
	for _, f := range files {
		if f.LastToken > 0 {
			out.Tokens[f.Document] = f.LastToken
		}
		var doc *taskdoc.Document
		for slug, r := range f.Tasks {
			if r.Agent == "" {
				continue
			}
			if doc == nil {
				data, err := s.ws.ReadIfExists(ctx, f.Document)
				if err != nil || data == nil {
					break
				}
				if doc, err = s.ws.Parse(f.Document, data); err != nil {
					break
				}
			}
			tk, err := doc.Task(slug)
			if err != nil || tk.Status.Final() || f.Holder(slug, assigneeOf(tk)) == "" {
				continue
			}
			a := agentOf(r.Agent)
			if a == nil {
				continue // not an agent of this clone: it holds nothing here
			}
			out.Leases = append(out.Leases, lease{Document: f.Document, Task: slug, Agent: r.Agent, Token: r.Token, Expires: reg.OnlineUntil(*a).UTC()})
		}
	}
	slices.SortFunc(out.Leases, func(a, b lease) int {
		return strings.Compare(a.Document+"#"+a.Task, b.Document+"#"+b.Task)
	})
	return out, nil
}

// assigneeOf is the task's Assignee field.
func assigneeOf(tk *taskdoc.Task) string {
	v, _ := tk.Field(taskdoc.KeyAssignee)
	return v
}

// shared is the leases of every machine as the clone last fetched them.
type shared struct {
	files   []leaseFile
	fetches int // Sync.fetches when they were read
	// waiting is the fetched waiting refs of the branch (see waitingRefs
	// and waitNames), by name, read with the leases.
	waiting map[string]string
	// read is every lease commit read, with its file (nil: left out), so
	// that the next read decodes only the commits the fetch brought.
	read map[string]*leaseFile
	// plans are the fetched plan refs of the branch (see WithPlanRefs), by
	// key (planKey) with their commit; branch is the fetched branch's
	// commit ("" when the remote has none), branchMoved when it moved
	// there (see branchMoved).
	plans       map[string]string
	branch      string
	branchMoved time.Time
}

// branchMoved is when the remote's branch moved to commit, whose
// committer date is date (Unix seconds): the date, but never later than
// when this clone first read the commit there, so that a commit dated in
// the future (a clock ahead) does not hold the branch back (see fold).
func (s *Sync) branchMoved(commit, date string) time.Time {
	if s.seen != nil && s.seen.branch == commit {
		return s.seen.branchMoved
	}
	now := time.Now()
	sec, err := strconv.ParseInt(date, 10, 64)
	if err != nil || time.Unix(sec, 0).After(now) {
		return now
	}
	return time.Unix(sec, 0)
}

// maxLeaseFile bounds a lease commit (its file, with git's few header
// lines): far above the leases of any machine (about 150 bytes a task).
// A larger one is left out unread, as a forged one.
const maxLeaseFile = 1 << 20

// readLeases reads the lease files of every machine from the clone's copy
// of the remote's lease refs (a lease file is its commit's message): the
// refs in one git command, and the commits not read before, up to
// maxLeaseFile each, in another. A file over the bound, that does not
// decode, is not on the ref of the machine it names, or gives a token no
// claim gives (valid) is left out (its machine's claims then hold as if it
// had none). The copy changes only when the clone fetches: until then the
// last read is answered again. The same command reads the waiting ref.
func (s *Sync) readLeases(ctx context.Context) (shared, error) {
	if s.seen != nil && s.seen.fetches == s.fetches {
		return *s.seen, nil
	}
	waiting := s.waitingRef(s.branch)
	out, err := s.git(ctx, "for-each-ref", "--format=%(objectname) %(objectsize) %(refname) %(committerdate:unix)",
		s.trackedLeases(), waiting, waiting+"@*", s.trackedPlans(), s.remoteRef())
	if err != nil {
		return shared{}, err
	}
	sh := shared{fetches: s.fetches, read: map[string]*leaseFile{}, plans: map[string]string{}, waiting: map[string]string{}}
	type ref struct{ name, commit string }
	var refs []ref
	var want []byte // the commits to read
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 {
			continue
		}
		if f[2] == waiting || strings.HasPrefix(f[2], waiting+"@") {
			sh.waiting[strings.TrimPrefix(f[2], s.waitingRef(""))] = f[0]
			continue
		}
		if f[2] == s.remoteRef() {
			sh.branch = f[0]
			sh.branchMoved = s.branchMoved(f[0], f[3])
			continue
		}
		if key, ok := strings.CutPrefix(f[2], s.trackedPlans()); ok {
			if s.isPlanKey(key) { // not a longer branch's, nor a file's outside docs/
				sh.plans[key] = f[0]
			}
			continue
		}
		if !strings.HasPrefix(f[2], s.trackedLeases()) {
			continue
		}
		refs = append(refs, ref{f[2], f[0]})
		if s.seen != nil {
			if lf, ok := s.seen.read[f[0]]; ok {
				sh.read[f[0]] = lf
				continue
			}
		}
		if size, err := strconv.ParseInt(f[1], 10, 64); err != nil || size > maxLeaseFile {
			sh.read[f[0]] = nil
			continue
		}
		want = append(want, f[0]+"\n"...)
	}
	if len(want) > 0 {
		batch, err := git.RunInput(ctx, s.top, want, "cat-file", "--batch")
		if err != nil {
			return shared{}, s.explain(err)
		}
		for len(batch) > 0 {
			// "<commit> <type> <size>\n<content>\n" each
			head, rest, _ := bytes.Cut(batch, []byte("\n"))
			f := strings.Fields(string(head))
			if len(f) == 2 && f[1] == "missing" {
				batch = rest // the next fetch brings it
				continue
			}
			if len(f) != 3 {
				break
			}
			size, err := strconv.Atoi(f[2])
			if err != nil || size > len(rest) {
				break
			}
			_, body, _ := bytes.Cut(rest[:size], []byte("\n\n"))
			var lf leaseFile
			if f[1] != "commit" || json.Unmarshal(body, &lf) != nil || !lf.valid() {
				sh.read[f[0]] = nil
			} else {
				sh.read[f[0]] = &lf
			}
			batch = rest[min(size+1, len(rest)):]
		}
	}
	for _, r := range refs {
		if lf := sh.read[r.commit]; lf != nil && r.name == s.trackedLeases()+lf.Machine {
			sh.files = append(sh.files, *lf)
		}
	}
	s.seen = &sh
	return sh, nil
}

// of is the latest lease of agent on task slug of document doc, from any
// machine; ok is false when no machine's leases name it. Of two leases of
// one claim (its clone took a new machine id, and the old ref still names
// it), the later end stands.
func (sh shared) of(doc, slug, agent string) (l lease, ok bool) {
	for _, f := range sh.files {
		for _, x := range f.Leases {
			if x.Document == doc && x.Task == slug && x.Agent == agent &&
				(!ok || x.Token > l.Token || x.Token == l.Token && x.Expires.After(l.Expires)) {
				l, ok = x, true
			}
		}
	}
	return l, ok
}

// token is the highest token any machine gave in document doc.
func (sh shared) token(doc string) int64 {
	var n int64
	for _, f := range sh.files {
		n = max(n, f.Tokens[doc])
		for _, x := range f.Leases {
			if x.Document == doc {
				n = max(n, x.Token)
			}
		}
	}
	return n
}

// own is the lease file this machine last pushed, as fetched.
func (sh shared) own(id string) leaseFile {
	for _, f := range sh.files {
		if f.Machine == id {
			return f
		}
	}
	return leaseFile{}
}

// holding is who holds task tk of t for another machine: the agent its
// Assignee names when that agent is not registered here and holds a
// lease that has not ended (by this clock, give or take the skew), or no
// machine's lease names it (a hand-written Assignee: it holds until a
// person removes it). lapsed is that agent when its lease ended: any
// agent may take the task over. Both are "" for a task that is free,
// held here, or done.
func (s *Sync) holding(ctx context.Context, sh shared, t taskflow.Target, tk *taskdoc.Task) (holder, lapsed string, err error) {
	assignee := assigneeOf(tk)
	if assignee == "" || tk.Status.Final() {
		return "", "", nil
	}
	local, err := s.local(ctx, assignee)
	if err != nil || local {
		return "", "", err
	}
	l, ok := sh.of(t.File, tk.Slug, assignee)
	if ok && s.plans.Agents().Now().After(l.Expires.Add(s.skew())) {
		return "", assignee, nil
	}
	return assignee, "", nil
}

// local reports whether agent id is registered in this clone.
func (s *Sync) local(ctx context.Context, id string) (bool, error) {
	_, err := s.plans.Agents().Get(ctx, id)
	switch taskdoc.CodeOf(err) {
	case "":
		return true, nil
	case agent.CodeAgentNotFound:
		return false, nil
	}
	return false, err
}

// leaseUpdate is the refspec that pushes this clone's leases, as the
// lease commit it makes, when they hold a claim or token that the
// remote's copy does not ("" when it has them all): a claim is shared
// with its lease in one atomic push. The push is made with leaseLease.
func (s *Sync) leaseUpdate(ctx context.Context, force bool) (refspec, commit string, err error) {
	lf, err := s.ownLeases(ctx)
	if err != nil {
		return "", "", err
	}
	if !force {
		sh, err := s.readLeases(ctx)
		if err != nil {
			return "", "", err
		}
		if sh.own(lf.Machine).covers(lf) {
			return "", "", nil
		}
	}
	c, err := s.leaseCommit(ctx, lf)
	if err != nil {
		return "", "", err
	}
	return c + ":" + leaseRef(lf.Machine), c, nil
}

// leaseCommit writes lf as the message of a commit of its own, with the
// empty tree and no parent (a machine's leases keep no history), and
// returns it: one git command writes it, one reads every machine's.
func (s *Sync) leaseCommit(ctx context.Context, lf leaseFile) (string, error) {
	data, err := json.Marshal(lf)
	if err != nil {
		return "", err
	}
	if s.emptyTree == "" {
		tree, err := git.RunInput(ctx, s.top, []byte{}, "mktree")
		if err != nil {
			return "", err
		}
		s.emptyTree = strings.TrimSpace(string(tree))
	}
	args := append(append([]string{}, s.ident...), "commit-tree", s.emptyTree, "-F", "-")
	c, err := git.RunInput(ctx, s.top, append(data, '\n'), args...)
	return strings.TrimSpace(string(c)), err
}

// Renew shares the leases of the claims this clone's agents hold, with
// their ends as the agents' heartbeats set them (the last heartbeat plus
// the agent timeout), in one push to the remote's ref of this machine,
// which no other machine writes: renewals never contend with claims or
// with other machines, and never rewrite the plan. Call it about every
// third of the agent timeout while agents hold tasks, after their
// heartbeats: a lease that is not renewed ends, and any machine may
// then take its task over (see the package documentation for the clock
// this assumes). A remote that cannot be reached is Report.Offline, and
// the next Renew sends the leases.
func (s *Sync) Renew(ctx context.Context) (Report, error) {
	rep := Report{Attempts: 1}
	err := s.ws.Lock(ctx, []string{leaseLock, machineFile}, func(tx *workspace.Tx) error {
		var err error
		rep.Pushed, rep.Offline, err = s.sendLeases(ctx, tx, true)
		return err
	})
	return rep, err
}

// push pushes HEAD to the shared branch (with plan refs, where the paths
// HEAD's own commits change go: see planSpecs), with this clone's leases
// when they hold a claim or token the remote's copy does not, in one
// atomic push: a claim is never shared without its lease. (The clone's
// copy of its own lease ref follows at the next fetch, which every
// operation starts with.)
func (s *Sync) push(ctx context.Context, paths []string) (rejected bool, offline string, err error) {
	err = s.ws.Lock(ctx, []string{leaseLock, machineFile}, func(tx *workspace.Tx) error {
		if err := s.syncID(tx); err != nil {
			return err
		}
		for range 2 { // again under a new id when another clone uses this one
			opt, moved, err := s.leaseLease(ctx)
			if err != nil {
				return err
			}
			if !moved {
				refspec, commit, err := s.leaseUpdate(ctx, false)
				if err != nil {
					return err
				}
				specs := []string{"HEAD:refs/heads/" + s.branch}
				s.pushedBranch = true
				if s.planRefs {
					if specs, s.pushedBranch, err = s.planSpecs(ctx, paths); err != nil || len(specs) == 0 {
						return err // nothing of HEAD's own to send
					}
				}
				if refspec != "" {
					specs = append(specs, refspec)
				}
				rejected, offline, err = s.pushRefs(ctx, opt, specs...)
				if !errors.Is(err, errLeaseMoved) {
					landed := err == nil && !rejected && offline == ""
					if landed && commit != "" {
						s.pushedLeases(ctx, commit)
					}
					if landed && s.planRefs {
						return s.pushedPlans(ctx, specs)
					}
					return err
				}
			}
			if err := s.renewID(tx); err != nil {
				return err
			}
		}
		return errLeaseMoved
	})
	return rejected, offline, err
}

// beforeClaim decides a claim of task t on the merged clone by the leases
// of every machine: holder is another machine's agent that holds the task
// (the claim is refused), lapsed the agent whose lease ended (the claim
// takes the task over). It first raises this clone's tokens of t's plan
// to the highest any machine gave, so that the claim's token is above
// every earlier claim's, the lapsed holder's included.
func (s *Sync) beforeClaim(ctx context.Context, t taskflow.Target, agentID string) (holder, lapsed string, err error) {
	sh, err := s.readLeases(ctx)
	if err != nil {
		return "", "", err
	}
	if n := sh.token(t.File); n > 0 {
		if err := claims.Raise(ctx, s.ws, t.File, n); err != nil {
			return "", "", err
		}
	}
	data, err := s.ws.ReadIfExists(ctx, t.File)
	if err != nil || data == nil {
		return "", "", err
	}
	doc, err := s.ws.Parse(t.File, data) // kept: the claim that follows parses nothing
	if err != nil {
		return "", "", nil // the claim reports it
	}
	tk, err := doc.Task(t.Slug)
	if err != nil {
		return "", "", nil // the claim answers
	}
	if assigneeOf(tk) == agentID && !tk.Status.Final() {
		// Its own claim, unless another clone's lease holds it for the
		// same agent id: then the lease decides, as for another agent.
		if local, err := s.local(ctx, agentID); err != nil || !local {
			return "", "", err // the claim answers who is not registered here
		}
		_, ok, live, err := s.elsewhere(ctx, sh, t.File, t.Slug, agentID)
		switch {
		case err != nil || !ok:
			return "", "", err
		case live:
			return agentID, "", nil
		}
		return "", agentID, nil
	}
	return s.holding(ctx, sh, t, tk)
}

// elsewhere is the latest lease another machine holds for agentID on task
// slug of document doc, where this clone's claims do not hold the task for
// it: the same agent id registered on two clones (an agent restarted on
// another clone, or two agents given one name). ok is false when the task
// is held here or no other machine's lease names the agent on it; live
// reports that the lease has not ended (by this clock, give or take the
// skew).
func (s *Sync) elsewhere(ctx context.Context, sh shared, doc, slug, agentID string) (l lease, ok, live bool, err error) {
	for _, f := range sh.files {
		for _, x := range f.Leases {
			if f.Machine != s.machineID() && x.Document == doc && x.Task == slug && x.Agent == agentID &&
				(!ok || x.Token > l.Token || x.Token == l.Token && x.Expires.After(l.Expires)) {
				l, ok = x, true
			}
		}
	}
	if !ok {
		return l, false, false, nil
	}
	name, err := claims.Name(s.ws, doc)
	if err != nil {
		return l, false, false, err
	}
	data, err := s.ws.ReadIfExists(ctx, name)
	if err != nil {
		return l, false, false, err
	}
	if st, err := claims.Decode(doc, name, data); err == nil && st.Holder(slug, agentID) == agentID && st.Record(slug).Token >= l.Token {
		return l, false, false, nil // its claim here is the later one, or the same (an old id of this clone names it)
	}
	return l, true, !s.plans.Agents().Now().After(l.Expires.Add(s.skew())), nil
}

// fence refuses, STALE_CLAIM, a write presenting agent c's claim on task
// t when another machine's lease names the same agent on t with a later
// claim: the agent claimed the task again on that clone (the Assignee,
// which names the agent either way, cannot tell the two claims apart).
func (s *Sync) fence(ctx context.Context, t taskflow.Target, c plan.Claimant) error {
	if c.Agent == "" || c.Token == 0 {
		return nil
	}
	sh, err := s.readLeases(ctx)
	if err != nil {
		return err
	}
	l, ok, _, err := s.elsewhere(ctx, sh, t.File, t.Slug, c.Agent)
	if err != nil || !ok || l.Token <= c.Token {
		return err
	}
	return &taskdoc.Error{Code: claims.CodeStaleClaim, Path: t.Path, Slug: t.Slug, Msg: fmt.Sprintf(
		"task %q in %s: claim %d of agent %s was replaced by its claim %d made on another clone: present the newer claim there; nothing was written",
		t.Slug, t.Path, c.Token, c.Agent, l.Token)}
}

// shareLeases pushes this clone's leases when the remote's copy lacks a
// claim or token of theirs, after a claim that changed no document (the
// claim of a task whose Assignee already named its agent): the claim is
// shared with its lease all the same. offline is git's message when the
// remote could not be reached (the next push sends them).
func (s *Sync) shareLeases(ctx context.Context) (offline string, err error) {
	err = s.ws.Lock(ctx, []string{asideFile, changeFile}, func(*workspace.Tx) error {
		return s.ws.Lock(ctx, []string{leaseLock, machineFile}, func(tx *workspace.Tx) error {
			_, offline, err = s.sendLeases(ctx, tx, false)
			return err
		})
	})
	return offline, err
}
