package main

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/taskmd/taskmd/editor"
)

// Hover shows, in Markdown, what is under the cursor: a task, the
// document or task a reference names, a status.
func (s *server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	path, ok := s.path(params.TextDocument.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return nil, nil
	}
	h, err := session.Hover(ctx, path, toEditorPosition(params.Position))
	if err != nil {
		return nil, responseError(err)
	}
	if h == nil {
		return nil, nil
	}
	r := toRange(h.Range)
	return &protocol.Hover{
		Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown},
		Range:    &r,
	}, nil
}

// Definition goes from a reference or a Depends-On address to the
// document, section or task it names.
func (s *server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	path, ok := s.path(params.TextDocument.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return protocol.LocationSlice{}, nil
	}
	locations, err := session.Definition(ctx, path, toEditorPosition(params.Position))
	if err != nil {
		return nil, responseError(err)
	}
	out := make(protocol.LocationSlice, len(locations))
	for i, l := range locations {
		out[i] = s.toLocation(l)
	}
	return out, nil
}

// Completion offers documents after "@/", sections after "#", task
// addresses in Depends-On, statuses and workflow names; each item replaces
// the part of the word already typed.
func (s *server) Completion(ctx context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	path, ok := s.path(params.TextDocument.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return &protocol.CompletionList{Items: []protocol.CompletionItem{}}, nil
	}
	completions, err := session.Complete(ctx, path, toEditorPosition(params.Position))
	if err != nil {
		return nil, responseError(err)
	}
	items := make([]protocol.CompletionItem, len(completions))
	for i, c := range completions {
		items[i] = protocol.CompletionItem{
			Label: c.Label,
			Kind:  completionKind(c.Kind),
			// The typed text is matched against the text that replaces
			// it, not the label, which may be shorter.
			FilterText: protocol.NewOptional(c.NewText),
			TextEdit:   &protocol.TextEdit{Range: toRange(c.Range), NewText: c.NewText},
		}
		if c.Detail != "" {
			items[i].Detail = protocol.NewOptional(c.Detail)
		}
	}
	return &protocol.CompletionList{Items: items}, nil
}

func completionKind(k editor.CompletionKind) protocol.CompletionItemKind {
	switch k {
	case editor.CompletePath:
		return protocol.CompletionItemKindFile
	case editor.CompleteAnchor, editor.CompleteTask:
		return protocol.CompletionItemKindReference
	case editor.CompleteStatus:
		return protocol.CompletionItemKindEnumMember
	case editor.CompleteWorkflow:
		return protocol.CompletionItemKindModule
	}
	return protocol.CompletionItemKindText
}
