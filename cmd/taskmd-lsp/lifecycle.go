package main

import (
	"context"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/workspace"
)

// Initialize opens the workspace of the editor's first folder (or its
// rootUri) in the position encoding both sides speak, and starts watching
// its folders.
func (s *server) Initialize(ctx context.Context, params *protocol.InitializeParams) (res *protocol.InitializeResult, err error) {
	defer func() {
		if err != nil { // the editor may try again
			s.mu.Lock()
			s.initializing = false
			s.mu.Unlock()
		}
	}()
	root, ok := rootOf(params)
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams,
			"initialize: no workspace folder and no rootUri: open the folder of a taskmd workspace")
	}
	enc, kind := editor.UTF16, protocol.PositionEncodingKindUTF16
	if g := params.Capabilities.General; g != nil && slices.Contains(g.PositionEncodings, protocol.PositionEncodingKindUTF8) {
		enc, kind = editor.UTF8, protocol.PositionEncodingKindUTF8
	}
	ws, err := workspace.Open(root)
	if err != nil {
		return nil, responseError(err)
	}
	opts := []editor.Option{editor.WithEncoding(enc)}
	if s.cfg.now != nil {
		opts = append(opts, editor.WithClock(s.cfg.now))
	}
	session, err := editor.New(ws, opts...)
	if err != nil {
		ws.Close()
		return nil, responseError(err)
	}
	var w *watcher
	if !s.cfg.noWatch {
		if w, err = watch(root, s.disk.add, s.log); err != nil {
			// The editor's didChangeWatchedFiles still tells of changes.
			s.log.Warn("cannot watch the workspace", "root", root, "error", err)
		}
	}
	s.mu.Lock()
	s.root, s.ws, s.session, s.watcher, s.initialized = root, ws, session, w, true
	s.mu.Unlock()
	s.log.Info("initialized", "root", root, "positionEncoding", kind)
	return &protocol.InitializeResult{
		Capabilities: capabilities(kind),
		ServerInfo:   protocol.ServerInfo{Name: "taskmd-lsp", Version: protocol.NewOptional(versionString())},
	}, nil
}

// rootOf is the workspace root the editor opened: its first workspace
// folder, else rootUri, else rootPath.
func rootOf(params *protocol.InitializeParams) (string, bool) {
	if folders, ok := params.WorkspaceFolders.Get(); ok && len(folders) > 0 && folders[0].URI.IsFile() {
		return folders[0].URI.FsPath(), true
	}
	//lint:ignore SA1019 editors that predate workspace folders name the root so
	if u := params.RootURI; u != nil && u.IsFile() {
		return u.FsPath(), true
	}
	//lint:ignore SA1019 and the oldest ones so
	if p, ok := params.RootPath.Get(); ok && p != "" {
		return p, true
	}
	return "", false
}

// commands are the commands the server executes, by the action each
// runs.
var commands = map[editor.ActionName]string{
	editor.ActionStart:    "taskmd.start",
	editor.ActionComplete: "taskmd.complete",
	editor.ActionBlock:    "taskmd.block",
	editor.ActionUnblock:  "taskmd.unblock",
	editor.ActionReopen:   "taskmd.reopen",
	editor.ActionAddTask:  "taskmd.addTask",
	editor.ActionArchive:  "taskmd.archive",
}

func capabilities(enc protocol.PositionEncodingKind) protocol.ServerCapabilities {
	yes := true
	change := protocol.TextDocumentSyncKindIncremental
	names := make([]string, 0, len(commands))
	for _, name := range commands {
		names = append(names, name)
	}
	slices.Sort(names)
	return protocol.ServerCapabilities{
		PositionEncoding: enc,
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: &yes,
			Change:    &change,
			Save:      &protocol.SaveOptions{},
		},
		DocumentSymbolProvider:  protocol.Boolean(true),
		WorkspaceSymbolProvider: protocol.Boolean(true),
		HoverProvider:           protocol.Boolean(true),
		DefinitionProvider:      protocol.Boolean(true),
		CompletionProvider:      &protocol.CompletionOptions{TriggerCharacters: []string{"/", "#", ":", " "}},
		// Changes of a task rewrite it; archive works on the whole list.
		CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{
			protocol.CodeActionKindRefactorRewrite, protocol.CodeActionKindSource,
		}},
		ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: names},
	}
}

// Initialized needs nothing: the server is ready once initialize returns.
func (s *server) Initialized(context.Context, *protocol.InitializedParams) error { return nil }

// Shutdown stops the background work; the connection stays until exit.
func (s *server) Shutdown(context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.stop()
	return nil
}

// Exit ends serve.
func (s *server) Exit(context.Context) error {
	s.exitOnce.Do(func() { close(s.exit) })
	return nil
}

// documentURI is the URI of the document at path: the editor's own for
// an open document, else the file's.
func (s *server) documentURI(path string) uri.URI {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.uris[path]; ok {
		return u
	}
	return fileURI(s.root, path)
}
