package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/taskdoc"
)

// defaultMaxFileSize is the largest file a workspace reads or writes unless
// WithMaxFileSize says otherwise.
const defaultMaxFileSize = 16 << 20

// Workspace is one root directory opened for confined, locked, crash-safe
// access. It is safe for concurrent use by many goroutines; several
// Workspace values on the same directory, in one process or in several,
// exclude each other through the same locks.
type Workspace struct {
	root    *os.Root
	abs     string // absolute path as given to Open, cleaned
	lockKey string // absolute path with symbolic links resolved: one key per directory
	opts    options

	lockDirMu   sync.Mutex
	lockDir     *os.Root   // .taskmd/locks, opened on first lock
	oldLockDirs []*os.Root // earlier handles, if the directory was made again

	cache *docCache // parsed documents (Parse); nil when off
	dir   *os.File  // the root directory, for fastRead and fastReplace; nil when it has none

	caseOnce sync.Once
	foldCase bool // the root's file system ignores case (see ignoresCase)

	now     func() time.Time // the clock of the sweep; tests move it
	sweepMu sync.Mutex
	swept   map[string]time.Time // when each folder was last swept (tidy)
}

// Option configures Open. A nil Option is ignored.
type Option func(*options)

type options struct {
	maxFileSize int64
	cacheSize   int64
}

// WithMaxFileSize sets the largest file, in bytes, that the workspace reads
// or writes; larger ones get FILE_TOO_LARGE. The default is 16 MiB.
func WithMaxFileSize(n int64) Option {
	return func(o *options) {
		if n > 0 {
			o.maxFileSize = n
		}
	}
}

// Open opens the workspace rooted at root, which must be an existing
// directory. Nothing is created until the first write.
func Open(root string, opts ...Option) (*Workspace, error) {
	o := options{maxFileSize: defaultMaxFileSize, cacheSize: defaultDocumentCache}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fail(root, "open workspace", err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fail(root, "open workspace", err)
	}
	if !info.IsDir() {
		return nil, &taskdoc.Error{Code: taskdoc.CodeIO, Path: root,
			Msg: fmt.Sprintf("open workspace: %s is not a directory", root)}
	}
	key, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fail(root, "open workspace", err)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fail(root, "open workspace", err)
	}
	return &Workspace{root: r, abs: abs, lockKey: key, opts: o, cache: newDocCache(o.cacheSize), dir: openDir(r), now: time.Now}, nil
}

// Check is nil for a workspace made by Open. A nil *Workspace, or a zero
// Workspace{}, is WORKSPACE_NOT_OPEN (taskdoc.ErrNotOpen): every method
// returns that error before it does anything, and so does every call of
// the packages built on a workspace (subagent.New(nil), plan.New(nil),
// ...), instead of a nil dereference.
func (w *Workspace) Check() error {
	if w == nil || w.root == nil {
		return &taskdoc.Error{Code: taskdoc.CodeNotOpen,
			Msg: "the workspace is not open: make it with workspace.Open"}
	}
	return nil
}

// Close releases the workspace's directory handle. Operations after Close
// fail.
func (w *Workspace) Close() error {
	if err := w.Check(); err != nil {
		return err
	}
	w.lockDirMu.Lock()
	if w.lockDir != nil {
		w.lockDir.Close()
	}
	for _, old := range w.oldLockDirs {
		old.Close()
	}
	w.lockDirMu.Unlock()
	if w.dir != nil {
		w.dir.Close()
	}
	if err := w.root.Close(); err != nil {
		return fail(w.abs, "close workspace", err)
	}
	return nil
}

// Root returns the absolute path of the workspace's root directory; ""
// when it is not open (see Check).
func (w *Workspace) Root() string {
	if w == nil {
		return ""
	}
	return w.abs
}

// Version identifies the content of a file: the first 128 bits of its
// SHA-256, in hexadecimal (32 characters). It depends on the bytes only, so
// equal content has equal versions whoever wrote it and whenever. The empty
// Version stands for a file that does not exist.
type Version string

// VersionOf returns the Version of data.
func VersionOf(data []byte) Version {
	sum := sha256.Sum256(data)
	return Version(hex.EncodeToString(sum[:16]))
}

// ReadIfExists is Read without the Version, for a file that may not be
// there yet: a missing file is nil content, not an error.
func (w *Workspace) ReadIfExists(ctx context.Context, name string) ([]byte, error) {
	data, err := w.ReadData(ctx, name)
	if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
		return nil, nil
	}
	return data, err
}

// Read returns the content of name and its Version. A missing file is
// DOCUMENT_NOT_FOUND (and matches fs.ErrNotExist); a symbolic link is
// SYMLINK_REFUSED; a file over the size limit is FILE_TOO_LARGE; a *.md file
// that is not UTF-8 is INVALID_UTF8. Read takes no lock: atomic replacement
// means it always sees one complete version.
func (w *Workspace) Read(ctx context.Context, name string) ([]byte, Version, error) {
	data, err := w.ReadData(ctx, name)
	if err != nil {
		return nil, "", err
	}
	return data, VersionOf(data), nil
}

