package gitsync

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/merge"
	"github.com/taskmd/taskmd/taskdoc"
)

// fetch brings the shared branch from the remote, with the leases, the
// waiting refs and the plan refs; the clone's copies of those the remote
// no longer has go (a plan ref a person deleted is not merged again, nor
// does it refuse a clone without plan refs). offline is git's message
// when the remote could not be reached; a branch the remote does not have
// yet is no error (the first push makes it).
func (s *Sync) fetch(ctx context.Context) (offline string, err error) {
	s.fetches++
	_, err = s.git(ctx, "fetch", "-q", "--prune", "--no-tags", s.remote,
		"+refs/heads/"+s.branch+":"+s.remoteRef(), "+"+leaseRef("*")+":"+s.trackedLeases()+"*",
		"+"+waitingRefs+"*:"+s.waitingRef("*"),
		"+"+plansRefs+s.branch+"/*:"+s.trackedPlans()+"*")
	if err == nil {
		return "", nil
	}
	ge, ok := git.As(err)
	if !ok || ctx.Err() != nil {
		return "", err
	}
	if strings.Contains(ge.Stderr, "couldn't find remote ref") {
		return "", nil
	}
	if !unreachable(ge) {
		return "", err
	}
	return ge.Stderr, nil
}

// unreachable reports whether a failed fetch or push is the remote out
// of reach (git said it could not connect, or read from the remote) rather
// than this clone's own trouble: a lock file of the clone (a crashed git),
// a local ref it could not write, an object it could not write or read
// (permissions, a full disk, a corrupt repository), or anything git did
// not say was the remote's. Only the remote out of reach queues a change.
func unreachable(ge *git.Error) bool {
	if ge.Stderr == "" || ge.ExitCode < 0 {
		return false
	}
	msg := strings.ToLower(ge.Stderr)
	for _, local := range localTrouble {
		if strings.Contains(msg, local) {
			return false
		}
	}
	for _, remote := range remoteOutOfReach {
		if strings.Contains(msg, remote) {
			return true
		}
	}
	return false
}

// remoteOutOfReach is what git says (lower case) when it cannot reach a
// remote: over ssh and git://, over http, or at a local path.
var remoteOutOfReach = []string{
	"could not read from remote repository",
	"does not appear to be a git repository",
	"unable to access '", // http: what follows says why
	"could not resolve host",
	"temporary failure in name resolution",
	"name or service not known",
	"unable to look up",
	"unable to connect to",
	"failed to connect to",
	"connection refused",
	"connection timed out",
	"operation timed out",
	"connection reset",
	"network is unreachable",
	"no route to host",
	"the remote end hung up",
	"rpc failed",
	"early eof",
}

// localTrouble is what git says (lower case) of a failure in the clone
// itself, which no wait for the remote mends.
var localTrouble = []string{
	".lock': file exists",
	"cannot lock ref",
	"insufficient permission",
	"unable to create temporary",
	"unable to write",
	"failed to write",
	"no space left on device",
	"disk quota exceeded",
	"read-only file system",
	"is corrupt",
	"is empty",
	"bad object",
	"corrupt",
	"index-pack failed",
	"unpack-objects failed",
	"not a git repository",
}

// counts is how many commits HEAD has that the remote's branch has not
// (ahead), and the other way round (behind). A remote without the branch
// is behind by nothing.
func (s *Sync) counts(ctx context.Context) (ahead, behind int, err error) {
	out, err := s.git(ctx, "rev-list", "--left-right", "--count", "HEAD..."+s.remoteRef(), "--")
	if err != nil {
		// No remote-tracking branch yet: everything is HEAD's own.
		if _, verr := s.git(ctx, "rev-parse", "-q", "--verify", s.remoteRef()); verr == nil {
			return 0, 0, err
		}
		out, err := s.git(ctx, "rev-list", "--count", "HEAD")
		if err != nil {
			return 0, 0, err
		}
		ahead, _ = strconv.Atoi(strings.TrimSpace(out))
		return ahead, 0, nil
	}
	f := strings.Fields(out)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("git rev-list --left-right --count: unexpected output %q", out)
	}
	ahead, _ = strconv.Atoi(f[0])
	behind, _ = strconv.Atoi(f[1])
	return ahead, behind, nil
}

