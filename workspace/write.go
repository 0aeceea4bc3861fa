package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/taskmd/taskmd/taskdoc"
)

// write replaces name with data: a temporary file beside it is written,
// flushed to disk and renamed over name, and the directory is flushed so the
// rename survives a crash. Readers see the old file or the new one, never a
// mix. A file that existed keeps its permission bits (info is its Lstat).
func (w *Workspace) write(name string, data []byte, existing fs.FileInfo) error {
	if err := w.checkContent(name, data); err != nil {
		return err
	}
	tmp := lockedTempName(name)
	if ok, err := w.fastReplace(name, tmp, data, existing); ok {
		return err
	}
	if err := w.writeTemp(name, tmp, data, existing); err != nil {
		return err
	}
	if err := w.rename(tmp, name); err != nil {
		w.root.Remove(tmp)
		return fail(name, "write", err)
	}
	w.tidy(name, true)
	return w.syncDir(name)
}

// create writes name only if nothing exists there. A hard link from the
// finished temporary file publishes it: link never replaces, and the file is
// complete and on disk before it gets its name.
func (w *Workspace) create(name string, data []byte) error {
	if err := w.checkContent(name, data); err != nil {
		return err
	}
	tmp, err := tempName(name)
	if err != nil {
		return fail(name, "write", err)
	}
	if err := w.writeTemp(name, tmp, data, nil); err != nil {
		return err
	}
	linkErr := w.root.Link(tmp, name)
	if err := w.root.Remove(tmp); err != nil && linkErr == nil {
		linkErr = err
	}
	if errors.Is(linkErr, fs.ErrExist) {
		return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: name, Err: linkErr,
			Msg: fmt.Sprintf("create %s: it already exists", name)}
	}
	if linkErr != nil {
		return fail(name, "create", linkErr)
	}
	w.tidy(name, false) // name is not locked: other writers' files are left to their age
	return w.syncDir(name)
}

// remove deletes the locked name and flushes its directory.
func (w *Workspace) remove(name string) error {
	return w.removeName(name, true)
}

// removeName deletes name and flushes its directory. locked says whether
// the caller holds name's lock, as for tidy: only then are all of name's
// temporary files removed, whatever their age.
func (w *Workspace) removeName(name string, locked bool) error {
	if err := w.root.Remove(name); err != nil {
		return fail(name, "remove", err)
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
// already there is a crash's leftover of lockedTempName (random names do
// not repeat): it is removed (never followed, were it a link) and the
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
