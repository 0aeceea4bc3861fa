package gitsync

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// changeFile records an operation in progress: written (durably) once the
// person's edits are set aside and before the operation merges or writes
// anything, removed when it ends. An operation that finds it was preceded
// by one that crashed: every difference from HEAD in the files that
// operation could write is its own half-made change, never a person's
// edit (those were set aside first), and is taken back. Its lock is the
// clone's, as asideFile's.
const changeFile = workspace.StateDir + "/gitsync/change"

// changeHeader is the first line of changeFile.
const changeHeader = "taskmd: a change in progress"

// absent is the recorded hash of a file that did not exist.
const absent = "absent"

// staleAge is how old a git lock file must be to be taken for a crashed
// git's where the running processes cannot be listed (no /proc).
const staleAge = 10 * time.Minute

// begin records the change about to be made to the workspace files
// files: each one's repository path and the SHA-256 of its content now.
func (s *Sync) begin(tx *workspace.Tx, files []string) error {
	var b strings.Builder
	b.WriteString(changeHeader + "\n")
	for _, f := range files {
		data, err := tx.ReadIfExists(f)
		if err != nil {
			return err
		}
		sum := absent
		if data != nil {
			h := sha256.Sum256(data)
			sum = hex.EncodeToString(h[:])
		}
		fmt.Fprintf(&b, "file %s %s\n", sum, s.path(f))
	}
	return tx.Write(changeFile, []byte(b.String()))
}

// recorded reads changeFile: the files of the change (repository paths)
// and the hash each had before it. ok is false when there is none.
func recorded(tx *workspace.Tx) (paths, sums []string, ok bool, err error) {
	data, err := tx.ReadIfExists(changeFile)
	if err != nil || data == nil {
		return nil, nil, false, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.SplitN(line, " ", 3)
		if len(f) == 3 && f[0] == "file" {
			sums, paths = append(sums, f[1]), append(paths, f[2])
		}
	}
	return paths, sums, true, nil
}

// settle takes back what an operation that did not end left in the
// clone, when changeFile records one: a merge in progress is aborted, the
// index is set to HEAD (a commit that landed keeps its files; one that did
// not leaves them as they were), and each file the operation could have
// written (its own files, and those a merge of the remote's branch
// changes) that differs from HEAD is put back as HEAD has it; a file that
// HEAD does not have is removed when the operation made it (it did not
// exist before, or holds the remote's version). Other files are a
// person's and stay as they are. Then changeFile goes.
func (s *Sync) settle(ctx context.Context, tx *workspace.Tx) error {
	paths, sums, ok, err := recorded(tx)
	if err != nil || !ok {
		return err
	}
	ctx = context.WithoutCancel(ctx) // a half-made change is taken back whole
	if _, err := s.git(ctx, "rev-parse", "-q", "--verify", "MERGE_HEAD"); err == nil {
		if _, err := s.git(ctx, "merge", "--abort"); err != nil {
			return err
		}
	}
	if _, err := s.git(ctx, "reset", "-q"); err != nil {
		return err
	}
	made := map[string]bool{}
	for i, p := range paths {
		made[p] = sums[i] == absent
	}
	hasRemote := false
	if _, err := s.git(ctx, "rev-parse", "-q", "--verify", s.remoteRef()); err == nil {
		hasRemote = true
		out, err := s.git(ctx, "diff", "--name-only", "-z", "--no-renames", "HEAD", s.remoteRef(), "--")
		if err != nil {
			return err
		}
		for _, p := range strings.Split(out, "\x00") {
			if _, seen := made[p]; p != "" && !seen {
				paths = append(paths, p)
				made[p] = false
			}
		}
	}
	if len(paths) == 0 {
		return tx.Remove(changeFile)
	}
	out, err := s.git(ctx, append([]string{"status", "--porcelain", "-z", "-uall", "--no-renames", "--"}, literal(paths)...)...)
	if err != nil {
		return err
	}
	var restore []string
	for _, e := range strings.Split(out, "\x00") {
		if len(e) < 4 {
			continue
		}
		p := e[3:]
		if e[:2] != "??" {
			restore = append(restore, p)
			continue
		}
		theirs := false
		if !made[p] && hasRemote {
			if theirs, err = s.sameAs(ctx, p, s.remoteRef()); err != nil {
				return err
			}
		}
		if made[p] || theirs {
			if err := os.Remove(filepath.Join(s.top, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return &taskdoc.Error{Code: taskdoc.CodeIO, Path: p, Err: err, Msg: fmt.Sprintf("taking back a change that did not end: %v", err)}
			}
		}
	}
	if len(restore) > 0 {
		if _, err := s.git(ctx, append([]string{"checkout", "-q", "HEAD", "--"}, literal(restore)...)...); err != nil {
			return err
		}
	}
	return tx.Remove(changeFile)
}

// literal makes repository paths into pathspecs that match only
// themselves.
func literal(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = ":(top,literal)" + p
	}
	return out
}

