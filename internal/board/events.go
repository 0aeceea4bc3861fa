package board

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/taskmd/taskmd/internal/watch"
)

// feed hands each refresh's changes to the live pages.
type feed struct {
	mu     sync.Mutex
	subs   map[chan push]struct{}
	closed bool // the watch ended: no page is fed any more
}

// push is one refresh's changes with the version they made.
type push struct {
	version int64
	u       update
}

func (f *feed) subscribe() chan push {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.subs == nil {
		f.subs = map[chan push]struct{}{}
	}
	ch := make(chan push, 16)
	if f.closed {
		close(ch)
		return ch
	}
	f.subs[ch] = struct{}{}
	return ch
}

// close ends every live page's feed, and those that come later: the
// board no longer watches the files.
func (f *feed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	for ch := range f.subs {
		close(ch)
		delete(f.subs, ch)
	}
}

func (f *feed) unsubscribe(ch chan push) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.subs, ch)
}

// publish sends u to every live page; a page too slow to take it gets a
// reload instead (its channel is full).
func (f *feed) publish(version int64, u update) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		select {
		case ch <- push{version, u}:
		default:
			select {
			case <-ch: // drop the oldest; the page reloads on a gap
			default:
			}
			ch <- push{version, update{sections: []sectionEvent{{ID: "reload"}}}}
		}
	}
}

// Watch keeps the board up to date with the files until ctx ends: it
// refreshes once at the start, then each time the file system reports a
// change anywhere in the workspace (internal/watch: fsnotify, no polling
// of the disk), and pushes the changed cards and sections to the live
// pages. When it returns, the live feeds end, so that a server's shutdown
// does not wait for the pages still open on them.
func (s *Server) Watch(ctx context.Context) error {
	defer s.feed.close()
	_, err := watch.UntilTree(ctx, s.ws.Root(), 0, nil, func() (bool, error) {
		if _, err := s.refresh(ctx); err != nil && ctx.Err() == nil {
			return false, err
		}
		return false, nil
	})
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// events is the live feed (server-sent events): "version" first, then
// "card" and "section" events as the files change, each followed by the
// "version" they made.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported", http.StatusInternalServerError)
		return
	}
	ch := s.feed.subscribe()
	defer s.feed.unsubscribe(ch)
	_, version := s.model.snapshot()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	send(w, "version", version)
	fl.Flush()
	keepAlive := time.NewTicker(25 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case p, ok := <-ch:
			if !ok {
				return // the board stops
			}
			for _, c := range p.u.cards {
				send(w, "card", c)
			}
			for _, sec := range p.u.sections {
				send(w, "section", sec)
			}
			send(w, "version", p.version)
		}
		fl.Flush()
	}
}

// send writes one event.
func send(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
}
