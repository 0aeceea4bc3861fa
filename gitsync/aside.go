package gitsync

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// asideFile records the stash holding a person's edits while an operation
// runs, so that the next operation puts them back after a crash. Its lock
// is the clone's: every operation runs under it.
const asideFile = workspace.StateDir + "/gitsync/aside"

// setAside stashes the clone's uncommitted changes to tracked files, if
// there are any, and records the stash; "" when there were none.
func (s *Sync) setAside(ctx context.Context, tx *workspace.Tx) (string, error) {
	out, err := s.git(ctx, "status", "--porcelain", "-z", "-uno")
	if err != nil || out == "" {
		return "", err
	}
	// The stash on top before this one is recorded first: a crash inside
	// git stash (its stash made, the files not yet all put back as HEAD
	// has them) leaves a new stash on top that is this one.
	prev, err := s.git(ctx, "rev-parse", "-q", "--verify", "refs/stash")
	if err != nil {
		prev = "" // no stash yet
	}
	if err := tx.Write(asideFile, []byte(pending+strings.TrimSpace(prev)+"\n")); err != nil {
		return "", err
	}
	if _, err := s.gitAs(ctx, "stash", "push", "-q", "-m", asideMsg); err != nil {
		return "", errors.Join(err, tx.Remove(asideFile))
	}
	sha, err := s.git(ctx, "rev-parse", "-q", "--verify", "refs/stash")
	if err != nil {
		return "", err
	}
	sha = strings.TrimSpace(sha)
	return sha, tx.Write(asideFile, []byte(sha+"\n"))
}

// putBack applies the stash sha on the working tree, merging each file
// the change touched too (task documents task by task), and drops it.
// conflicts lists the files where both changed the same lines: they hold
// conflict markers, and the stash is kept (kept is its commit).
func (s *Sync) putBack(ctx context.Context, tx *workspace.Tx, sha string) (conflicts []string, kept string, err error) {
	ctx = context.WithoutCancel(ctx) // a person's edits go back even when the caller gave up
	list, err := s.git(ctx, "stash", "list", "--format=%H")
	if err != nil {
		return nil, "", err
	}
	at := slices.Index(strings.Fields(list), sha)
	if at < 0 { // applied and dropped already
		return nil, "", tx.Remove(asideFile)
	}
	if _, aerr := s.gitAs(ctx, "stash", "apply", "-q", sha); aerr != nil {
		paths, err := s.unmerged(ctx)
		if err != nil {
			return nil, "", err
		}
		if len(paths) == 0 { // git refused before changing anything
			if err := tx.Remove(asideFile); err != nil {
				return nil, sha, err
			}
			return nil, sha, &taskdoc.Error{Code: taskdoc.CodeConflict, Err: aerr, Msg: fmt.Sprintf(
				"the change was made, but the uncommitted edits it set aside could not be put back (%v): they are kept in the stash, git stash apply %s", aerr, sha)}
		}
		for _, p := range paths {
			res, ok, err := s.resolve(ctx, p, "merged", "your edits")
			if err != nil {
				return nil, "", err
			}
			if !ok {
				if res.Bytes != nil {
					if err := writeWorking(s.top+"/"+p, res.Bytes); err != nil {
						return nil, "", err
					}
				}
				conflicts = append(conflicts, p)
			}
		}
		// The edits stay uncommitted, as they were: nothing is staged.
		if _, err := s.git(ctx, "reset", "-q"); err != nil {
			return nil, "", err
		}
		if len(conflicts) > 0 {
			return conflicts, sha, tx.Remove(asideFile)
		}
	}
	if _, err := s.git(ctx, "stash", "drop", "-q", fmt.Sprintf("stash@{%d}", at)); err != nil {
		return nil, "", err
	}
	return nil, "", tx.Remove(asideFile)
}

// recoverAside puts back the edits an operation that crashed set aside,
// after undoing a merge it left half made.
func (s *Sync) recoverAside(ctx context.Context, tx *workspace.Tx) (Report, error) {
	data, err := tx.ReadIfExists(asideFile)
	if err != nil || data == nil {
		return Report{}, err
	}
	if _, err := s.git(ctx, "rev-parse", "-q", "--verify", "MERGE_HEAD"); err == nil {
		if err := s.abortMerge(ctx, nil); err != nil {
			return Report{}, err
		}
	}
	sha := strings.TrimSpace(string(data))
	// "pending <prev>", "pending" alone when there was no stash before.
	if prev, ok := strings.CutPrefix(sha+" ", pending); ok {
		prev = strings.TrimSpace(prev)
		if sha, err = s.halfSetAside(ctx, prev); err != nil || sha == "" {
			return Report{}, errors.Join(err, tx.Remove(asideFile))
		}
	}
	conflicts, kept, err := s.putBack(ctx, tx, sha)
	var te *taskdoc.Error
	if kept != "" && len(conflicts) == 0 && errors.As(err, &te) && te.Code == taskdoc.CodeConflict {
		// git refused to apply it over the files' edits: the crash came
		// after it was put back and before it was dropped, or a person
		// edited the files since. It stays in the stash, told as kept,
		// and this call goes on: nothing of the crashed call is left.
		err = nil
	}
	return Report{Conflicts: conflicts, Stash: kept}, err
}

// asideMsg is the message of the stashes setAside makes.
const asideMsg = "taskmd: uncommitted edits set aside while a change is shared"

// pending starts asideFile's record while git stash runs: the stash that
// was on top before it follows.
const pending = "pending "

// halfSetAside settles a git stash that a crash stopped, prev being the
// stash on top before it: when it made its stash, the files it holds are
// set back as HEAD has them (git may have reset some of them, or none),
// so that putting the stash back restores the edits exactly, and the
// stash is returned; "" when it made none (it changed nothing then). The
// stash on top is its own only when it has setAside's message and lies
// right on prev: a person may have stashed, popped or dropped stashes of
// their own since, which are theirs to apply.
func (s *Sync) halfSetAside(ctx context.Context, prev string) (string, error) {
	list, err := s.git(ctx, "stash", "list", "-n", "2", "--format=%H %s")
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSpace(list), "\n")
	top, subject, _ := strings.Cut(lines[0], " ")
	under := ""
	if len(lines) > 1 {
		under, _, _ = strings.Cut(lines[1], " ")
	}
	if top == "" || top == prev || under != prev || !strings.HasSuffix(subject, ": "+asideMsg) {
		return "", nil
	}
	files, err := s.git(ctx, "diff", "--name-only", "-z", "--no-renames", "HEAD", top, "--")
	if err != nil {
		return "", err
	}
	var paths []string
	for _, p := range strings.Split(files, "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) > 0 {
		if _, err := s.git(ctx, append([]string{"checkout", "-q", "HEAD", "--"}, literal(paths)...)...); err != nil {
			return "", err
		}
	}
	return top, nil
}