// integrate fetches and merges the remote's branch into HEAD (with plan
// refs, the refs of the plans the calls live write or read: see
// mergeTips): a fast forward when HEAD has nothing of its
// own, else a merge commit whose task documents are merged task by task.
// ahead is what HEAD then has to push, and queued (with plan refs) the
// repository paths its own unpushed commits changed before the batch's;
// offline is git's message when the remote could not be reached (nothing
// is merged then). A merge that
// leaves conflicts is undone and is MERGE_CONFLICT naming them. A clone
// without plan refs whose remote has some for its branch is refused
// (errPlanRefs).
func (s *Sync) integrate(ctx context.Context, live []*call) (ahead int, queued []string, offline string, err error) {
	if s.planRefs {
		files, all := batchPlans(live)
		return s.mergeTips(ctx, files, all)
	}
	if offline, err = s.fetch(ctx); err != nil {
		return 0, nil, "", err
	}
	if sh, err := s.readLeases(ctx); err != nil {
		return 0, nil, "", err
	} else if len(sh.plans) > 0 {
		return 0, nil, "", s.errPlanRefs()
	}
	if offline != "" {
		ahead, _, err = s.counts(ctx)
		return ahead, nil, offline, err
	}
	ahead, behind, err := s.counts(ctx)
	if behind > 0 {
		s.raced = time.Now() // another machine pushed (see pace)
	}
	if err != nil || behind == 0 {
		return ahead, nil, "", err
	}
	if ahead == 0 {
		_, err = s.git(ctx, "merge", "-q", "--ff-only", s.remoteRef())
		return 0, nil, "", err
	}
	if err := s.mergeRef(ctx, s.remoteRef(), true); err != nil {
		return 0, nil, "", err
	}
	ahead, _, err = s.counts(ctx)
	return ahead, nil, "", err
}

// mergeRef merges ref, the clone's copy of a ref of the remote, into HEAD:
// a fast forward when HEAD has nothing ref has not, else a merge commit.
// The files git leaves in conflict (when the taskmd merge driver is not
// set up, or by its verdict) are merged with merge.File from the three
// versions git staged; when any still conflicts, the merge is aborted.
// mayYield lets the changes this clone queued give way to ref's (see
// yield): ref is the branch, or a plan ref, that decides the order of the
// changes it carries.
func (s *Sync) mergeRef(ctx context.Context, ref string, mayYield bool) error {
	label := s.refLabel(ref)
	_, err := s.gitAs(ctx, "merge", "-q", "--ff", "--no-edit", "-m", "taskmd: merge "+label, ref)
	if err == nil {
		return nil
	}
	paths, lerr := s.unmerged(ctx)
	if lerr != nil {
		return s.abortMerge(ctx, errors.Join(err, lerr))
	}
	if len(paths) == 0 {
		return s.abortMerge(ctx, err)
	}
	var left []string
	gave := map[string]string{} // counted once the merge is made
	for _, p := range paths {
		res, ok, err := s.resolve(ctx, p, "HEAD", label)
		if err != nil {
			return s.abortMerge(ctx, err)
		}
		if !ok && mayYield {
			given, yielded, err := s.yield(ctx, p, res)
			if err != nil {
				return s.abortMerge(ctx, err)
			}
			if yielded {
				maps.Copy(gave, given)
				continue
			}
		}
		if !ok {
			left = append(left, describe(p, res))
		}
	}
	if len(left) > 0 {
		return s.abortMerge(ctx, &taskdoc.Error{Code: merge.CodeMergeConflict, Msg: fmt.Sprintf(
			"merging %s: %s; nothing was merged: a person settles them (git pull, edit, commit), then the change is made again",
			label, strings.Join(left, "; "))})
	}
	if _, err = s.gitAs(ctx, "commit", "-q", "--no-edit"); err != nil {
		return s.abortMerge(ctx, err)
	}
	maps.Copy(s.released, gave)
	return nil
}

// refLabel names ref, the clone's copy of a ref of the remote, for a
// person: "origin/main", or "origin/main's plan docs/plan.md".
func (s *Sync) refLabel(ref string) string {
	branch := s.remote + "/" + s.branch
	key, ok := strings.CutPrefix(ref, s.trackedPlans())
	if !ok {
		return branch
	}
	if path, ok := planPath(key); ok {
		key = path
	}
	return branch + "'s plan " + key
}

