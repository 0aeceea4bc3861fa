package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/workspace"
)

// config is what main, tests and benchmarks choose about a server.
type config struct {
	log *slog.Logger     // nil discards
	now func() time.Time // the clock of completions; nil is time.Now
	// debounce is how long diagnostics wait for the editor to stop typing
	// (defaultDebounce when 0, none when negative), after is the timer
	// that waits (time.AfterFunc when nil).
	debounce time.Duration
	after    afterFunc
	// settle is how long a change on disk waits for the rest of its burst
	// of file events (defaultSettle when 0, none when negative).
	settle time.Duration
	// noWatch leaves the workspace's folders unwatched: only
	// workspace/didChangeWatchedFiles tells of changes on disk.
	noWatch bool
}

const (
	defaultDebounce = 50 * time.Millisecond
	defaultSettle   = 20 * time.Millisecond
)

// afterFunc calls f once d has passed, unless stop is called first.
type afterFunc func(d time.Duration, f func()) (stop func() bool)

func timeAfter(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// server is one editor's connection. The protocol's methods it does not
// serve answer "method not found" (UnimplementedServer).
type server struct {
	protocol.UnimplementedServer

	cfg    config
	log    *slog.Logger
	ctx    context.Context // the connection's; ends when it does
	client protocol.Client

	mu           sync.Mutex
	initializing bool // an initialize is under way or done: no second one
	initialized  bool
	shutdown     bool
	closing      bool           // serve is returning: nothing more is handled
	handling     sync.WaitGroup // the requests and notifications under way
	root         string         // the workspace root, absolute
	ws           *workspace.Workspace
	session      *editor.Session
	uris         map[string]uri.URI   // open documents' paths -> the URI the editor named them by
	changed      chan struct{}        // closed when a buffer changes (awaitChange)
	published    map[string]published // by path: the diagnostics the editor was last sent

	exit     chan struct{}
	exitOnce sync.Once

	diagnostics *publisher
	disk        *diskQueue
	watcher     *watcher
}

func newServer(cfg config) *server {
	if cfg.log == nil {
		cfg.log = slog.New(slog.DiscardHandler)
	}
	if cfg.debounce == 0 {
		cfg.debounce = defaultDebounce
	}
	if cfg.settle == 0 {
		cfg.settle = defaultSettle
	}
	if cfg.after == nil {
		cfg.after = timeAfter
	}
	s := &server{cfg: cfg, log: cfg.log, uris: map[string]uri.URI{}, published: map[string]published{}, changed: make(chan struct{}), exit: make(chan struct{})}
	s.diagnostics = newPublisher(max(cfg.debounce, 0), cfg.after, s.publishDiagnostics)
	s.disk = newDiskQueue(max(cfg.settle, 0), cfg.after, s.diskChanged)
	return s
}

// closeTimeout bounds how long serve waits, once the editor went away,
// for the work under way to end.
const closeTimeout = 5 * time.Second

// serve answers the editor on stream until it exits or goes away, and
// returns the exit code: 0 after shutdown, 1 without.
func (s *server) serve(ctx context.Context, stream io.ReadWriteCloser) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	conn := jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(stream), jsonrpc2.WithCodec(codec{}))
	s.client = protocol.ClientDispatcher(conn)
	conn.Go(ctx, protocol.CancelHandler(s.order(protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler))))
	select {
	case <-s.exit:
	case <-conn.Done():
	}
	cancel()
	s.stop()
	conn.Close()
	// Nothing touches the workspace once serve returns: the messages and
	// the background work under way end first (the context is done).
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	ended := make(chan struct{})
	go func() {
		s.handling.Wait()
		s.stop() // a watch an initialize under way started
		s.diagnostics.wait()
		s.disk.wait()
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(closeTimeout):
		// An editor that stopped reading holds a write to it: serve ends
		// anyway, with the process.
		s.log.Warn("work under way did not end", "after", closeTimeout)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ws != nil {
		s.ws.Close()
	}
	if s.shutdown {
		return 0
	}
	return 1
}

// order runs the editor's notifications one at a time, in the order sent,
// on the connection's reader, so that every request sees the buffers as
// the editor changed them before it asked; requests run concurrently (they
// may wait for the editor, as executeCommand waits for applyEdit). It also
// keeps to the protocol's lifecycle: nothing but initialize before it, and
// nothing but exit after shutdown.
func (s *server) order(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		method := req.Method()
		s.mu.Lock()
		initialized, shutdown := s.initialized, s.shutdown
		again := method == protocol.MethodInitialize && (s.initialized || s.initializing)
		if method == protocol.MethodInitialize && req.IsCall() {
			s.initializing = true
		}
		closing := s.closing
		if !closing {
			s.handling.Add(1)
		}
		s.mu.Unlock()
		if !req.IsCall() {
			s.log.Debug("notification", "method", method)
			if closing {
				return nil, nil
			}
			defer s.handling.Done()
			if !initialized && method != protocol.MethodExit {
				return nil, nil
			}
			// An error of a notification would end the connection: log it.
			// Notifications of "$/" methods may be ignored (the protocol
			// says so); the server knows none but cancellation.
			if _, err := next(ctx, req); err != nil && !strings.HasPrefix(method, "$/") {
				s.log.Warn(method, "error", err)
			}
			return nil, nil
		}
		// Released before anything else: a request answered on the reader
		// is recycled while the context CancelHandler derived from it may
		// still be reading it.
		jsonrpc2.Async(ctx)
		s.log.Debug("request", "method", method)
		if closing {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, method+": the server is closing")
		}
		defer s.handling.Done()
		switch {
		case again:
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize: the server is initialized already")
		case !initialized && method != protocol.MethodInitialize:
			return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, method+": the server is not initialized")
		case shutdown:
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, method+": the server is shutting down")
		}
		result, err := next(ctx, req)
		if err != nil {
			s.log.Debug(method, "error", err)
		}
		return result, err
	}
}

// stop ends the background work: timers and the watch.
func (s *server) stop() {
	s.diagnostics.stop()
	s.disk.stop()
	s.mu.Lock()
	w := s.watcher
	s.watcher = nil
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// state is the workspace's session and root, nil before initialize.
func (s *server) state() (*editor.Session, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session, s.root
}

// codec encodes the protocol's payloads with its own union-aware
// Marshal and Unmarshal.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}
