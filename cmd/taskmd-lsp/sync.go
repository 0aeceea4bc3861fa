package main

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/taskmd/taskmd/editor"
)

// The editor's buffers: each notification changes the Session's view and
// schedules diagnostics for every open document, since a change of one
// (a slug, a status) can change what is wrong in another.

func (s *server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	doc := params.TextDocument
	path, ok := s.path(doc.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return nil
	}
	if err := session.Open(ctx, path, int(doc.Version), doc.Text); err != nil {
		return err
	}
	s.mu.Lock()
	s.uris[path] = doc.URI
	delete(s.published, path) // the editor hears of the document anew
	s.mu.Unlock()
	s.diagnostics.schedule()
	return nil
}

func (s *server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	path, ok := s.path(params.TextDocument.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return nil
	}
	changes := make([]editor.Change, 0, len(params.ContentChanges))
	for _, c := range params.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			r := toEditorRange(c.Range)
			changes = append(changes, editor.Change{Range: &r, Text: c.Text})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, editor.Change{Text: c.Text})
		}
	}
	if err := session.Change(path, int(params.TextDocument.Version), changes); err != nil {
		// The buffer the server holds is no longer the editor's; only a
		// new didOpen brings them together again.
		msg := "taskmd: " + path + " is out of step with the editor (" + err.Error() + "): close and reopen it"
		if err := s.client.ShowMessage(s.ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg}); err != nil {
			s.log.Debug("showMessage", "error", err)
		}
		return err
	}
	s.bufferChanged()
	s.diagnostics.schedule()
	return nil
}

func (s *server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	path, ok := s.path(params.TextDocument.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return nil
	}
	err := session.Saved(path)
	s.diagnostics.schedule()
	return err
}

func (s *server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	path, ok := s.path(params.TextDocument.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return nil
	}
	session.Close(path)
	s.mu.Lock()
	delete(s.uris, path)
	s.mu.Unlock()
	s.bufferChanged()
	s.diagnostics.closeDocument(params.TextDocument.URI)
	return nil
}
