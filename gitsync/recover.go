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
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// changeFile records an operation in progress: written (durably) once the
// person's edits are set aside and before the operation merges or writes
// anything, written again after each change is made and before it is
// committed, removed when the operation ends. It names the files the
// operation could write, with the SHA-256 of each one's content before
// the operation ("file" lines) and as each change wrote it ("wrote"
// lines). An operation that finds it was preceded by one that crashed
// takes back what that one left (settle): a file whose content is one of
// those, or the remote's, is its own half-made change, never a person's
// edit (those were set aside first). Any other content was written after
// the crash, by a person: it is kept. Its lock is the clone's, as
// asideFile's.
const changeFile = workspace.StateDir + "/gitsync/change"

// changeHeader is the first line of changeFile.
const changeHeader = "taskmd: a change in progress"

// absent is the recorded hash of a file that did not exist.
const absent = "absent"

// staleAge is how old a git lock file must be to be taken for a crashed
// git's where the running processes cannot be listed (no /proc).
const staleAge = 10 * time.Minute

// record is changeFile's content: the files of an operation (repository
// paths) in order, each one's hash before it, and the hashes of the
// contents the operation gave each file (the one before included).
type record struct {
	paths  []string
	before map[string]string
	ours   map[string]map[string]bool
	text   []byte
}

func newRecord() *record {
	return &record{before: map[string]string{}, ours: map[string]map[string]bool{}}
}

// add records sum as a content of path the operation gave it, before
// its change (kind "file") or as a change wrote it ("wrote"); it reports
// whether the record changed.
func (r *record) add(kind, path, sum string) bool {
	if kind == "file" {
		if _, seen := r.before[path]; seen {
			return false
		}
		r.paths = append(r.paths, path)
		r.before[path] = sum
	} else if r.ours[path][sum] {
		return false
	}
	if r.ours[path] == nil {
		r.ours[path] = map[string]bool{}
	}
	r.ours[path][sum] = true
	r.text = fmt.Appendf(r.text, "%s %s %s\n", kind, sum, path)
	return true
}

// isOurs reports whether data (nil: no file) is a content the operation
// gave path.
func (r *record) isOurs(path string, data []byte) bool {
	return r.ours[path][hashOf(data)]
}

