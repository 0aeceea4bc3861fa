package watch

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// UntilTree is Until for a whole tree of folders: it watches root (an
// absolute path; created if missing) and every folder below it, folders
// created while it waits included, and runs check at the start, after
// every change anywhere in the tree, and at the timeout. A timeout of 0 or
// less never comes: the wait ends when check reports true, fails, or ctx
// ends. Symbolic links to folders are not followed. When a folder cannot be
// watched (a watch limit reached), UntilTree also re-checks every Fallback.
func UntilTree(ctx context.Context, root string, timeout time.Duration, clock Clock, check func() (bool, error)) (bool, error) {
	if clock == nil {
		clock = RealClock{}
	}
	return wait(ctx, root, true, func() <-chan time.Time {
		if timeout <= 0 {
			return nil
		}
		return clock.After(timeout)
	}, check, nil)
}

// Changes watches the tree under root as UntilTree does and runs fn at the
// start and after every change, with the names (absolute paths) of what
// changed since its last run, until fn fails or ctx ends (then it returns
// nil). names is nil when the changes are not known: at the start, and
// when the watcher lost some (a folder that cannot be watched, an
// overflow); then anything may have changed.
func Changes(ctx context.Context, root string, fn func(names []string) error) error {
	var names []string
	unknown := true
	_, err := wait(ctx, root, true, func() <-chan time.Time { return nil }, func() (bool, error) {
		n := names
		if unknown {
			n = nil
		}
		names, unknown = nil, false
		return false, fn(n)
	}, func(name string) {
		if name == "" {
			unknown = true
		} else {
			names = append(names, name)
		}
	})
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// addTree watches dir and every folder below it. Folders removed while it
// walks are skipped.
func addTree(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if err := w.Add(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
}
