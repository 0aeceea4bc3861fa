package watch

import (
	"context"
	"errors"
	"io/fs"
	"os"
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
	if err := os.MkdirAll(root, 0o755); err != nil {
		return false, err
	}
	var events chan fsnotify.Event
	var errs chan error
	var fallback <-chan time.Time
	var ticker *time.Ticker
	startFallback := func() {
		if ticker == nil {
			ticker = time.NewTicker(Fallback)
			fallback = ticker.C
		}
	}
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()
	w, err := fsnotify.NewWatcher()
	if err == nil {
		defer w.Close()
		events, errs = w.Events, w.Errors
		if addTree(w, root) != nil {
			startFallback()
		}
	} else {
		startFallback()
	}
	if ok, err := check(); ok || err != nil {
		return ok, err
	}
	var deadline <-chan time.Time
	if timeout > 0 {
		deadline = clock.After(timeout)
	}
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-deadline:
			return check()
		case ev, open := <-events:
			if !open {
				events = nil
				startFallback()
			} else if ev.Has(fsnotify.Create) {
				if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() && addTree(w, ev.Name) != nil {
					startFallback()
				}
			}
		case err, open := <-errs:
			if !open {
				errs = nil
			} else if !errors.Is(err, fsnotify.ErrEventOverflow) {
				return false, err
			}
		case <-fallback:
		}
		if ok, err := check(); ok || err != nil {
			return ok, err
		}
	}
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
