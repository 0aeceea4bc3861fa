package main

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/taskmd/taskmd/editor"
)

// DocumentSymbol is the outline of a document: its Tasks section, and in
// it the tasks, each with its status as detail.
func (s *server) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	path, ok := s.path(params.TextDocument.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return protocol.DocumentSymbolSlice{}, nil
	}
	symbols, err := session.Symbols(ctx, path)
	if err != nil {
		return nil, responseError(err)
	}
	return protocol.DocumentSymbolSlice(toDocumentSymbols(symbols)), nil
}

func toDocumentSymbols(symbols []editor.Symbol) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, len(symbols))
	for i, sym := range symbols {
		out[i] = protocol.DocumentSymbol{
			Name:           sym.Name,
			Kind:           symbolKind(sym.Kind),
			Range:          toRange(sym.Range),
			SelectionRange: toRange(sym.SelectionRange),
			Children:       toDocumentSymbols(sym.Children),
		}
		if sym.Detail != "" {
			detail := sym.Detail
			out[i].Detail = &detail
		}
	}
	return out
}

// symbolKind shows the Tasks section as a namespace of the tasks, and a
// task as an event, the nearest of the protocol's kinds.
func symbolKind(k editor.SymbolKind) protocol.SymbolKind {
	if k == editor.SymbolTasks {
		return protocol.SymbolKindNamespace
	}
	return protocol.SymbolKindEvent
}

// Symbols finds tasks across the workspace by title or slug; a task's
// container is its status and address ("pending · /api/auth.md#sign").
func (s *server) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	session, _ := s.state()
	tasks, err := session.WorkspaceSymbols(ctx, params.Query)
	if err != nil {
		return nil, responseError(err)
	}
	out := make(protocol.SymbolInformationSlice, len(tasks))
	for i, t := range tasks {
		container := string(t.Status) + " · " + t.Address
		out[i] = protocol.SymbolInformation{
			BaseSymbolInformation: protocol.BaseSymbolInformation{
				Name:          t.Name,
				Kind:          symbolKind(editor.SymbolTask),
				ContainerName: &container,
			},
			Location: s.toLocation(t.Location),
		}
	}
	return out, nil
}