// sameAs reports whether the working file path holds what commit has at
// path.
func (s *Sync) sameAs(ctx context.Context, path, commit string) (bool, error) {
	want, err := s.git(ctx, "rev-parse", "-q", "--verify", commit+":"+path)
	if err != nil {
		return false, nil // commit has no such file
	}
	got, err := s.git(ctx, "hash-object", "--", path)
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(got) == strings.TrimSpace(want), nil
}

// gitLocks lists the lock files git may leave in the clone when it is
// killed while writing the index, a ref, the shallow list or the config:
// the ones that exist.
func (s *Sync) gitLocks() []string {
	// index.lock, next-index-*.lock (commit --only), HEAD.lock,
	// ORIG_HEAD.lock... in the worktree's folder; packed-refs.lock,
	// shallow.lock, config.lock in the common one.
	found, _ := filepath.Glob(filepath.Join(s.gitDir, "*.lock"))
	if s.commonDir != s.gitDir {
		common, _ := filepath.Glob(filepath.Join(s.commonDir, "*.lock"))
		found = append(found, common...)
	}
	_ = filepath.WalkDir(filepath.Join(s.commonDir, "refs"), func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(name, ".lock") {
			found = append(found, name)
		}
		return nil
	})
	return found
}

// clearLocks removes the lock files that a git killed in this clone left,
// for the operation that holds the clone's lock since acquired. Every git
// command of the library runs under that lock, so a lock file made before
// it was taken is a dead command's, unless a git process of somebody
// else's is running in the clone now (a person's "git commit" waiting for
// its editor): then nothing is removed, and the git command that meets the
// lock fails with git's message. Where processes cannot be listed, a lock
// file must also be older than staleAge.
func (s *Sync) clearLocks(acquired time.Time) error {
	locks := s.gitLocks()
	if len(locks) == 0 {
		return nil
	}
	live, listed := s.gitRunning()
	if live {
		return nil
	}
	for _, name := range locks {
		fi, err := os.Lstat(name)
		if err != nil || !fi.ModTime().Before(acquired) || (!listed && time.Since(fi.ModTime()) < staleAge) {
			continue
		}
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name, Err: err,
				Msg: fmt.Sprintf("removing %s, left by a git process that ended: %v", name, err)}
		}
	}
	return nil
}

// gitRunning reports whether a git process works in this clone now: one
// whose working folder is in the repository. listed is false where the
// processes cannot be listed (no /proc). Processes whose folder cannot be
// read (another user's) are not counted.
func (s *Sync) gitRunning() (live, listed bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false, false
	}
	self := os.Getpid()
	for _, e := range entries {
		pid := e.Name()
		if pid[0] < '0' || pid[0] > '9' || pid == fmt.Sprint(self) {
			continue
		}
		comm, err := os.ReadFile("/proc/" + pid + "/comm")
		if err != nil || !bytes.Equal(bytes.TrimSpace(comm), []byte("git")) {
			continue
		}
		cwd, err := os.Readlink("/proc/" + pid + "/cwd")
		if err != nil {
			continue
		}
		for _, dir := range []string{s.top, s.gitDir, s.commonDir} {
			if cwd == dir || strings.HasPrefix(cwd, dir+string(filepath.Separator)) {
				return true, true
			}
		}
	}
	return false, true
}

// explain gives a git failure that printed nothing its likely cause: a
// lock file of the clone that a running git holds (clearLocks left it).
func (s *Sync) explain(err error) error {
	ge, ok := git.As(err)
	if !ok || ge.Stderr != "" {
		return err
	}
	if locks := s.gitLocks(); len(locks) > 0 {
		ge.Stderr = fmt.Sprintf("git printed no message; %s exists: another git process is running in this clone; when it has ended, try again",
			strings.Join(locks, ", "))
	}
	return err
}
