//go:build !unix

package workspace

import (
	"errors"
	"io/fs"
	"time"
)

// noFollow is zero where open has no flag to refuse a symbolic link; the
// lock file is still checked against the one inside the root after locking.
const noFollow = 0

// noBlock is zero where named pipes cannot replace a file by name.
const noBlock = 0

// syncDir does nothing: outside Unix a directory cannot be opened and
// flushed. NTFS journals the rename itself, so a power failure just after a
// write may lose that newest write there, but never tears the file.
func (w *Workspace) syncDir(string) error { return nil }

// renameRetry bounds how long rename waits for readers: on Windows a file
// that some program has open without sharing delete access cannot be
// replaced, and readers (this package's own included) open files that way
// for the moment they read them.
const renameRetry = time.Second

// rename replaces newname with oldname, retrying while the target is held
// open by a reader.
func (w *Workspace) rename(oldname, newname string) error {
	deadline := time.Now().Add(renameRetry)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		err := w.root.Rename(oldname, newname)
		if err == nil || !errors.Is(err, fs.ErrPermission) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(delay)
	}
}
