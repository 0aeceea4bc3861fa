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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	var events chan fsnotify.Event
	var errs chan error
	var fallback <-chan time.Time
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if err = w.Add(dir); err != nil {
			w.Close()
		}
	}
	if err == nil {
		defer w.Close()
		events, errs = w.Events, w.Errors
	} else {
		ticker := time.NewTicker(Fallback)
		defer ticker.Stop()
		fallback = ticker.C
	}
	if ok, err := check(); ok || err != nil {
		return ok, err
	}
	deadline := clock.After(timeout)
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-deadline:
			return check()
		case _, open := <-events:
			if !open {
				events = nil
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
