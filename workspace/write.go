package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/taskdoc"
)

// tempTries is how many times a write creates its temporary file before
// giving up, when a sweep removes it before its rename (see errTempSwept).
const tempTries = 4

// errTempSwept says that a write's temporary file was gone at its rename
// or link: a sweep (in this process or another) that had found a crash's
// leftover under the same name, old enough to go, removed it after the
// writer had replaced that leftover by its own file, or the writer was
// stopped long enough for its own file to look like a leftover. The
// writer holds the name's lock and nothing was changed, so it writes its
// temporary file again.
var errTempSwept = errors.New("temporary file removed before its rename")

// write replaces name with data: a temporary file beside it is written,
// flushed to disk and renamed over name, and the directory is flushed so the
// rename survives a crash. Readers see the old file or the new one, never a
// mix. A file that existed keeps its permission bits (info is its Lstat).
// The caller holds name's lock.
func (w *Workspace) write(name string, data []byte, existing fs.FileInfo) error {
	if err := w.checkContent(name, data); err != nil {
		return err
	}
	tmp := lockedTempName(name)
	return retrySwept(name, func() error {
		if ok, err := w.fastReplace(name, tmp, data, existing); ok {
			return err
		}
		if err := w.writeTemp(name, tmp, data, existing); err != nil {
			return err
		}
		hooks.BeforePublish(tmp)
		if err := w.rename(tmp, name); err != nil {
			w.root.Remove(tmp)
			if errors.Is(err, fs.ErrNotExist) {
				return errTempSwept
			}
			return fail(name, "write", err)
		}
		w.tidy(name, true)
		return w.syncDir(name)
	})
}

// retrySwept runs step, a write through a temporary file, again while it
// fails with errTempSwept, tempTries times at most; then the write fails
// with IO_ERROR, having changed nothing.
func retrySwept(name string, step func() error) error {
	for try := 1; ; try++ {
		err := step()
		if !errors.Is(err, errTempSwept) {
			return err
		}
		if try == tempTries {
			return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name, Err: err,
				Msg: fmt.Sprintf("write %s: its temporary file was removed as a crash's leftover %d times before it could be renamed (sweeps in other processes); nothing was changed, try again", name, tempTries)}
		}
	}
}

// create writes name only if nothing exists there. A hard link from the
// finished temporary file publishes it: link never replaces, and the file is
// complete and on disk before it gets its name. The caller holds name's
// lock (Tx.Create takes it), so the temporary file has the fixed name of
// a locked writer, and a crash's leftover of it is removed by the next
// write or removal of name.
func (w *Workspace) create(name string, data []byte) error {
	if err := w.checkContent(name, data); err != nil {
		return err
	}
	tmp := lockedTempName(name)
	return retrySwept(name, func() error {
		if err := w.writeTemp(name, tmp, data, nil); err != nil {
			return err
		}
		hooks.BeforePublish(tmp)
		linkErr := w.root.Link(tmp, name)
		if err := w.root.Remove(tmp); err != nil && linkErr == nil && !errors.Is(err, fs.ErrNotExist) {
			linkErr = err
		}
		if errors.Is(linkErr, fs.ErrExist) {
			return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: name, Err: linkErr,
				Msg: fmt.Sprintf("create %s: it already exists", name)}
		}
		if errors.Is(linkErr, fs.ErrNotExist) {
			return errTempSwept
		}
		if linkErr != nil {
			return fail(name, "create", linkErr)
		}
		w.tidy(name, true)
		return w.syncDir(name)
	})
}

// remove deletes the locked name and flushes its directory.
func (w *Workspace) remove(name string) error {
	return w.removeName(name, true)
}

// removeName deletes name and flushes its directory. locked says whether
// the caller holds name's lock: then the temporary file a crash of a
// locked writer of name left is removed too (one removal, no listing),
// and, as for tidy, all of name's temporary files when the folder is
// swept.
func (w *Workspace) removeName(name string, locked bool) error {
	if err := w.root.Remove(name); err != nil {
		return fail(name, "remove", err)
	}
	if locked {
		w.root.Remove(lockedTempName(name)) // a leftover or nothing: errors do not matter
	}
	w.tidy(name, locked)
	return w.syncDir(name)
}

func (w *Workspace) checkContent(name string, data []byte) error {
	if err := w.checkSize(name, int64(len(data))); err != nil {
		return err
	}
	return checkUTF8(name, data)
}

// writeTemp writes data to the new temporary file tmp beside name, flushed
// and closed, creating name's directories when they are missing. A file
// already there is a crash's leftover of lockedTempName (the caller holds
// name's lock): it is removed (never followed, were it a link) and the
// create tried again.
func (w *Workspace) writeTemp(name, tmp string, data []byte, existing fs.FileInfo) error {
	const flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	f, err := w.root.OpenFile(tmp, flags, 0o644)
	if err != nil && errors.Is(err, fs.ErrExist) {
		if rerr := w.root.Remove(tmp); rerr == nil || errors.Is(rerr, fs.ErrNotExist) {
			f, err = w.root.OpenFile(tmp, flags, 0o644)
		}
	}
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		if dir := path.Dir(name); dir != "." {
			if err := w.mkdirAll(dir); err != nil {
				return err
			}
		}
		f, err = w.root.OpenFile(tmp, flags, 0o644)
	}
	if err != nil {
		return fail(name, "write", err)
	}
	err = writeAndSync(f, data, existing)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		w.root.Remove(tmp)
		return fail(name, "write", err)
	}
	return nil
}

func writeAndSync(f *os.File, data []byte, existing fs.FileInfo) error {
	if existing != nil && existing.Mode().Perm() != 0o644 {
		if err := f.Chmod(existing.Mode().Perm()); err != nil {
			return err
		}
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Sync()
}

// mkdirAll creates dir and its parents and flushes every parent, so that a
// file written into a new directory is reachable after a crash.
func (w *Workspace) mkdirAll(dir string) error {
	if err := w.root.MkdirAll(dir, 0o755); err != nil {
		return fail(dir, "create directory", err)
	}
	for d := dir; d != "."; d = path.Dir(d) {
		if err := w.syncDir(d); err != nil {
			return err
		}
	}
	return nil
}
