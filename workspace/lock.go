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
	l := refProcessLock(key)
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

// tryLockProcess takes the process lock of key if nobody holds it, and
// reports whether it did.
func tryLockProcess(key string) bool {
	l := refProcessLock(key)
	select {
	case l.token <- struct{}{}:
		return true
	default:
		dropProcessRef(key, l)
		return false
	}
}

// refProcessLock returns the process lock of key, counting the caller.
func refProcessLock(key string) *processLock {
	processLocks.Lock()
	defer processLocks.Unlock()
	l := processLocks.m[key]
	if l == nil {
		l = &processLock{token: make(chan struct{}, 1)}
		processLocks.m[key] = l
	}
	l.refs++
	return l
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
	key  string
	file *flock.Flock
}

// lock takes the process lock and then the file lock of one validated name.
func (w *Workspace) lock(ctx context.Context, name string) (heldLock, error) {
	key := w.lockKey + "\x00" + name
	if err := lockProcess(ctx, key); err != nil {
		return heldLock{}, ctxErr(ctx, name)
	}
	file, err := w.lockFile(ctx, name, true)
	if err != nil {
		unlockProcess(key)
		return heldLock{}, err
	}
	return heldLock{key: key, file: file}, nil
}

// errBusy is tryLock's answer for a name that someone holds locked.
var errBusy = errors.New("locked by another")

// tryLock is lock without waiting: errBusy when another holds the lock,
// in this process or another.
func (w *Workspace) tryLock(name string) (heldLock, error) {
	key := w.lockKey + "\x00" + name
	if !tryLockProcess(key) {
		return heldLock{}, errBusy
	}
	file, err := w.lockFile(context.Background(), name, false)
	if err != nil {
		unlockProcess(key)
		return heldLock{}, err
	}
	return heldLock{key: key, file: file}, nil
}

func (h heldLock) unlock() error {
	err := h.file.Unlock()
	unlockProcess(h.key)
	return err
}

// lockFile takes the exclusive file lock of name. A new flock.Flock per
// critical section, because one Flock shared by goroutines lets them all in.
// flock opens the lock file by path, so it never creates it: a lock file is
// created only through the root (createLockFile), and opened without
// following a final symbolic link. After locking, the open file is checked
// against the one inside the root, so a directory swapped for a link can
// never make two processes lock different files, nor make this one create a
// file outside the root.
// With wait false it does not wait: errBusy when another holds the lock.
func (w *Workspace) lockFile(ctx context.Context, name string, wait bool) (*flock.Flock, error) {
	rel := lockFileName(name)
	for attempt := 0; ; attempt++ {
		if err := w.ensureLockDir(attempt > 1); err != nil {
			return nil, err
		}
		file := flock.New(filepath.Join(w.abs, filepath.FromSlash(rel)),
			flock.SetFlag(lockOpenFlag), flock.SetPermissions(0o644))
		var err error
		if wait {
			err = waitFlock(ctx, file)
		} else if ok, terr := file.TryLock(); terr != nil {
			err = terr
		} else if !ok {
			return nil, errBusy
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctxErr(ctx, name)
			}
			if attempt < 2 && errors.Is(err, fs.ErrNotExist) {
				// The first lock of this name, or the lock directory was
				// removed since it was made (then the next attempt makes it
				// again).
				w.createLockFile(path.Base(rel))
				continue
			}
			return nil, fail(name, "lock", err)
		}
		if err := w.checkLockFile(name, rel, file); err != nil {
			file.Unlock()
			return nil, err
		}
		return file, nil
	}
}

// createLockFile creates a lock file inside the lock directory. Errors are
// left to the open that follows.
func (w *Workspace) createLockFile(base string) {
	f, err := w.lockRoot().OpenFile(base, os.O_CREATE|os.O_RDONLY|noFollow, 0o644)
	if err == nil {
		f.Close()
	}
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

func (w *Workspace) checkLockFile(name, rel string, file *flock.Flock) error {
	opened, err := file.Stat()
	if err != nil {
		return fail(name, "lock", err)
	}
	inside, err := w.lockRoot().Lstat(path.Base(rel))
	if err != nil {
		return fail(rel, "lock", err)
	}
	if !os.SameFile(opened, inside) {
		return &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: name,
			Msg: fmt.Sprintf("lock %s: the lock directory leads outside the workspace root", name)}
	}
	return nil
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
	for _, dir := range []string{".taskmd", lockDir} {
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
	keys, err := w.lockNames(names)
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
		h, err := w.lock(ctx, name)
		if err != nil {
			return err
		}
		held = append(held, h)
	}
	tx := &Tx{w: w, names: names, keys: keys}
	defer tx.close()
	return fn(tx)
}
