package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
)

// Positions need no conversion of their characters: the Session counts
// them in the encoding negotiated at initialize.

func toEditorPosition(p protocol.Position) editor.Position {
	return editor.Position{Line: int(p.Line), Character: int(p.Character)}
}

func toEditorRange(r protocol.Range) editor.Range {
	return editor.Range{Start: toEditorPosition(r.Start), End: toEditorPosition(r.End)}
}

func toPosition(p editor.Position) protocol.Position {
	return protocol.Position{Line: uint32(max(p.Line, 0)), Character: uint32(max(p.Character, 0))}
}

func toRange(r editor.Range) protocol.Range {
	return protocol.Range{Start: toPosition(r.Start), End: toPosition(r.End)}
}

func (s *server) toLocation(l editor.Location) protocol.Location {
	return protocol.Location{URI: s.documentURI(l.Path), Range: toRange(l.Range)}
}

func toTextEdits(edits []editor.Edit) []protocol.TextDocumentEditElement {
	out := make([]protocol.TextDocumentEditElement, len(edits))
	for i, e := range edits {
		out[i] = &protocol.TextEdit{Range: toRange(e.Range), NewText: e.NewText}
	}
	return out
}

// versionedEdit is a WorkspaceEdit of one document's edits, for the
// buffer of version, so that an editor refuses it once the buffer has
// moved on; for a document that is not open (open false), the version is
// null: the edits apply to its file.
func (s *server) versionedEdit(path string, version int, open bool, edits []editor.Edit) *protocol.WorkspaceEdit {
	s.mu.Lock()
	u, known := s.uris[path]
	s.mu.Unlock()
	if !known {
		u = s.documentURI(path)
	}
	id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}
	if open {
		v := int32(version)
		id.Version = &v
	}
	return &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
		&protocol.TextDocumentEdit{TextDocument: id, Edits: toTextEdits(edits)},
	}}
}

// workspacePath is the workspace path ("docs/api/auth.md") of a document
// URI; false for a URI that is not a file inside root.
func workspacePath(root string, u uri.URI) (string, bool) {
	if root == "" || !u.IsFile() {
		return "", false
	}
	name := filepath.Clean(u.FsPath())
	if rel, ok := inside(root, name); ok {
		return rel, true
	}
	// The editor may name the folder through a symbolic link, or the
	// server's root may be one.
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	realDir, err := filepath.EvalSymlinks(filepath.Dir(name))
	if err != nil {
		return "", false
	}
	return inside(realRoot, filepath.Join(realDir, filepath.Base(name)))
}

func inside(root, name string) (string, bool) {
	rel, err := filepath.Rel(root, name)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// fileURI is the URI of the file at a workspace path.
func fileURI(root, path string) uri.URI {
	return uri.File(filepath.Join(root, filepath.FromSlash(path)))
}

// path is the workspace path of a document the editor names; false (and
// the request is passed over) for one outside the workspace.
func (s *server) path(u uri.URI) (string, bool) {
	_, root := s.state()
	p, ok := workspacePath(root, u)
	if !ok {
		s.log.Debug("outside the workspace", "uri", u)
	}
	return p, ok
}

// requestFailed is the protocol's code for a request that was valid but
// failed (LSP 3.17).
const requestFailed jsonrpc2.Code = -32803

// responseError is the ResponseError of a failed call: the taskmd code
// leads the message and is the error's data, {"code": "CONFLICT"}. Bad
// input is InvalidParams, everything else RequestFailed.
func responseError(err error) error {
	var wire *jsonrpc2.Error
	if errors.As(err, &wire) {
		return wire
	}
	code := taskdoc.CodeOf(err)
	if code == "" {
		return jsonrpc2.NewError(requestFailed, err.Error())
	}
	rpc := requestFailed
	switch code {
	case taskdoc.CodeInvalidArguments, taskdoc.CodeNoteRequired, taskdoc.CodeInvalidAddress,
		taskdoc.CodeSubagentRequiresSlug, taskdoc.CodeControlCharacter, taskdoc.CodeInvalidUTF8:
		rpc = jsonrpc2.InvalidParams
	}
	return codedError(rpc, code, err.Error())
}

func codedError(rpc jsonrpc2.Code, code taskdoc.Code, msg string) *jsonrpc2.Error {
	e := jsonrpc2.NewError(rpc, fmt.Sprintf("%s: %s", code, msg))
	if data, err := json.Marshal(map[string]string{"code": string(code)}); err == nil {
		e.Data = data
	}
	return e
}
