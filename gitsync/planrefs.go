package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/merge"
	"github.com/taskmd/taskmd/taskdoc"
)

// Plan refs (WithPlanRefs): see the package documentation.

// plansRefs is where the remote keeps the plan refs.
const plansRefs = "refs/taskmd/plans/"

// foldAfter is how long the branch may lag behind the plan refs before a
// push brings it up to date.
const foldAfter = time.Second

// planKey is the last component of the plan ref of the plan file path
// (repository-relative): the path with every byte but ASCII letters,
// digits, "_" and "-" written as %XX, so that every path has one key,
// and a valid one ("docs/api/auth.md" is docs%2Fapi%2Fauth%2Emd).
func planKey(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// isPlanKey reports whether key is the plan key of a plan (see isPlan),
// written as planKey writes it: the last component of a plan ref this
// package pushes. No other ref under the branch's plan refs is merged.
func (s *Sync) isPlanKey(key string) bool {
	path, ok := planPath(key)
	return ok && s.isPlan(path) && planKey(path) == key
}

// planPath is the repository path a plan key was made from (see planKey);
// ok is false when key does not decode.
func planPath(key string) (path string, ok bool) {
	path, err := url.PathUnescape(key)
	return path, err == nil
}

// planRef is the remote's plan ref of the plan file path.
func (s *Sync) planRef(path string) string { return plansRefs + s.branch + "/" + planKey(path) }

// trackedPlans is where the clone keeps its copy of the remote's plan
// refs of its branch.
func (s *Sync) trackedPlans() string { return "refs/taskmd/" + s.remote + "/plans/" + s.branch + "/" }

// isPlan reports whether the repository path is one a plan ref carries:
// a file under the workspace's docs folder.
func (s *Sync) isPlan(path string) bool {
	return strings.HasPrefix(path, s.prefix+taskdoc.FolderDocs+"/")
}

// tips are the refs a clone merges, as last fetched: the plan refs of its
// branch, in order, then the branch (when the remote has it).
func (s *Sync) tips(sh shared) []string {
	out := make([]string, 0, len(sh.plans)+1)
	for key := range sh.plans {
		out = append(out, s.trackedPlans()+key)
	}
	slices.Sort(out)
	if sh.branch != "" {
		out = append(out, s.remoteRef())
	}
	return out
}

// errPlanRefs is the refusal of a clone without plan refs whose remote
// has some for its branch: its pushes to the branch would not contend with
// the plan refs' claims.
func (s *Sync) errPlanRefs() error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf(
		"%s shares the plans of %s on plan refs (%s%s/): open this clone's Sync with gitsync.WithPlanRefs, as every clone of it does",
		s.remote, s.branch, plansRefs, s.branch)}
}

// mergeTips fetches and merges into HEAD the refs of the remote that a
// batch needs (WithPlanRefs) and HEAD does not have yet: the plan ref of
// each of the files files its calls write or read, and of each file
// HEAD's own unpushed commits change; the branch too when one of them has
// no plan ref yet (its ref is made with the branch) or is no plan; every
// plan ref and the branch when all (Push); then the refs of the plans
// the files' tasks depend on (dependedOn). Other plans stay as last
// merged: a change of one plan is decided on its own ref. ahead is how
// many of HEAD's own changes (merges left out) no ref of the remote has,
// offline git's message when the remote could not be reached. A plan ref
// of files that moved means another machine pushed where this one pushes
// (see pace).
func (s *Sync) mergeTips(ctx context.Context, files []string, all bool) (ahead int, queued []string, offline string, err error) {
	if offline, err = s.fetch(ctx); err != nil {
		return 0, nil, "", err
	}
	sh, err := s.readLeases(ctx)
	if err != nil {
		return 0, nil, "", err
	}
	tips := s.tips(sh)
	// What HEAD has to push goes where the batch's changes go: the
	// changes queued offline are merged and pushed with them.
	ahead, queued, err = s.unpushed(ctx, tips)
	if err != nil || offline != "" {
		return ahead, queued, offline, err
	}
	want := tips
	if !all {
		want = nil
		branch := false
		paths := slices.Clone(queued)
		for _, f := range files {
			paths = append(paths, s.path(f))
		}
		for _, p := range paths {
			key := planKey(p)
			if _, ok := sh.plans[key]; ok && s.isPlan(p) {
				if ref := s.trackedPlans() + key; !slices.Contains(want, ref) {
					want = append(want, ref)
				}
			} else {
				branch = true
			}
		}
		slices.Sort(want)
		if branch && sh.branch != "" {
			want = append(want, s.remoteRef())
		}
	}
	if err := s.mergeAll(ctx, sh, want, files); err != nil || all {
		return ahead, queued, "", err
	}
	// A task's dependencies in other plans are read where those plans'
	// refs have them (a claim waits for them to be done). A ref that does
	// not merge (the branch, with a person's edit that a plan ref set
	// otherwise) is the person's to settle: the batch, which does not
	// write there, reads that plan as last merged.
	deps, err := s.dependedOn(ctx, sh, files, want)
	if err != nil {
		return ahead, queued, "", err
	}
	for _, ref := range deps {
		if err := s.mergeAll(ctx, sh, []string{ref}, nil); err != nil && taskdoc.CodeOf(err) != merge.CodeMergeConflict {
			return ahead, queued, "", err
		}
	}
	return ahead, queued, "", nil
}