// ReadData is Read without the Version, for a caller that has no use for
// it: it does not hash the content (a fifth of a millisecond on a 200 KB
// document).
func (w *Workspace) ReadData(ctx context.Context, name string) ([]byte, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	if err := ctxErr(ctx, name); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	data, _, err := w.read(name)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, fail(name, "read", fs.ErrNotExist)
	}
	return data, nil
}

// Exists reports whether name exists as a regular file. A symbolic link is
// SYMLINK_REFUSED rather than false, so that a caller never creates a file
// beside a link it did not notice.
func (w *Workspace) Exists(ctx context.Context, name string) (bool, error) {
	if err := w.Check(); err != nil {
		return false, err
	}
	if err := ctxErr(ctx, name); err != nil {
		return false, err
	}
	if err := checkName(name); err != nil {
		return false, err
	}
	_, err := w.stat(name)
	switch {
	case err == nil:
		return true, nil
	case taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound:
		return false, nil
	}
	return false, err
}

// stat returns the information of a regular file, refusing links and other
// kinds of files.
func (w *Workspace) stat(name string) (fs.FileInfo, error) {
	info, err := w.root.Lstat(name)
	if err != nil {
		return nil, fail(name, "stat", err)
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, symlinkRefused(name)
	case !info.Mode().IsRegular():
		return nil, notRegular(name, info.Mode().Type())
	}
	return info, nil
}

// notRegular is the error for a name that is a folder, a named pipe, a
// socket or a device: nothing the library reads or replaces.
func notRegular(name string, mode fs.FileMode) error {
	kind := "a special file"
	switch {
	case mode.IsDir():
		kind = "a directory"
	case mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case mode&fs.ModeSocket != 0:
		kind = "a socket"
	case mode&fs.ModeDevice != 0:
		kind = "a device"
	}
	return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name,
		Msg: fmt.Sprintf("%s is %s, not a regular file", name, kind)}
}

// read returns the content of name, or nil data and nil error when it does
// not exist. It checks that the file it opened is the one it examined, so a
// symbolic link swapped in between is never followed.
func (w *Workspace) read(name string) ([]byte, fs.FileInfo, error) {
	if err := hooks.Read(name); err != nil {
		return nil, nil, fail(name, "read", err)
	}
	if data, info, ok, err := w.fastRead(name); ok {
		if err == nil && data != nil {
			err = checkUTF8(name, data)
		}
		if err != nil {
			return nil, nil, err
		}
		return data, info, nil
	}
	const attempts = 5 // each retry means a concurrent replace won a race
	for range attempts {
		info, err := w.stat(name)
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if err := w.checkSize(name, info.Size()); err != nil {
			return nil, nil, err
		}
		data, same, err := w.readSame(name, info)
		if err != nil {
			return nil, nil, err
		}
		if same {
			if err := checkUTF8(name, data); err != nil {
				return nil, nil, err
			}
			return data, info, nil
		}
	}
	return nil, nil, &taskdoc.Error{Code: taskdoc.CodeIO, Path: name,
		Msg: fmt.Sprintf("read %s: the file kept changing while it was read", name)}
}

// readSame reads name if the opened file is the one described by info.
func (w *Workspace) readSame(name string, info fs.FileInfo) ([]byte, bool, error) {
	f, err := w.root.OpenFile(name, os.O_RDONLY|noBlock, 0)
	if err != nil {
		if taskdoc.CodeOf(fail(name, "", err)) == taskdoc.CodeDocumentNotFound {
			return nil, false, nil
		}
		return nil, false, fail(name, "read", err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, false, fail(name, "read", err)
	}
	// A file replaced since the stat is not read; the file type is checked
	// too, as a freed inode number may come back as a named pipe or a
	// directory.
	if !os.SameFile(info, opened) || !opened.Mode().IsRegular() {
		return nil, false, nil
	}
	data, err := w.readOpen(name, f, opened.Size())
	return data, err == nil, err
}

// readOpen reads the opened file name of size bytes (as its stat said) to
// its end, refusing it when it grew past the size limit meanwhile.
func (w *Workspace) readOpen(name string, f *os.File, size int64) ([]byte, error) {
	// One byte of headroom shows a file that grew past the limit after the
	// stat; the extra byte read costs nothing otherwise.
	buf := make([]byte, 0, size+1)
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fail(name, "read", err)
		}
		if int64(len(buf)) > w.opts.maxFileSize {
			return nil, w.checkSize(name, int64(len(buf)))
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
	}
	return buf, nil
}

// List returns the root-relative names of the regular files directly in dir
// ("." for the root), sorted, without temporary files and without symbolic
// links. A directory that does not exist yet has no files: the layout is
// created lazily, so that is not an error.
func (w *Workspace) List(ctx context.Context, dir string) ([]string, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	if err := ctxErr(ctx, dir); err != nil {
		return nil, err
	}
	dir, err := checkDir(dir)
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(w.FS(), dir)
	if err != nil {
		if taskdoc.CodeOf(fail(dir, "", err)) == taskdoc.CodeDocumentNotFound {
			return nil, nil
		}
		return nil, fail(dir, "list", err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && !isTemp(e.Name()) {
			names = append(names, join(dir, e.Name()))
		}
	}
	return names, nil
}
