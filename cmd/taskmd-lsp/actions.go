package main

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/taskmd/taskmd/editor"
)

// commandArgs is the one argument of every taskmd command: the task, the
// buffer version it was offered for, and what the user was asked for.
type commandArgs struct {
	URI     string `json:"uri,omitempty"`
	Slug    string `json:"slug,omitempty"`
	Version *int   `json:"version,omitempty"` // checked when given
	Note    string `json:"note,omitempty"`    // taskmd.complete
	Reason  string `json:"reason,omitempty"`  // taskmd.block
	Title   string `json:"title,omitempty"`   // taskmd.addTask
}

// CodeAction offers the changes of the task at the cursor. One that needs
// nothing more carries its edit, versioned; one that needs input (the
// note of complete) or works on disk (archive) carries its command.
func (s *server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	path, ok := s.path(params.TextDocument.URI)
	session, _ := s.state()
	if !ok || session == nil {
		return []protocol.CommandOrCodeAction{}, nil
	}
	actions, err := session.Actions(ctx, path, toEditorRange(params.Range))
	if err != nil {
		return nil, responseError(err)
	}
	out := make([]protocol.CommandOrCodeAction, 0, len(actions))
	for _, a := range actions {
		kind := actionKind(a)
		if !wanted(kind, params.Context.Only) {
			continue
		}
		ca := &protocol.CodeAction{Title: a.Title, Kind: &kind}
		if len(a.Edits) > 0 && a.Needs == "" {
			ca.Edit = s.versionedEdit(a.Path, a.Version, a.Open, a.Edits)
		} else {
			ca.Command = s.command(a)
		}
		out = append(out, ca)
	}
	return out, nil
}

// actionKind files archive, which works on the whole list, under source,
// and the changes of a task under refactor.rewrite.
func actionKind(a editor.Action) protocol.CodeActionKind {
	if a.Name == editor.ActionArchive {
		return protocol.CodeActionKindSource
	}
	return protocol.CodeActionKindRefactorRewrite
}

// wanted reports whether kind is one the editor asked for (all when it
// named none): the kind itself or one below it.
func wanted(kind protocol.CodeActionKind, only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(string(kind), string(o)+".") {
			return true
		}
	}
	return false
}

// command is the command that carries out a, with the argument
// {"uri", "slug", "version"}; the editor adds what a needs.
func (s *server) command(a editor.Action) protocol.Command {
	args := commandArgs{Slug: a.Slug}
	if a.Open {
		args.Version = &a.Version
	}
	if a.Path != "" {
		args.URI = string(s.documentURI(a.Path))
	}
	data, _ := json.Marshal(args) // a struct of strings and an *int
	return protocol.Command{Title: a.Title, Command: commands[a.Name], Arguments: []protocol.LSPAny{data}}
}