// dependedOn are the refs, not in want, of the other plans that the tasks
// of the plan files files depend on (Depends-On), as the files now are:
// a plan's ref, or the branch for a plan that has none.
func (s *Sync) dependedOn(ctx context.Context, sh shared, files, want []string) ([]string, error) {
	var out []string
	add := func(ref string) {
		if !slices.Contains(want, ref) && !slices.Contains(out, ref) {
			out = append(out, ref)
		}
	}
	branch := false
	for _, f := range files {
		data, err := s.ws.ReadIfExists(ctx, f)
		if err != nil {
			return nil, err
		}
		if data == nil || !bytes.Contains(data, []byte(".md#")) { // no address of another plan
			continue
		}
		doc, err := s.ws.Parse(f, data) // the parse the change reuses
		if err != nil {
			continue // the call reports it
		}
		for i := range doc.Tasks {
			for _, d := range doc.Tasks[i].ValidDependencies() {
				if d.Document == "" {
					continue
				}
				p := s.path(taskdoc.Address{Path: d.Document}.File())
				if key := planKey(p); sh.plans[key] != "" && s.isPlan(p) {
					add(s.trackedPlans() + key)
				} else {
					branch = true
				}
			}
		}
	}
	slices.Sort(out)
	if branch && sh.branch != "" {
		add(s.remoteRef())
	}
	return out, nil
}

// mergeAll merges each of refs (plan refs, then the branch) that HEAD
// does not have into it, as last fetched (sh), all or none. A ref at the
// commit this Sync last merged or pushed there is in HEAD already (see
// merged), unless HEAD was moved back since: one git command checks them
// all. A plan ref of files that moved means another machine pushed where
// this one pushes (see pace).
func (s *Sync) mergeAll(ctx context.Context, sh shared, refs, files []string) error {
	if s.merged == nil {
		s.merged = map[string]string{}
	}
	mine := map[string]bool{}
	for _, f := range files {
		mine[s.trackedPlans()+planKey(s.path(f))] = true
	}
	// A ref merged before is in HEAD only while HEAD still has its commit:
	// a person may have moved HEAD back since (one git command for all).
	var kept []string
	for _, ref := range refs {
		if sha := s.tipOf(sh, ref); sha != "" && s.merged[ref] == sha {
			kept = append(kept, sha)
		}
	}
	if len(kept) > 0 {
		out, err := s.git(ctx, append(append([]string{"rev-list", "-n", "1"}, kept...), "^HEAD", "--")...)
		if err != nil {
			return err
		}
		if strings.TrimSpace(out) != "" {
			clear(s.merged)
		}
	}
	// Plan refs first, each the authority on its plan; then the branch,
	// where people push. One that does not merge undoes those merged
	// before it: nothing is merged.
	var head string
	var released map[string]string // the batch's tasks given up before
	for _, ref := range refs {
		sha := s.tipOf(sh, ref)
		if sha == "" || s.merged[ref] == sha {
			continue
		}
		if mine[ref] && s.merged[ref] != "" {
			s.raced = time.Now()
		}
		if head == "" {
			out, err := s.git(ctx, "rev-parse", "HEAD")
			if err != nil {
				return err
			}
			head, released = strings.TrimSpace(out), maps.Clone(s.released)
		}
		if err := s.mergeRef(ctx, ref, ref != s.remoteRef()); err != nil {
			if _, rerr := s.git(context.WithoutCancel(ctx), "reset", "-q", "--keep", head); rerr != nil {
				return errors.Join(err, rerr)
			}
			s.merged, s.released = nil, released
			return err
		}
		s.merged[ref] = sha
	}
	return nil
}

