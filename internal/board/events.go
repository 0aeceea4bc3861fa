package board

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/taskmd/taskmd/agent"
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

// The pages a live page can be, as the "pages" event names them: each
// fetches its own content again when its name is in the event.
const (
	viewPlans  = "plans"
	viewTask   = "task"
	viewAgents = "agents"
	viewInbox  = "inbox"
	viewGraph  = "graph"
)

var allViews = []string{viewPlans, viewTask, viewAgents, viewInbox, viewGraph}

// viewsOf says which pages show what changed at name, a path relative to
// the workspace's root (slash-separated). The plans page learns of its
// documents from the cards and sections pushed; it fetches itself again
// only for the coordinator archives, which no card shows.
func viewsOf(name string) []string {
	top, rest, _ := strings.Cut(name, "/")
	switch top {
	case "docs", "coordinator":
		// Tasks: held tasks (agents), the resume queue (inbox), a task and
		// its graph.
		return []string{viewTask, viewAgents, viewInbox, viewGraph}
	case "archived":
		return []string{viewPlans}
	case "checkpoints":
		// Journals and worker checkpoints, pivots and clarifications.
		return []string{viewTask, viewAgents, viewInbox, viewGraph}
	case ".taskmd":
		if strings.HasPrefix(rest, "locks/") {
			return nil // taking a lock changes nothing
		}
		// Agents, their heartbeats and leases.
		return []string{viewTask, viewAgents, viewInbox}
	}
	return nil
}

// Watch keeps the board up to date with the files until ctx ends: it
// refreshes once at the start, then each time the file system reports a
// change anywhere in the workspace (internal/watch: fsnotify, no polling
// of the disk), and pushes the changed cards and sections to the live
// pages, and to every page whose data changed the names of the pages to
// fetch again. A timer pushes the agents' pages when the next online
// agent's heartbeat ages out, which no file change announces. When it
// returns, the live feeds end, so that a server's shutdown does not wait
// for the pages still open on them.
func (s *Server) Watch(ctx context.Context) error {
	defer s.feed.close()
	defer s.heartbeats.stop()
	root := s.ws.Root()
	return watch.Changes(ctx, root, func(names []string) error {
		var views []string
		if names == nil {
			views = allViews // anything may have changed
		}
		for _, n := range names {
			rel, err := filepath.Rel(root, n)
			if err != nil {
				continue
			}
			for _, v := range viewsOf(filepath.ToSlash(rel)) {
				if !slices.Contains(views, v) {
					views = append(views, v)
				}
			}
		}
		if err := s.changed(ctx, views); err != nil && ctx.Err() == nil {
			return err
		}
		return nil
	})
}

// changed brings the model up to date and pushes what changed: the cards
// and sections of the documents, and views, the pages whose data changed
// (nil: none but the documents'). It then sets the heartbeat timer again,
// for an agent may have come online or sent a heartbeat.
func (s *Server) changed(ctx context.Context, views []string) error {
	u, v, err := s.model.refresh(ctx, s.ws, s.renderDoc)
	if err != nil {
		return err
	}
	if len(views) > 0 {
		if u.empty() {
			v = s.model.bump()
		}
		u.views = views
	}
	if !u.empty() {
		s.feed.publish(v, u)
	}
	if len(views) > 0 {
		s.scheduleHeartbeats(ctx)
	}
	return nil
}

// heartbeats is the timer that fires when the next online agent goes
// offline.
type heartbeats struct {
	mu     sync.Mutex
	timer  *time.Timer
	online []string // the agents online when it was set
	ended  bool
}

func (h *heartbeats) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ended = true
	if h.timer != nil {
		h.timer.Stop()
	}
}

// minHeartbeatWait is the least wait of the heartbeat timer, so that a
// clock that does not move (a fixed TASKMD_NOW) never makes it spin.
const minHeartbeatWait = 50 * time.Millisecond

// scheduleHeartbeats sets the heartbeat timer to the moment the next
// online agent goes offline (Registry.OnlineUntil), and pushes the
// agents' pages when the agents online are not those it saw last.
func (s *Server) scheduleHeartbeats(ctx context.Context) {
	reg := s.plans.Agents()
	list, err := reg.List(ctx, agent.ListOptions{OnlineOnly: true})
	if err != nil {
		return // the next change sets it again
	}
	online := make([]string, 0, len(list))
	var next time.Time
	for _, a := range list {
		online = append(online, a.ID)
		if until := reg.OnlineUntil(a); next.IsZero() || until.Before(next) {
			next = until
		}
	}
	h := &s.heartbeats
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ended || ctx.Err() != nil {
		return
	}
	if h.timer != nil {
		h.timer.Stop()
		h.timer = nil
	}
	wentOffline := slices.ContainsFunc(h.online, func(id string) bool { return !slices.Contains(online, id) })
	h.online = online
	if wentOffline {
		v := s.model.bump()
		s.feed.publish(v, update{views: []string{viewTask, viewAgents, viewInbox}})
	}
	if next.IsZero() {
		return
	}
	// Online is "not after OnlineUntil": the agent is offline just after.
	wait := max(next.Sub(s.now())+time.Millisecond, minHeartbeatWait)
	h.timer = time.AfterFunc(wait, func() { s.scheduleHeartbeats(ctx) })
}

// events is the live feed (server-sent events): "version" first, then
// "card" and "section" events as the documents change and "pages" (a JSON
// list of page names: plans, task, agents, inbox, graph) for the pages
// whose data changed, each push followed by the "version" it made.
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
			if len(p.u.views) > 0 {
				send(w, "pages", p.u.views)
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
