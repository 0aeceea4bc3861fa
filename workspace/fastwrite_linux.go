//go:build linux

package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path"

	"github.com/taskmd/taskmd/internal/hooks"
	"golang.org/x/sys/unix"
)

// fastReplace replaces name with data as write does (a temporary file tmp
// beside it, written and flushed, renamed over name, the folder flushed),
// through one open of name's folder: the kernel resolves the folder once
// (openat2 beneath the root, no symbolic links), and every later step
// names a file in it. The general path walks the folders again for each
// step, which costs a dozen system calls more a write, more in deeper
// folders. ok is false when it cannot decide and nothing was changed: a
// folder that is missing or reached through a link, a kernel without
// openat2; the caller then writes the general way.
func (w *Workspace) fastReplace(name, tmp string, data []byte, existing fs.FileInfo) (ok bool, err error) {
	dirfd, err := w.openBeneath(path.Dir(name), unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return false, nil
	}
	dir := os.NewFile(uintptr(dirfd), path.Dir(name))
	defer dir.Close()
	if err := replaceIn(dirfd, path.Dir(name), path.Base(name), path.Base(tmp), data, existing); err != nil {
		if err == errTempSwept {
			return true, err
		}
		return true, fail(name, "write", err)
	}
	w.tidy(name, true)
	if err := dir.Sync(); err != nil {
		return true, fail(path.Dir(name), "sync directory", err)
	}
	return true, nil
}

// replaceIn writes data to the new file tmp in the folder dirfd (dir,
// for messages), flushed and closed, and renames it over base. A tmp
// already there is a crash's leftover of lockedTempName: it is removed
// (never followed, were it a link; an empty folder too, as os.Root's
// Remove does) and the create tried again. On failure tmp is gone; a tmp
// gone at the rename is errTempSwept.
func replaceIn(dirfd int, dir, base, tmp string, data []byte, existing fs.FileInfo) error {
	const flags = unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := unix.Openat(dirfd, tmp, flags, 0o644)
	if errors.Is(err, unix.EEXIST) {
		rerr := unix.Unlinkat(dirfd, tmp, 0)
		if errors.Is(rerr, unix.EISDIR) {
			rerr = unix.Unlinkat(dirfd, tmp, unix.AT_REMOVEDIR)
		}
		if rerr == nil || errors.Is(rerr, unix.ENOENT) {
			fd, err = unix.Openat(dirfd, tmp, flags, 0o644)
		}
	}
	if err != nil {
		return &fs.PathError{Op: "open", Path: join(dir, tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), tmp)
	err = writeAndSync(f, data, existing)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		hooks.BeforePublish(join(dir, tmp))
		switch rerr := unix.Renameat(dirfd, tmp, dirfd, base); {
		case errors.Is(rerr, unix.ENOENT):
			return errTempSwept
		case rerr != nil:
			err = &os.LinkError{Op: "rename", Old: join(dir, tmp), New: join(dir, base), Err: rerr}
		}
	}
	if err != nil {
		unix.Unlinkat(dirfd, tmp, 0)
	}
	return err
}