// tipOf is the commit of ref (a plan ref or the branch, the clone's
// copy) as last fetched (sh): "" when the remote has none.
func (s *Sync) tipOf(sh shared, ref string) string {
	if key, ok := strings.CutPrefix(ref, s.trackedPlans()); ok {
		return sh.plans[key]
	}
	return sh.branch
}

// unpushed is how many of HEAD's own commits (merges left out) none of
// tips has, and the repository paths they change.
func (s *Sync) unpushed(ctx context.Context, tips []string) (n int, paths []string, err error) {
	args := append([]string{"log", "-z", "--no-merges", "--format=%x01", "--name-only", "HEAD"}, "--not")
	out, err := s.git(ctx, append(append(args, tips...), "--")...)
	if err != nil {
		return 0, nil, err
	}
	for _, tok := range strings.Split(out, "\x00") {
		tok = strings.TrimLeft(tok, "\n")
		for strings.HasPrefix(tok, "\x01") {
			n++
			tok = strings.TrimLeft(tok[1:], "\n")
		}
		if tok != "" && !slices.Contains(paths, tok) {
			paths = append(paths, tok)
		}
	}
	return n, paths, nil
}

// planSpecs are the refspecs that push HEAD's own changes (WithPlanRefs),
// which change the repository paths paths (see pushed): HEAD to the plan
// ref of each plan they change, and to the branch when one of them
// changes another file or a plan the remote has no ref of yet (its ref is
// made with the branch, see errPlanRefs). branch reports the latter.
func (s *Sync) planSpecs(ctx context.Context, paths []string) (specs []string, branch bool, err error) {
	sh, err := s.readLeases(ctx)
	if err != nil {
		return nil, false, err
	}
	for _, p := range paths {
		if !s.isPlan(p) {
			branch = true
			continue
		}
		key := planKey(p)
		if _, ok := sh.plans[key]; !ok {
			branch = true
		}
		specs = append(specs, "HEAD:"+s.planRef(p))
	}
	if branch {
		specs = append(specs, "HEAD:refs/heads/"+s.branch)
	}
	return specs, branch, nil
}

// pushedPlans sets the clone's copy of each plan ref that specs pushed
// to HEAD, as a fetch would (git moves only the branch's by itself).
func (s *Sync) pushedPlans(ctx context.Context, specs []string) error {
	head, err := s.git(ctx, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	head = strings.TrimSpace(head)
	var in strings.Builder
	for _, spec := range specs {
		if ref, ok := strings.CutPrefix(spec, "HEAD:"+plansRefs+s.branch+"/"); ok {
			fmt.Fprintf(&in, "update %s %s\n", s.trackedPlans()+ref, head)
			if s.seen != nil {
				s.seen.plans[ref] = head
			}
			if s.merged != nil {
				s.merged[s.trackedPlans()+ref] = head
			}
		}
	}
	if in.Len() == 0 {
		return nil
	}
	_, err = s.gitInput(ctx, in.String(), "update-ref", "--stdin")
	return err
}

// fold brings the remote's branch up to every plan ref, when it was last
// moved foldAfter ago or more (always, when force): it merges every plan
// ref and the branch as last fetched into HEAD, and pushes HEAD to the
// branch once, whose rejection (another machine or a person pushed the
// branch since) is no failure. pushed reports that it landed. Only a
// clone whose own changes are all pushed folds.
func (s *Sync) fold(ctx context.Context, force bool) (pushed bool, offline string, err error) {
	sh, err := s.readLeases(ctx)
	if err != nil {
		return false, "", err
	}
	if !force {
		// One machine about every foldAfter: each waits its turn among
		// the machines holding claims.
		turn := s.foldAfter * time.Duration(1+s.othersHolding(sh, nil))
		if time.Since(sh.branchMoved) < s.foldAfter || time.Since(s.folded) < turn {
			return false, "", nil
		}
	}
	s.folded = time.Now()
	// Every plan as its ref has it, and the branch: HEAD may hold only
	// the plans its batches changed.
	if err := s.mergeAll(ctx, sh, s.tips(sh), nil); err != nil {
		return false, "", err
	}
	rejected, offline, err := s.pushRefs(ctx, "", "HEAD:refs/heads/"+s.branch)
	if rejected {
		s.merged = nil // merged again next time, whatever HEAD now holds
	}
	return err == nil && !rejected && offline == "", offline, err
}
