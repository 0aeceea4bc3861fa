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
	}, check)
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
