package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gofrs/flock"
	"github.com/taskmd/taskmd/taskdoc"
)

// processLocks holds one lock per (root, name) for the whole process, shared
// by every Workspace value. Each lock is a channel with room for one token,
// so waiting for it can also wait for a context; entries are counted and
// dropped when nobody holds or waits for them, so the table does not grow
// with the number of names ever locked.
var processLocks = struct {
	sync.Mutex
	m map[string]*processLock
}{m: make(map[string]*processLock)}

type processLock struct {
	token chan struct{}
	refs  int // holders and waiters
}

func lockProcess(ctx context.Context, key string) error {
	processLocks.Lock()
	l := processLocks.m[key]
	if l == nil {
		l = &processLock{token: make(chan struct{}, 1)}
		processLocks.m[key] = l
	}
	l.refs++
	processLocks.Unlock()

	select {
	case l.token <- struct{}{}:
		return nil
	default:
	}
	select {
	case l.token <- struct{}{}:
		return nil
	case <-ctx.Done():
		dropProcessRef(key, l)
		return ctx.Err()
	}
}

func unlockProcess(key string) {
	processLocks.Lock()
	l := processLocks.m[key]
	processLocks.Unlock()
	<-l.token
	dropProcessRef(key, l)
}

func dropProcessRef(key string, l *processLock) {
	processLocks.Lock()
	l.refs--
	if l.refs == 0 {
		delete(processLocks.m, key)
	}
	processLocks.Unlock()
}

// heldLock is one name locked in the process and on disk.
type heldLock struct {
	w     *Workspace
	key   string
	base  string   // the lock file's name in the lock directory
	names []string // the names the caller locked with it
	file  *flock.Flock
}

// lock takes the process lock and then the file lock of one validated
// name (a lock key); names are the caller's names that share it.
func (w *Workspace) lock(ctx context.Context, name string, names []string) (heldLock, error) {
	key := w.lockKey + "\x00" + name
	if err := lockProcess(ctx, key); err != nil {
		return heldLock{}, ctxErr(ctx, name)
	}
	file, err := w.lockFile(ctx, name)
	if err != nil {
		unlockProcess(key)
		return heldLock{}, err
	}
	return heldLock{w: w, key: key, base: path.Base(lockFileName(name)), names: names, file: file}, nil
}

// unlock releases the lock. When none of its names exists (a lookup of a
// missing file, a file removed), the lock file goes first, while it is
// still held, so that .taskmd/locks holds lock files only for names that
// exist or are being created. That is safe because every locker checks,
// once it holds a lock file, that the lock directory still names that
// file, and starts again if not (lockFile): whoever waited on the removed
// file finds it gone, and all meet again on the file made next.
func (h heldLock) unlock() error {
	if lockFilesRemovable && !h.anyExists() {
		h.w.removeLockFile(h.base, h.file)
	}
	err := h.file.Unlock()
	unlockProcess(h.key)
	return err
}

// anyExists reports whether a file (of any kind) is at one of h's names;
// when that cannot be told, it says yes, which keeps the lock file.
func (h heldLock) anyExists() bool {
	for _, name := range h.names {
		if _, err := h.w.root.Lstat(name); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

// removeLockFile removes the held lock file base, if the lock directory
// still names the file held. A failure leaves it, as before this change:
// a lock file too many costs nothing but a directory entry.
func (w *Workspace) removeLockFile(base string, file *flock.Flock) {
	held, err := file.Stat()
	if err != nil {
		return
	}
	dir := w.lockRoot()
	if inside, err := dir.Lstat(base); err == nil && os.SameFile(held, inside) {
		_ = dir.Remove(base)
	}
}

// lockFile takes the exclusive file lock of name. A new flock.Flock per
// critical section, because one Flock shared by goroutines lets them all in.
// flock opens the lock file by path, so it never creates it: a lock file is
// created only through the root (createLockFile), and opened without
// following a final symbolic link. After locking, the open file is checked
// against the one inside the root, so a directory swapped for a link can
// never make two processes lock different files, nor make this one create a
// file outside the root.
//
// A lock file may be removed by its holder (see heldLock.unlock), so a
// lock is held only once the lock directory still names the file locked;
// otherwise the file is let go and the lock taken again, on the file there
// now or on a new one.
func (w *Workspace) lockFile(ctx context.Context, name string) (*flock.Flock, error) {
	rel := lockFileName(name)
	reopen, missing := false, 0
	for {
		if err := w.ensureLockDir(reopen); err != nil {
			return nil, err
		}
		file := flock.New(filepath.Join(w.abs, filepath.FromSlash(rel)),
			flock.SetFlag(lockOpenFlag), flock.SetPermissions(0o644))
		err := waitFlock(ctx, file)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctxErr(ctx, name)
			}
			if missing < maxLockCreates && errors.Is(err, fs.ErrNotExist) {
				// The first lock of this name, a lock file its last holder
				// removed, or a lock directory removed since it was made
				// (then the next attempt makes it again).
				missing++
				reopen = w.createLockFile(path.Base(rel)) != nil
				continue
			}
			return nil, fail(name, "lock", err)
		}
		gone, err := w.checkLockFile(name, rel, file)
		if err != nil || gone {
			file.Unlock()
		}
		if err != nil {
			return nil, err
		}
		if gone {
			if err := ctxErr(ctx, name); err != nil {
				return nil, err
			}
			missing = 0 // someone removed it while we waited: a fresh start
			continue
		}
		return file, nil
	}
}

