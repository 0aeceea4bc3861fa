package watch

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Clock gives Until its timer; tests inject one they fire by hand.
type Clock interface {
	After(d time.Duration) <-chan time.Time
}

// RealClock is the clock of the time package.
type RealClock struct{}

// After is time.After.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Fallback is how often Until re-checks when the file system cannot be
// watched (a watch limit reached, a file system without notifications).
// It is the only polling Until ever does.
const Fallback = time.Second

// Until waits until check reports true. It runs check once at the start,
// then again whenever a file in dir (an absolute path; created if missing)
// is created, written, renamed or removed, and once more when timeout has
// passed on clock (nil is RealClock), so that a change the watcher could
// not report is still seen. It returns true when check did, false at the
// timeout, and the error of check, of the watch or of ctx otherwise. The
// watch is set up before the first check, so no change between the two is
// missed. When dir cannot be watched, Until re-checks every Fallback.
func Until(ctx context.Context, dir string, timeout time.Duration, clock Clock, check func() (bool, error)) (bool, error) {
	if clock == nil {
		clock = RealClock{}
	}
	return wait(ctx, dir, false, func() <-chan time.Time { return clock.After(timeout) }, check, nil)
}

// wait is Until and UntilTree: it watches root (and, for a tree, every
// folder below it, new ones included), runs check at the start, after
// every change and when the channel deadline returns fires (deadline is
// asked for after the first check; a nil channel never fires), and falls
// back to re-checking every Fallback while something cannot be watched.
// seen, when not nil, is told the name of each change before the check
// that follows it, and "" when a check follows no known change (the
// fallback, an overflow of the watcher's queue); the changes already
// queued are taken in before that check, so that a burst of them (an
// atomic write's create and rename) is one check.
func wait(ctx context.Context, root string, tree bool, deadline func() <-chan time.Time, check func() (bool, error), seen func(name string)) (bool, error) {
	if seen == nil {
		seen = func(string) {}
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
	add := func(w *fsnotify.Watcher, dir string) error {
		if tree {
			return addTree(w, dir)
		}
		return w.Add(dir)
	}
	w, err := fsnotify.NewWatcher()
	if err == nil {
		defer w.Close()
		events, errs = w.Events, w.Errors
		if add(w, root) != nil {
			startFallback()
		}
	} else {
		startFallback()
	}
	if ok, err := check(); ok || err != nil {
		return ok, err
	}
	timeout := deadline()
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-timeout:
			return check()
		case ev, open := <-events:
			if !open {
				events = nil
				startFallback()
				seen("")
				break
			}
			took := func(ev fsnotify.Event) {
				seen(ev.Name)
				if tree && ev.Has(fsnotify.Create) {
					if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() && addTree(w, ev.Name) != nil {
						startFallback()
					}
				}
			}
			took(ev)
		queued:
			for {
				select {
				case ev, open := <-events:
					if !open {
						break queued
					}
					took(ev)
				default:
					break queued
				}
			}
		case err, open := <-errs:
			if !open {
				errs = nil
			} else if !errors.Is(err, fsnotify.ErrEventOverflow) {
				return false, err
			}
			seen("")
		case <-fallback:
			seen("")
		}
		if ok, err := check(); ok || err != nil {
			return ok, err
		}
	}
}
