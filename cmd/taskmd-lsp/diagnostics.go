package main

import (
	"reflect"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/taskmd/taskmd/editor"
)

// publisher publishes diagnostics once the editor has stopped changing
// things for a moment: each schedule restarts the wait, so a burst of
// keystrokes costs one publication.
type publisher struct {
	delay   time.Duration
	after   afterFunc
	publish func(closed []uri.URI)

	mu      sync.Mutex
	cancel  func() bool
	closed  []uri.URI // documents closed since the last publication
	stopped bool

	run sync.Mutex // one publication at a time, so that they go out in order
}

func newPublisher(delay time.Duration, after afterFunc, publish func(closed []uri.URI)) *publisher {
	return &publisher{delay: delay, after: after, publish: publish}
}

// schedule publishes after the delay, unless schedule is called again
// first.
func (p *publisher) schedule() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	if p.cancel != nil {
		p.cancel()
	}
	p.cancel = p.after(p.delay, p.fire)
}

// closeDocument schedules the clearing of a closed document's diagnostics.
func (p *publisher) closeDocument(u uri.URI) {
	p.mu.Lock()
	p.closed = append(p.closed, u)
	p.mu.Unlock()
	p.schedule()
}

func (p *publisher) fire() {
	p.run.Lock()
	defer p.run.Unlock()
	p.mu.Lock()
	closed, stopped := p.closed, p.stopped
	p.closed = nil
	p.mu.Unlock()
	if !stopped {
		p.publish(closed)
	}
}

// stop cancels the publication due.
func (p *publisher) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.cancel != nil {
		p.cancel()
	}
}

// wait returns once a publication under way has ended.
func (p *publisher) wait() {
	p.run.Lock()
	defer p.run.Unlock()
}

// published is what the editor was last told about one document.
type published struct {
	version     int
	diagnostics []editor.Diagnostic
}

// publishDiagnostics sends the diagnostics of every open document whose
// version or diagnostics changed since they were last sent, and clears
// those of closed documents. A document that changes while its
// diagnostics are computed is passed over: its change scheduled another
// publication.
func (s *server) publishDiagnostics(closed []uri.URI) {
	session, _ := s.state()
	if session == nil {
		return
	}
	ctx := s.ctx
	var clear []uri.URI
	s.mu.Lock()
	for _, u := range closed {
		if p, ok := workspacePath(s.root, u); ok {
			if _, open := s.uris[p]; open {
				continue // opened again: its diagnostics follow
			}
			delete(s.published, p)
		}
		clear = append(clear, u)
	}
	s.mu.Unlock()
	for _, u := range clear {
		if err := s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}}); err != nil {
			s.log.Debug("publishDiagnostics", "error", err)
			return
		}
	}
	for _, path := range session.OpenPaths() {
		_, before, ok := session.Text(path)
		diagnostics, err := session.Diagnostics(ctx, path)
		_, after, still := session.Text(path)
		if !ok || !still || before != after {
			continue
		}
		if err != nil {
			s.log.Debug("diagnostics", "path", path, "error", err)
			continue
		}
		now := published{version: before, diagnostics: diagnostics}
		s.mu.Lock()
		last, ok := s.published[path]
		s.published[path] = now
		s.mu.Unlock()
		if ok && reflect.DeepEqual(last, now) {
			continue
		}
		params := &protocol.PublishDiagnosticsParams{
			URI:         s.documentURI(path),
			Version:     protocol.NewOptional(int32(before)),
			Diagnostics: make([]protocol.Diagnostic, len(diagnostics)),
		}
		for i, d := range diagnostics {
			params.Diagnostics[i] = s.toDiagnostic(d)
		}
		if err := s.client.PublishDiagnostics(ctx, params); err != nil {
			s.log.Debug("publishDiagnostics", "error", err)
			return
		}
	}
}

func (s *server) toDiagnostic(d editor.Diagnostic) protocol.Diagnostic {
	out := protocol.Diagnostic{
		Range:    toRange(d.Range),
		Severity: protocol.DiagnosticSeverity(d.Severity),
		Code:     protocol.String(string(d.Code)),
		Source:   protocol.NewOptional("taskmd"),
		Message:  protocol.String(d.Message),
	}
	for _, r := range d.Related {
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: s.toLocation(r.Location),
			Message:  r.Message,
		})
	}
	return out
}
