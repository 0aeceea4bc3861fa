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
	var out []fs.DirEntry
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
		if out, err = appendEntries(out, root, name, buf[:n]); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// appendEntries appends the entries of buf, linux_dirent64 records (inode
// 8 bytes, offset 8, record length 2, type 1, then the name ending in a
// NUL), to out.
func appendEntries(out []fs.DirEntry, root *os.Root, dir string, buf []byte) ([]fs.DirEntry, error) {
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
