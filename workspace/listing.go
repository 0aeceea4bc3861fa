package workspace

import (
	"io/fs"
	"os"
)

// FS returns the workspace's root as a read-only fs.FS, confined as every
// read of the workspace is (nothing outside the root is reached, a link
// is never followed out of it). Its ReadDir takes each entry's type from
// the folder's listing, as os.ReadDir does, where an os.Root's examines
// every entry with a system call of its own: a walk of 10,000 documents
// costs one call a folder, not one a file. An entry's Info is read when
// asked for. The FS of a workspace that is not open fails every call with
// WORKSPACE_NOT_OPEN.
func (w *Workspace) FS() fs.FS {
	if err := w.Check(); err != nil {
		return notOpenFS{err}
	}
	return listFS{w.root.FS(), w.root}
}

// notOpenFS is the FS of a workspace that is not open.
type notOpenFS struct{ err error }

func (f notOpenFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: f.err}
}

// listFS is an os.Root's fs.FS with a cheaper ReadDir (see FS).
type listFS struct {
	fs.FS
	root *os.Root
}

// Stat and ReadFile are the root's own (fs.StatFS, fs.ReadFileFS).
func (f listFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(f.FS, name) }

func (f listFS) ReadFile(name string) ([]byte, error) { return fs.ReadFile(f.FS, name) }

// Lstat and ReadLink are the root's own too (fs.ReadLinkFS): a link is
// reported, never followed.
func (f listFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(f.FS, name) }

func (f listFS) ReadLink(name string) (string, error) { return fs.ReadLink(f.FS, name) }

// ReadDir lists the folder name, sorted by file name (fs.ReadDirFS).
func (f listFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	return readDir(f.root, name)
}
