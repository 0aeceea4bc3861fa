package workspace

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
)

// A crash between creating a temporary file and renaming it leaves the
// temporary file behind. The next write of the same name removes it (the
// writer holds the name's lock, so no other writer of that name is using
// it), but names such as archives are never written again. So writes also
// sweep their folder now and then, removing the temporary files of other
// names that have not changed for sweepGrace: a live one belongs to a
// writer that is between its create and its rename, which takes
// milliseconds, and removing it would make that write fail.
const (
	sweepGrace = time.Minute // a temporary file younger than this may be in use
	sweepEvery = time.Minute // a Workspace sweeps one folder at most this often
	sweepMax   = 16          // temporary files one sweep removes at most
	sweepLook  = 4 * sweepMax
	sweptMax   = 4096 // folders remembered before old entries are dropped
)

// tidy removes stray temporary files from the folder of name after a write,
// create or removal there, when the folder is due (sweepDue): it lists the
// folder, so not on every write. locked says the caller holds name's lock:
// then every temporary file of name (or of a name sharing its lock) is a
// crash's leftover and goes, whatever its age. Other names' temporary
// files are swept too: at most sweepMax of them, only those older than
// sweepGrace, looking at sweepLook at most. Failing to remove one leaves a
// file that reads and listings ignore, so errors are not reported.
func (w *Workspace) tidy(name string, locked bool) {
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	due := w.sweepDue(dir)
	if !due {
		return
	}
	d, err := w.root.Open(dir)
	if err != nil {
		return
	}
	entries, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return
	}
	cutoff := w.now().Add(-sweepGrace)
	looked, removed := 0, 0
	for _, e := range entries {
		switch {
		case !isTemp(e):
		case locked && isTempOf(e, base):
			w.root.Remove(join(dir, e))
		case due && removed < sweepMax && looked < sweepLook:
			looked++
			if ok, _ := w.removeStale(join(dir, e), cutoff); ok {
				removed++
			}
		}
	}
}

// sweepDue reports whether dir is due for a sweep by this Workspace, and if
// so records that it is being swept now.
func (w *Workspace) sweepDue(dir string) bool {
	now := w.now()
	w.sweepMu.Lock()
	defer w.sweepMu.Unlock()
	if last, ok := w.swept[dir]; ok && now.Sub(last) < sweepEvery && !now.Before(last) {
		return false
	}
	if w.swept == nil {
		w.swept = make(map[string]time.Time)
	}
	if len(w.swept) >= sweptMax {
		for d, last := range w.swept {
			if now.Sub(last) >= sweepEvery || now.Before(last) {
				delete(w.swept, d)
			}
		}
	}
	w.swept[dir] = now
	return true
}

// removeStale removes the temporary file name if it is a regular file last
// changed before cutoff. A file that is gone already is not an error.
func (w *Workspace) removeStale(name string, cutoff time.Time) (bool, error) {
	info, err := w.root.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, fail(name, "sweep", err)
	}
	if !info.Mode().IsRegular() || !info.ModTime().Before(cutoff) {
		return false, nil
	}
	if err := w.root.Remove(name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, fail(name, "sweep", err)
	}
	return true, nil
}

// Sweep removes the temporary files that writers killed before their
// rename left in dir and in the folders below it ("." is the whole root),
// and returns how many it removed. Files changed within the last minute are
// kept, as a write in progress, in this process or another, may be using
// them; symbolic links are not followed, and the lock directory is left
// alone. A dir that does not exist has nothing to sweep.
//
// Writes sweep their own folder too, a few files at a time (see the
// package documentation), so Sweep is only needed to tidy everything at
// once. It takes no lock. It stops at the first file it cannot examine or
// remove, and checks ctx before every file.
func (w *Workspace) Sweep(ctx context.Context, dir string) (removed int, err error) {
	err = w.leftovers(ctx, dir, func(name string, cutoff time.Time) error {
		ok, err := w.removeStale(name, cutoff)
		if ok {
			removed++
		}
		return err
	})
	return removed, err
}

// Leftovers lists the temporary files that Sweep would remove from dir and
// the folders below it ("." is the whole root), as slash-separated paths
// relative to the root, in lexical order; it removes nothing.
func (w *Workspace) Leftovers(ctx context.Context, dir string) ([]string, error) {
	var out []string
	err := w.leftovers(ctx, dir, func(name string, cutoff time.Time) error {
		info, err := w.root.Lstat(name)
		if err == nil && info.Mode().IsRegular() && info.ModTime().Before(cutoff) {
			out = append(out, name)
		}
		return nil
	})
	return out, err
}

// leftovers calls fn with each temporary file in dir and the folders
// below it, and the time before which one is a crash's leftover: the walk
// of Sweep and Leftovers.
func (w *Workspace) leftovers(ctx context.Context, dir string, fn func(name string, cutoff time.Time) error) error {
	if err := w.Check(); err != nil {
		return err
	}
	if err := ctxErr(ctx, dir); err != nil {
		return err
	}
	dir, err := checkDir(dir)
	if err != nil {
		return err
	}
	cutoff := w.now().Add(-sweepGrace)
	return fs.WalkDir(w.FS(), dir, func(name string, d fs.DirEntry, err error) error {
		if cerr := ctxErr(ctx, name); cerr != nil {
			return cerr
		}
		if err != nil {
			err = fail(name, "sweep", err)
			if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
				return nil // gone since its folder was listed, or never there
			}
			return err
		}
		if d.IsDir() {
			if reserved(name) && strings.ToLower(name) != StateDir {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !isTemp(d.Name()) {
			return nil
		}
		return fn(name, cutoff)
	})
}