// abortMerge undoes a merge in progress, on a tree that had no changes of
// its own (they are set aside), and returns why the merge was given up:
// cause, with git's message when the merge could not be undone either.
func (s *Sync) abortMerge(ctx context.Context, cause error) error {
	if _, err := s.git(context.WithoutCancel(ctx), "merge", "--abort"); err != nil {
		if _, merging := s.git(context.WithoutCancel(ctx), "rev-parse", "-q", "--verify", "MERGE_HEAD"); merging == nil {
			return errors.Join(cause, err)
		}
	}
	return cause
}

// pushRefs sends refspecs to the remote, all or none, with the option
// lease of the machine's lease ref (see leaseLease; "" for none).
// rejected reports that the remote moved since the last fetch; offline is
// git's message when it could not be reached; errLeaseMoved that the
// lease ref is not what this clone last pushed.
func (s *Sync) pushRefs(ctx context.Context, lease string, refspecs ...string) (rejected bool, offline string, err error) {
	args := []string{"push", "-q", s.remote}
	if len(refspecs) > 1 {
		args = append(args, "--atomic")
	}
	if lease != "" {
		args = append(args, lease)
	}
	_, err = s.git(ctx, append(args, refspecs...)...)
	if err == nil {
		return false, "", nil // git moved the remote-tracking branch too
	}
	ge, ok := git.As(err)
	if !ok || ctx.Err() != nil {
		return false, "", err
	}
	if len(refspecs) > 1 && strings.Contains(ge.Stderr, "does not support --atomic") {
		if s.planRefs {
			// One plan's ref moved without the other's would share a
			// change that lost its compare-and-swap.
			return false, "", fmt.Errorf("%w; plan refs (gitsync.WithPlanRefs) need a remote that takes atomic pushes", err)
		}
		// One after the other, the branch first: a claim shared without
		// its lease holds (see holding) until the lease follows.
		for _, r := range refspecs {
			if rejected, offline, err = s.pushRefs(ctx, lease, r); err != nil || rejected || offline != "" {
				return rejected, offline, err
			}
		}
		return false, "", nil
	}
	switch {
	case lease != "" && strings.Contains(ge.Stderr, "(stale info)"):
		return false, "", errLeaseMoved
	case strings.Contains(ge.Stderr, "[rejected]") &&
		(strings.Contains(ge.Stderr, "fetch first") || strings.Contains(ge.Stderr, "non-fast-forward")):
		return true, "", nil
	case strings.Contains(ge.Stderr, "[rejected]"):
		return false, "", err // the remote answered no for good (a ref at a blob needs force)
	case strings.Contains(ge.Stderr, "exists; cannot create"):
		return false, "", err // a ref of the remote is nested under the name: no retry helps
	case strings.Contains(ge.Stderr, "[remote rejected]") &&
		(strings.Contains(ge.Stderr, "failed to update ref") || strings.Contains(ge.Stderr, "cannot lock ref")):
		return true, "", nil // another push updated the branch at the same moment
	case strings.Contains(ge.Stderr, "[remote rejected]") && strings.Contains(ge.Stderr, "unable to migrate objects"):
		return true, "", nil // the remote's objects moved under it (its gc): the branch is as it was
	case strings.Contains(ge.Stderr, "[remote rejected]"):
		return false, "", err // a hook or a protected branch: no retry helps
	case !unreachable(ge):
		return false, "", err
	default:
		return false, ge.Stderr, nil
	}
}

// commit commits the files paths (repository-relative) as they are in the
// working tree, and nothing else, on HEAD. added names the files that git
// does not track yet.
func (s *Sync) commit(ctx context.Context, paths, added []string, msg string) error {
	// Not stopped half way when ctx ends: a commit made is known, and
	// taken back with the batch.
	ctx = context.WithoutCancel(ctx)
	if len(added) > 0 {
		if _, err := s.git(ctx, append([]string{"add", "--"}, added...)...); err != nil {
			return err
		}
	}
	_, err := s.gitAs(ctx, append([]string{"commit", "-q", "--no-verify", "-m", msg, "--only", "--"}, paths...)...)
	return err
}

// uncommit takes back commit, HEAD, made by this call: the branch goes
// back to its parent and the files to the parent's version. It runs
// even when ctx has ended (a cancelled push), so that the call changes
// nothing.
func (s *Sync) uncommit(ctx context.Context, commit string) error {
	_, err := s.git(context.WithoutCancel(ctx), "reset", "-q", "--keep", commit+"~1")
	return err
}