// hashOf is a content's recorded hash: its SHA-256, absent for none.
func hashOf(data []byte) string {
	if data == nil {
		return absent
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// begin records the change about to be made to the workspace files
// files: each one's repository path and the SHA-256 of its content now.
func (s *Sync) begin(tx *workspace.Tx, files []string) (*record, error) {
	rec := newRecord()
	rec.text = []byte(changeHeader + "\n")
	for _, f := range files {
		data, err := tx.ReadIfExists(f)
		if err != nil {
			return nil, err
		}
		rec.add("file", s.path(f), hashOf(data))
	}
	return rec, tx.Write(changeFile, rec.text)
}

// wrote records the content of each workspace file of files as a change
// wrote it, before the change is committed: one durable write, none when
// the record has them all. The content stays in rec even when the write
// fails, for the settle that takes the change back at once.
func (s *Sync) wrote(tx *workspace.Tx, rec *record, files []string) error {
	return s.note(tx, rec, "wrote", files)
}

// note records in rec the content of each workspace file of files now, as
// kind ("file": before the change; "wrote": as a change wrote it), and
// writes the record durably when it grew.
func (s *Sync) note(tx *workspace.Tx, rec *record, kind string, files []string) error {
	grew := false
	for _, f := range files {
		data, err := tx.ReadIfExists(f)
		if err != nil {
			return err
		}
		if rec.add(kind, s.path(f), hashOf(data)) {
			grew = true
		}
	}
	if !grew {
		return nil
	}
	return tx.Write(changeFile, rec.text)
}

// recorded reads changeFile, with the contents of mem (the operation's
// own record when it settles its own failure; nil otherwise) added. ok
// is false when there is neither.
func recorded(tx *workspace.Tx, mem *record) (rec *record, ok bool, err error) {
	data, err := tx.ReadIfExists(changeFile)
	if err != nil {
		return nil, false, err
	}
	if data == nil && mem == nil {
		return nil, false, nil
	}
	rec = newRecord()
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.SplitN(line, " ", 3)
		if len(f) == 3 && (f[0] == "file" || f[0] == "wrote") {
			rec.add(f[0], f[2], f[1])
		}
	}
	if mem != nil {
		for _, p := range mem.paths {
			rec.add("file", p, mem.before[p])
			for sum := range mem.ours[p] {
				rec.add("wrote", p, sum)
			}
		}
	}
	return rec, true, nil
}

// settle takes back what an operation that did not end left in the
// clone, when changeFile records one (or mem, the operation's own record
// when it settles its own failure): a merge in progress is aborted, the
// index is set to HEAD (a commit that landed keeps its files; one that did
// not leaves them as they were), and each file the operation could have
// written (its own files, and those a merge of the remote's branch
// changes) that differs from HEAD is put back as HEAD has it when its
// content is the operation's (recorded before or after a change, or the
// remote's version, which a merge writes) or it is missing; a file that
// HEAD does not have is removed when the operation made it (it did not
// exist before) and it holds a content the operation wrote, or the
// remote's version. Any other content is a person's, written after the
// crash (or a change's, written just before a crash and not yet
// recorded): it stays as it is, an uncommitted edit that the call sets
// aside and puts back like any other. Then changeFile goes.
func (s *Sync) settle(ctx context.Context, tx *workspace.Tx, mem *record) error {
	rec, ok, err := recorded(tx, mem)
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
	paths := slices.Clone(rec.paths)
	// The remote's refs that a merge could have written from: the branch,
	// and with plan refs each plan ref.
	sh, err := s.readLeases(ctx)
	if err != nil {
		return err
	}
	tips := s.tips(sh)
	if !s.planRefs {
		tips = slices.DeleteFunc(tips, func(r string) bool { return r != s.remoteRef() })
	}
	for _, tip := range tips {
		out, err := s.git(ctx, "diff", "--name-only", "-z", "--no-renames", "HEAD", tip, "--")
		if err != nil {
			return err
		}
		for _, p := range strings.Split(out, "\x00") {
			if _, seen := rec.before[p]; p != "" && !seen && !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		return tx.Remove(changeFile)
	}
	entries, err := s.status(ctx, paths)
	if err != nil {
		return err
	}
	var restore []string
	for _, e := range entries {
		p := e[3:]
		name := filepath.Join(s.top, filepath.FromSlash(p))
		data, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			// A git killed between removing a file and writing it
			// again; nothing of a person's is lost by putting it back.
			restore = append(restore, p)
			continue
		} else if err != nil {
			return &taskdoc.Error{Code: taskdoc.CodeIO, Path: p, Err: err, Msg: fmt.Sprintf("taking back a change that did not end: %v", err)}
		}
		theirs := false
		for _, tip := range tips {
			if theirs || rec.isOurs(p, data) {
				break
			}
			if theirs, err = s.sameAs(ctx, p, tip); err != nil {
				return err
			}
		}
		switch {
		case !rec.isOurs(p, data) && !theirs:
			// A person's: kept.
		case e[:2] != "??":
			restore = append(restore, p)
		case rec.before[p] == absent || theirs:
			if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
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

// status is git's short status of the repository paths paths that
// differ from HEAD (modified, added or untracked), one entry each: its
// two-letter code, a space and the path ("?? docs/new.md").
func (s *Sync) status(ctx context.Context, paths []string) ([]string, error) {
	out, err := s.git(ctx, append([]string{"status", "--porcelain", "-z", "-uall", "--no-renames", "--"}, literal(paths)...)...)
	if err != nil {
		return nil, err
	}
	var entries []string
	for _, e := range strings.Split(out, "\x00") {
		if len(e) > 3 {
			entries = append(entries, e)
		}
	}
	return entries, nil
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
