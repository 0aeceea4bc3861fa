package main

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
)

// needs names, by action, what a command needs from the user besides
// the uri (and the slug, which the Session asks for where a task needs
// one: everywhere but the coordinator's list and addTask).
var needs = map[editor.ActionName]string{
	editor.ActionComplete: "note",
	editor.ActionAddTask:  "title",
}

// ExecuteCommand carries out a taskmd command: the Session computes the
// edit, and the editor applies it to its buffer (workspace/applyEdit),
// versioned so that it refuses an edit of a buffer that has changed since.
// taskmd.archive moves the finished coordinator list on disk.
func (s *server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	name, ok := actionOf(params.Command)
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", params.Command)
	}
	session, root := s.state()
	if name == editor.ActionArchive {
		return s.archive(ctx, session)
	}
	req, err := request(root, name, params)
	if err != nil {
		return nil, err
	}
	edit, err := session.Apply(ctx, req)
	if err != nil {
		return nil, responseError(err)
	}
	if len(edit.Edits) == 0 {
		return nil, nil
	}
	label := params.Command
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *s.versionedEdit(edit.Path, edit.Version, edit.Open, edit.Edits)})
	if err != nil {
		return nil, jsonrpc2.Errorf(requestFailed, "%s: workspace/applyEdit: %v", params.Command, err)
	}
	if !res.Applied {
		why := ""
		if res.FailureReason != nil {
			why = ": " + *res.FailureReason
		}
		return nil, codedError(requestFailed, taskdoc.CodeConflict,
			fmt.Sprintf("the editor did not apply the edit of %s (version %d)%s", edit.Path, edit.Version, why))
	}
	return nil, nil
}

// request reads a command's argument into the Session's request, and
// refuses one without what the command needs (InvalidParams, saying what
// is missing).
func request(root string, name editor.ActionName, params *protocol.ExecuteCommandParams) (editor.ActionRequest, error) {
	cmd := params.Command
	shape := `{"uri", "slug", "version"`
	if n := needs[name]; n != "" {
		shape += `, "` + n + `"`
	}
	shape += "}"
	if len(params.Arguments) == 0 {
		return editor.ActionRequest{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s needs one argument %s", cmd, shape)
	}
	var args commandArgs
	if err := json.Unmarshal(params.Arguments[0], &args); err != nil {
		return editor.ActionRequest{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: the argument is not %s: %v", cmd, shape, err)
	}
	missing := func(what string) error {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s needs %q in its argument %s", cmd, what, shape)
	}
	switch {
	case args.URI == "":
		return editor.ActionRequest{}, missing("uri")
	case needs[name] == "note" && args.Note == "":
		return editor.ActionRequest{}, missing("note")
	case needs[name] == "title" && args.Title == "":
		return editor.ActionRequest{}, missing("title")
	}
	path, ok := workspacePath(root, uri.URI(args.URI))
	if !ok {
		return editor.ActionRequest{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is not a file of the workspace %s", cmd, args.URI, root)
	}
	req := editor.ActionRequest{Name: name, Path: path, Slug: args.Slug, Note: args.Note, Reason: args.Reason, Title: args.Title}
	if args.Version != nil {
		req.Version, req.CheckVersion = *args.Version, true
	}
	return req, nil
}

// archive moves the finished coordinator list to archived/coordinator/
// and tells the user where it went; the answer is {"archived": path}.
func (s *server) archive(ctx context.Context, session *editor.Session) (protocol.LSPAny, error) {
	archived, err := session.Archive(ctx)
	if err != nil {
		return nil, responseError(err)
	}
	msg := "taskmd: the finished coordinator list is archived as " + archived
	if err := s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: msg}); err != nil {
		s.log.Debug("showMessage", "error", err)
	}
	s.diagnostics.schedule()
	return json.Marshal(map[string]string{"archived": archived})
}

func actionOf(command string) (editor.ActionName, bool) {
	for name, c := range commands {
		if c == command {
			return name, true
		}
	}
	return "", false
}
