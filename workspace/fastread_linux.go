//go:build linux

package workspace

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openDir opens the root directory for fastRead and fastReplace, through
// the root itself
// so that it is the same directory; nil when that fails (every read then
// takes the general path).
func openDir(r *os.Root) *os.File {
	d, err := r.Open(".")
	if err != nil {
		return nil
	}
	return d
}

// openBeneath opens name (with flags, never following a link) in one path
// resolution by the kernel: openat2 beneath the root, with no symbolic
// link anywhere on the path. An error is the kernel's, or errNoRoot.
func (w *Workspace) openBeneath(name string, flags int) (fd int, err error) {
	if w.dir == nil {
		return -1, errNoRoot
	}
	rc, err := w.dir.SyscallConn()
	if err != nil {
		return -1, err
	}
	// Control holds the directory open while it runs: a Close racing an
	// open never leaves its number to a file opened meanwhile.
	cerr := rc.Control(func(dir uintptr) {
		fd, err = unix.Openat2(int(dir), name, &unix.OpenHow{
			Flags:   uint64(flags | unix.O_NOFOLLOW | unix.O_CLOEXEC),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
	})
	if cerr != nil {
		return -1, cerr
	}
	return fd, err
}

// errNoRoot is openBeneath's error when the root directory could not be
// opened.
var errNoRoot = errors.New("no handle on the root directory")

// fastRead reads name in one path resolution by the kernel (openat2 with
// RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS), where the general path (an
// os.Root stat, then an open, each walking the folders) takes a dozen
// system calls. ok is false when it cannot decide, and the caller reads
// the general way: a symbolic link anywhere on the path (which the
// general path follows inside the root, or refuses), a kernel without
// openat2, a file that is not regular. data nil with ok is a file that
// does not exist.
func (w *Workspace) fastRead(name string) (data []byte, info fs.FileInfo, ok bool, err error) {
	fd, err := w.openBeneath(name, unix.O_RDONLY|unix.O_NONBLOCK)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil, nil, true, nil
	case err != nil:
		return nil, nil, false, nil
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	info, err = f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil, nil, false, nil
	}
	if err := w.checkSize(name, info.Size()); err != nil {
		return nil, nil, true, err
	}
	data, err = w.readOpen(name, f, info.Size())
	return data, info, true, err
}