// maxLockCreates bounds the lock files one lock makes in a row: each one
// it did not get to open was removed by another holder meanwhile, which
// only happens while others make progress.
const maxLockCreates = 64

// createLockFile creates a lock file inside the lock directory, or opens
// the one there. An error (the lock directory is gone) is also left to the
// open that follows.
func (w *Workspace) createLockFile(base string) error {
	f, err := w.lockRoot().OpenFile(base, os.O_CREATE|os.O_RDONLY|noFollow, 0o644)
	if err == nil {
		f.Close()
	}
	return err
}

// lockOpenFlag opens existing lock files as flock.New does, but never
// through a symbolic link.
var lockOpenFlag = func() int {
	switch runtime.GOOS {
	case "aix", "solaris", "illumos": // exclusive locks need a writable file there
		return os.O_RDWR | noFollow
	}
	return os.O_RDONLY | noFollow
}()

// waitFlock locks file, waiting for ctx without polling: the blocking lock
// runs in a goroutine, and if ctx ends first, that goroutine releases the
// lock as soon as it gets it.
func waitFlock(ctx context.Context, file *flock.Flock) error {
	ok, err := file.TryLock()
	if err != nil || ok {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- file.Lock() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		go func() {
			if <-done == nil {
				file.Unlock()
			}
		}()
		return ctx.Err()
	}
}

// checkLockFile checks that the locked file is the lock file inside the
// root. gone says it has no name any more, because its holder removed it
// while this one waited: lock again. A file that the root's lock directory
// does not hold is OUTSIDE_ROOT.
func (w *Workspace) checkLockFile(name, rel string, file *flock.Flock) (gone bool, err error) {
	opened, err := file.Stat()
	if err != nil {
		return false, fail(name, "lock", err)
	}
	if unlinked(opened) {
		return true, nil
	}
	inside, err := w.lockRoot().Lstat(path.Base(rel))
	if err != nil {
		return false, fail(rel, "lock", err)
	}
	if !os.SameFile(opened, inside) {
		return false, &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: name,
			Msg: fmt.Sprintf("lock %s: the lock directory leads outside the workspace root", name)}
	}
	return false, nil
}

// ensureLockDir creates the lock directory once per Workspace (again when
// force is set), refuses it if it or .taskmd is a symbolic link, and opens
// it as a root of its own so that checking a lock file is one system call.
func (w *Workspace) ensureLockDir(force bool) error {
	w.lockDirMu.Lock()
	defer w.lockDirMu.Unlock()
	if w.lockDir != nil && !force {
		return nil
	}
	if err := w.mkdirAll(lockDir); err != nil {
		return err
	}
	for _, dir := range []string{StateDir, lockDir} {
		info, err := w.root.Lstat(dir)
		if err != nil {
			return fail(dir, "lock", err)
		}
		if info.Mode()&fs.ModeSymlink != 0 || !info.IsDir() {
			return &taskdoc.Error{Code: taskdoc.CodeSymlink, Path: dir,
				Msg: fmt.Sprintf("%s must be a directory, not a link or a file", dir)}
		}
	}
	dir, err := w.root.OpenRoot(lockDir)
	if err != nil {
		return fail(lockDir, "lock", err)
	}
	if w.lockDir != nil {
		// Another goroutine may be checking a lock file through the old
		// handle right now; it is closed with the workspace.
		w.oldLockDirs = append(w.oldLockDirs, w.lockDir)
	}
	w.lockDir = dir
	return nil
}

func (w *Workspace) lockRoot() *os.Root {
	w.lockDirMu.Lock()
	defer w.lockDirMu.Unlock()
	return w.lockDir
}

// Lock locks every name and runs fn with a Tx that may write and remove
// them. Names are sorted and deduplicated before locking, so two callers
// locking overlapping sets can never deadlock; the locks are released in
// reverse order when fn returns, also when it panics. Waiting honours ctx.
// fn must not lock any of its names again: that would wait for itself until
// ctx ends (there is no way to tell the caller's goroutine apart). Nor
// should it lock other names: two callers nesting in opposite orders wait
// for each other; lock every name in one call instead.
//
// Operations on several files are not atomic as a whole: a crash between two
// writes leaves the first done and the second not. Order them so that such a
// state is safe (write the copy before removing the original).
func (w *Workspace) Lock(ctx context.Context, names []string, fn func(tx *Tx) error) (err error) {
	if err := w.Check(); err != nil {
		return err
	}
	names = slices.Clone(names)
	slices.Sort(names)
	names = slices.Compact(names)
	for _, name := range names {
		if err := checkName(name); err != nil {
			return err
		}
	}
	if err := ctxErr(ctx, strings.Join(names, ", ")); err != nil {
		return err
	}
	keys, byKey, err := w.lockNames(names)
	if err != nil {
		return err
	}
	held := make([]heldLock, 0, len(keys))
	defer func() {
		for i := len(held) - 1; i >= 0; i-- {
			if uerr := held[i].unlock(); uerr != nil && err == nil {
				err = fail(keys[i], "unlock", uerr)
			}
		}
	}()
	for _, name := range keys {
		h, err := w.lock(ctx, name, byKey[name])
		if err != nil {
			return err
		}
		held = append(held, h)
	}
	tx := &Tx{w: w, names: names}
	defer tx.close()
	return fn(tx)
}
