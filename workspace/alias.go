package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// lockNames returns the names Lock takes locks on for the validated names:
// each one's directory with symbolic links resolved, in lower case, sorted
// and without repeats. A link between two folders of the root
// ("docs/shared" -> "team/shared") gives one file two names, and so does a
// file system that ignores case (APFS, NTFS: "docs/API.md" is docs/api.md);
// every name of a file must take the same lock, or two updates of it could
// run at once and one would be lost. Where case matters, two files whose
// names differ only in case merely share a lock. Sorting the keys keeps the
// lock order the same for every spelling, so callers still cannot
// deadlock.
func (w *Workspace) lockNames(names []string) ([]string, error) {
	keys := make([]string, 0, len(names))
	for _, name := range names {
		key := strings.ToLower(w.resolvedName(name))
		if reserved(key) {
			return nil, &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: name,
				Msg: fmt.Sprintf("path %q is refused: it leads into %s, which holds lock files", name, lockDir)}
		}
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}

// resolvedName returns name with the symbolic links in its directory
// resolved, relative to the root. The final element is kept as it is:
// operations refuse a link there. Folders that do not exist yet are kept as
// written, since they hold no link. When the directory cannot be resolved
// inside the root, name is returned unchanged: the operation itself then
// fails, as os.Root refuses the path.
func (w *Workspace) resolvedName(name string) string {
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if !w.linkedDir(dir) {
		return name
	}
	missing := ""
	for dir != "" {
		real, err := filepath.EvalSymlinks(filepath.Join(w.lockKey, filepath.FromSlash(dir)))
		if err == nil {
			rel, err := filepath.Rel(w.lockKey, real)
			if err != nil || !filepath.IsLocal(rel) {
				return name
			}
			return path.Join(filepath.ToSlash(rel), missing, base)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return name
		}
		parent, elem := path.Split(dir)
		missing = path.Join(elem, missing)
		dir = strings.TrimSuffix(parent, "/")
	}
	return name
}

// linkedDir reports whether a folder of dir (root-relative, "" for the
// root) is a symbolic link, or may be: the common case, no link, costs one
// lstat per folder. The root's own path has its links resolved already.
func (w *Workspace) linkedDir(dir string) bool {
	for i := 0; i < len(dir); i++ {
		if i+1 < len(dir) && dir[i+1] != '/' {
			continue
		}
		info, err := os.Lstat(filepath.Join(w.lockKey, filepath.FromSlash(dir[:i+1])))
		if errors.Is(err, fs.ErrNotExist) {
			return false // nothing below a missing folder exists either
		}
		if err != nil || info.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// reserved reports whether name lies in the lock directory, whatever its
// case: where case is ignored, ".TASKMD/locks" is that directory too.
func reserved(name string) bool {
	name = strings.ToLower(name)
	return name == StateDir || name == lockDir || strings.HasPrefix(name, lockDir+"/")
}

// Canonical returns the name that every spelling of the file name shares:
// the symbolic links in its folders resolved (inside the root), and in
// lower case where the root's file system ignores case. Use it to key
// state kept about a file, so that "docs/team/auth.md" and
// "docs/shared/auth.md" (a link to team), or "docs/Auth.md" where case is
// ignored, share that state as they share the file, while "docs/Plan.md"
// and "docs/plan.md", two files where case matters, keep their own. A name
// that is not valid is OUTSIDE_ROOT, as for every operation.
func (w *Workspace) Canonical(name string) (string, error) {
	if err := w.Check(); err != nil {
		return "", err
	}
	if err := checkName(name); err != nil {
		return "", err
	}
	name = w.resolvedName(name)
	if w.ignoresCase() {
		name = strings.ToLower(name)
	}
	return name, nil
}

// ignoresCase reports whether the root's file system ignores case, found
// once per Workspace: the state folder (made if missing) is looked up
// under its upper-case name. When it cannot be told (a read-only root
// without the folder), case is taken to be ignored on macOS and Windows,
// whose file systems ignore it by default, and to matter elsewhere.
func (w *Workspace) ignoresCase() bool {
	w.caseOnce.Do(func() {
		w.foldCase = runtime.GOOS == "darwin" || runtime.GOOS == "windows"
		dir := filepath.Join(w.lockKey, StateDir)
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return
		}
		own, err := os.Lstat(dir)
		if err != nil {
			return
		}
		upper, err := os.Lstat(filepath.Join(w.lockKey, strings.ToUpper(StateDir)))
		w.foldCase = err == nil && os.SameFile(own, upper)
	})
	return w.foldCase
}
