//go:build unix

package workspace

import (
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
