//go:build linux

package workspace

import (
	"encoding/binary"
	"io/fs"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// readDir lists the folder name of root from the kernel's directory
// entries (getdents64), whose type field names each entry's type; an
// entry of a file system that leaves it unknown is examined through the
// root.
func readDir(root *os.Root, name string) ([]fs.DirEntry, error) {
	d, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	rc, err := d.SyscallConn()
	if err != nil {
		return nil, err
	}
	var entries []dirEntry
	buf := make([]byte, 32<<10)
	for {
		var n int
		var rerr error
		if err := rc.Control(func(fd uintptr) {
			n, rerr = unix.Getdents(int(fd), buf)
		}); err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
		}
		if rerr != nil {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: rerr}
		}
		if n <= 0 {
			break
		}
		if entries, err = appendEntries(entries, root, name, buf[:n]); err != nil {
			return nil, err
		}
	}
	return sorted(entries), nil
}

// appendEntries appends the entries of buf, linux_dirent64 records (inode
// 8 bytes, offset 8, record length 2, type 1, then the name ending in a
// NUL), to out.
func appendEntries(out []dirEntry, root *os.Root, dir string, buf []byte) ([]dirEntry, error) {
	const nameAt = 19
	for len(buf) >= nameAt {
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < nameAt || reclen > len(buf) {
			break
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		name := rec[nameAt:]
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		if string(name) == "." || string(name) == ".." {
			continue
		}
		e := dirEntry{root: root, dir: dir, name: string(name)}
		switch rec[18] {
		case unix.DT_REG:
		case unix.DT_DIR:
			e.typ = fs.ModeDir
		case unix.DT_LNK:
			e.typ = fs.ModeSymlink
		case unix.DT_FIFO:
			e.typ = fs.ModeNamedPipe
		case unix.DT_SOCK:
			e.typ = fs.ModeSocket
		case unix.DT_CHR:
			e.typ = fs.ModeDevice | fs.ModeCharDevice
		case unix.DT_BLK:
			e.typ = fs.ModeDevice
		default: // the file system does not say
			info, err := e.Info()
			if os.IsNotExist(err) {
				continue // gone since the folder was listed
			}
			if err != nil {
				return nil, err
			}
			e.typ = info.Mode().Type()
		}
		out = append(out, e)
	}
	return out, nil
}

// dirEntry is one entry of a listing: its name and type, and where to
// read its FileInfo when asked.
type dirEntry struct {
	root *os.Root
	dir  string
	name string
	typ  fs.FileMode
}

func (e *dirEntry) Name() string      { return e.name }
func (e *dirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode { return e.typ }
func (e *dirEntry) Info() (fs.FileInfo, error) {
	return e.root.Lstat(join(e.dir, e.name))
}
func (e *dirEntry) String() string { return fs.FormatDirEntry(e) }

// sorted returns entries sorted by name, as fs.DirEntry values that
// point into entries (one allocation for them all).
func sorted(entries []dirEntry) []fs.DirEntry {
	slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	out := make([]fs.DirEntry, len(entries))
	for i := range entries {
		out[i] = &entries[i]
	}
	return out
}
