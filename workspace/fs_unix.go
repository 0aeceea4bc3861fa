//go:build unix

package workspace

import (
	"io/fs"
	"path"
	"syscall"
)

// noFollow makes the lock file's open refuse a symbolic link.
const noFollow = syscall.O_NOFOLLOW

// noBlock keeps the open of a file to read from waiting, should the file
// have been swapped for a named pipe since it was examined; for a regular
// file it changes nothing.
const noBlock = syscall.O_NONBLOCK

// syncDir flushes the directory that holds name, making a rename, link or
// removal in it durable.
func (w *Workspace) syncDir(name string) error {
	dir := path.Dir(name)
	d, err := w.root.Open(dir)
	if err != nil {
		return fail(dir, "sync directory", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(dir, "sync directory", err)
	}
	return nil
}

// rename replaces newname with oldname.
func (w *Workspace) rename(oldname, newname string) error {
	return w.root.Rename(oldname, newname)
}

// unlinked reports whether the open file of info has no name left: a lock
// file its holder removed (see heldLock.unlock).
func unlinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 0
}

// lockFilesRemovable says a lock file can be removed while it is held and
// open elsewhere, and a locker can tell (unlinked).
const lockFilesRemovable = true
