package main

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/uri"

	"github.com/taskmd/taskmd/editor"
)

// openSession initializes an in-process server on a fresh workspace and
// opens docs/x.md in it.
func openSession(t *testing.T, cfg config, encodings ...string) (*inProcess, *editorSession) {
	t.Helper()
	root := workspaceDir(t)
	p := startInProcess(t, cfg)
	res := initialize(t, p.client, root, encodings)
	s := &editorSession{t: t, c: p.client, root: root, enc: res.Capabilities.PositionEncoding}
	s.open("docs/x.md", awkward)
	return p, s
}

// sync returns once the server has handled every notification sent
// before: it handles them in order, before the next request.
func (s *editorSession) sync() {
	s.t.Helper()
	require.NoError(s.t, s.c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, nil))
}

func (s *editorSession) countPublished() int {
	n := 0
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	for _, m := range s.c.received {
		if m.Method == "textDocument/publishDiagnostics" {
			n++
		}
	}
	return n
}

// A burst of changes costs one publication of diagnostics, of the last
// version, once the editor has stopped for the debounce.
func TestDiagnosticsAreDebounced(t *testing.T) {
	timers := &manualTimers{}
	_, s := openSession(t, config{after: timers.after, noWatch: true})
	for range 3 {
		at := s.at("Intro")
		s.change([]textEdit{{Range: lspRange{Start: at, End: at}, NewText: "x"}})
	}
	s.sync()
	assert.Equal(t, 0, s.countPublished(), "nothing before the timer fires")
	assert.Equal(t, 1, timers.waiting(), "each change restarts the one timer")
	timers.fire()
	s.diagnostics()
	s.sync()
	assert.Equal(t, 1, s.countPublished())
	assert.Equal(t, 4, s.version)
}

// The diagnostics of a document change with what another document says:
// each change publishes again those of every open document whose
// diagnostics changed, and closing a document clears its diagnostics.
func TestDiagnosticsFollowOtherDocuments(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	s.diagnostics()
	dep := &editorSession{t: t, c: s.c, root: s.root, enc: s.enc}
	dep.open("docs/dep.md", "# Dep\n\n## Tasks\n\n### Wait\n\n- Status: pending\n- Depends-On: /other.md#write-the-spec\n")
	assert.Empty(t, dep.diagnostics())

	// other.md renames its task: the dependency no longer resolves.
	o := &editorSession{t: t, c: s.c, root: s.root, enc: s.enc}
	o.open("docs/other.md", other)
	from := o.count()
	o.change([]textEdit{{Range: lspRange{Start: o.at("Write"), End: o.at(" the spec")}, NewText: "Draft"}})
	params, _ := s.c.await("textDocument/publishDiagnostics", from, func(p json.RawMessage) bool {
		var d publishDiagnostics
		return json.Unmarshal(p, &d) == nil && d.URI == dep.uri && len(d.Diagnostics) > 0
	})
	var d publishDiagnostics
	require.NoError(t, json.Unmarshal(params, &d))
	assert.Equal(t, string(editor.CodeDependencyNotFound), d.Diagnostics[0].Code)
	assert.Equal(t, "/other.md#write-the-spec", slice(dep.text, d.Diagnostics[0].Range, dep.enc))

	from = s.c.count()
	s.c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": dep.uri}})
	s.c.await("textDocument/publishDiagnostics", from, func(p json.RawMessage) bool {
		var d publishDiagnostics
		return json.Unmarshal(p, &d) == nil && d.URI == dep.uri && len(d.Diagnostics) == 0
	})
}

func (s *editorSession) count() int { return s.c.count() }

// A change without a range is the whole text.
func TestWholeTextChange(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	s.version++
	s.text = "# X\n\n## Tasks\n\n### Only one\n\n- Status: blocked\n"
	s.c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": s.uri, "version": s.version},
		"contentChanges": []contentChange{{Text: s.text}},
	})
	assert.Empty(t, s.diagnostics())
	var symbols []documentSymbol
	require.NoError(t, s.c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, &symbols))
	require.Len(t, symbols, 1)
	require.Len(t, symbols[0].Children, 1)
	assert.Equal(t, "Only one", symbols[0].Children[0].Name)
	assert.Equal(t, "blocked", symbols[0].Children[0].Detail)
}

// Tasks are found across the workspace, each at its heading.
func TestWorkspaceSymbols(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	var symbols []struct {
		Name          string `json:"name"`
		ContainerName string `json:"containerName"`
		Location      struct {
			URI   string   `json:"uri"`
			Range lspRange `json:"range"`
		} `json:"location"`
	}
	require.NoError(t, s.c.call("workspace/symbol", map[string]any{"query": "launch"}, &symbols))
	require.NotEmpty(t, symbols)
	assert.Equal(t, "🚀 Launch 火箭 sign-off", symbols[0].Name)
	assert.Contains(t, symbols[0].ContainerName, "pending")
	assert.Contains(t, symbols[0].ContainerName, "/x.md#"+launchSlug)
	assert.Equal(t, s.uri, symbols[0].Location.URI)
	assert.Contains(t, slice(s.text, symbols[0].Location.Range, s.enc), "Launch")
}

// A document outside the workspace is passed over, not an error.
func TestOutsideTheWorkspace(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	elsewhere := string(uri.File(filepath.Join(t.TempDir(), "notes.md")))
	s.c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": elsewhere, "languageId": "markdown", "version": 1, "text": awkward,
	}})
	var actions []codeAction
	require.NoError(t, s.c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": elsewhere},
		"range":        lspRange{},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions))
	assert.Empty(t, actions)
	var hover json.RawMessage
	require.NoError(t, s.c.call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": elsewhere}, "position": position{},
	}, &hover))
	assert.Equal(t, "null", string(hover))
	s.diagnostics() // of x.md; none of notes.md
	s.sync()
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	for _, m := range s.c.received {
		assert.NotContains(t, string(m.Params), "notes.md")
	}
}

// The lifecycle: nothing before initialize, one initialize, nothing but
// exit after shutdown; exit without shutdown is exit code 1.
func TestLifecycle(t *testing.T) {
	root := workspaceDir(t)
	p := startInProcess(t, config{noWatch: true})
	var werr *wireError
	err := p.client.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///x.md"}, "position": position{}}, nil)
	require.ErrorAs(t, err, &werr)
	assert.Equal(t, -32002, werr.Code, "server not initialized")

	initialize(t, p.client, root, nil)
	err = p.client.call("initialize", map[string]any{"processId": nil, "rootUri": string(uri.File(root)), "capabilities": map[string]any{}}, nil)
	require.ErrorAs(t, err, &werr)
	assert.Equal(t, -32600, werr.Code, "a second initialize")

	require.NoError(t, p.client.call("shutdown", nil, nil))
	err = p.client.call("workspace/symbol", map[string]any{"query": ""}, nil)
	require.ErrorAs(t, err, &werr)
	assert.Equal(t, -32600, werr.Code, "a request after shutdown")
	p.client.notify("exit", nil)
	assert.Equal(t, 0, p.exitCode(t))

	q := startInProcess(t, config{noWatch: true})
	initialize(t, q.client, root, nil)
	q.client.notify("exit", nil)
	assert.Equal(t, 1, q.exitCode(t), "exit without shutdown")
}

// initialize without a folder is refused with a reason, and may be sent
// again.
func TestInitializeWithoutAFolder(t *testing.T) {
	p := startInProcess(t, config{noWatch: true})
	var werr *wireError
	err := p.client.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, nil)
	require.ErrorAs(t, err, &werr)
	assert.Equal(t, -32602, werr.Code)
	assert.Contains(t, werr.Message, "workspace folder")
	res := initialize(t, p.client, workspaceDir(t), nil) // and again, with one
	assert.Equal(t, "utf-16", res.Capabilities.PositionEncoding)
}

// A command's argument must say what the command needs; a failure names
// its taskmd code in the message and in the error's data.
func TestCommandErrors(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	for _, tc := range []struct {
		name    string
		command string
		args    []any
		code    int
		message string
		data    string
	}{
		{"no argument", "taskmd.complete", nil, -32602, `taskmd.complete needs one argument {"uri", "slug", "version", "note"}`, ""},
		{"no uri", "taskmd.start", []any{map[string]any{"slug": launchSlug}}, -32602, `needs "uri"`, ""},
		{"no slug", "taskmd.start", []any{map[string]any{"uri": s.uri}}, -32602, "SUBAGENT_REQUIRES_SLUG: no task slug", "SUBAGENT_REQUIRES_SLUG"},
		{"a control character", "taskmd.complete", []any{map[string]any{"uri": s.uri, "slug": launchSlug, "note": "a\x00b"}}, -32602, "CONTROL_CHARACTER: ", "CONTROL_CHARACTER"},
		{"reopening a pending task", "taskmd.reopen", []any{map[string]any{"uri": s.uri, "slug": launchSlug}}, -32803, "INVALID_TRANSITION: ", "INVALID_TRANSITION"},
		{"no note", "taskmd.complete", []any{map[string]any{"uri": s.uri, "slug": launchSlug}}, -32602, `needs "note"`, ""},
		{"no title", "taskmd.addTask", []any{map[string]any{"uri": s.uri, "slug": launchSlug}}, -32602, `needs "title"`, ""},
		{"not an object", "taskmd.start", []any{"x"}, -32602, "the argument is not", ""},
		{"unknown command", "taskmd.frobnicate", nil, -32602, "unknown command", ""},
		{"outside the workspace", "taskmd.start", []any{map[string]any{"uri": "file:///elsewhere/x.md", "slug": "a"}}, -32602, "not a file of the workspace", ""},
		{"no such task", "taskmd.start", []any{map[string]any{"uri": s.uri, "slug": "nope"}}, -32803, "TASK_NOT_FOUND: ", "TASK_NOT_FOUND"},
		{"a stale version", "taskmd.start", []any{map[string]any{"uri": s.uri, "slug": launchSlug, "version": 99}}, -32803, "CONFLICT: ", "CONFLICT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.c.call("workspace/executeCommand", map[string]any{"command": tc.command, "arguments": tc.args}, nil)
			var werr *wireError
			require.ErrorAs(t, err, &werr)
			assert.Equal(t, tc.code, werr.Code)
			assert.Contains(t, werr.Message, tc.message)
			if tc.data != "" {
				assert.JSONEq(t, `{"code":"`+tc.data+`"}`, string(werr.Data))
			}
		})
	}
}

// An editor that refuses the command's edit gets CONFLICT back.
func TestCommandEditRefused(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	s.c.handle("workspace/applyEdit", func(json.RawMessage) (any, *wireError) {
		return map[string]any{"applied": false, "failureReason": "the buffer changed"}, nil
	})
	err := s.c.call("workspace/executeCommand", map[string]any{"command": "taskmd.start",
		"arguments": []any{map[string]any{"uri": s.uri, "slug": launchSlug, "version": 1}}}, nil)
	var werr *wireError
	require.ErrorAs(t, err, &werr)
	assert.Equal(t, -32803, werr.Code)
	assert.True(t, strings.HasPrefix(werr.Message, "CONFLICT: "), werr.Message)
	assert.Contains(t, werr.Message, "the buffer changed")
}

// A file changed on disk under a buffer with unsaved changes is a
// conflict: a diagnostic, and no edit of the buffer.
func TestDiskChangeUnderUnsavedChanges(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	s.diagnostics()
	at := s.at("Intro")
	s.change([]textEdit{{Range: lspRange{Start: at, End: at}, NewText: "Unsaved. "}})
	s.diagnostics()
	s.c.handle("workspace/applyEdit", func(json.RawMessage) (any, *wireError) {
		t.Error("an edit of a buffer with unsaved changes")
		return map[string]any{"applied": false}, nil
	})
	name := filepath.Join(s.root, "docs", "x.md")
	require.NoError(t, os.WriteFile(name, []byte(strings.Replace(awkward, "pending", "blocked", 1)), 0o644))
	from := s.c.count()
	s.c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": s.uri, "type": 2}}})
	s.c.await("textDocument/publishDiagnostics", from, func(p json.RawMessage) bool {
		var d publishDiagnostics
		if json.Unmarshal(p, &d) != nil || d.URI != s.uri {
			return false
		}
		for _, diag := range d.Diagnostics {
			if diag.Code == string(editor.CodeBufferDiffersFromDisk) {
				return true
			}
		}
		return false
	})
}

// workspace/didChangeWatchedFiles alone brings a clean buffer to its file.
func TestDidChangeWatchedFiles(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	applied := make(chan workspaceEdit, 1)
	s.c.handle("workspace/applyEdit", func(params json.RawMessage) (any, *wireError) {
		var p struct {
			Edit workspaceEdit `json:"edit"`
		}
		require.NoError(t, json.Unmarshal(params, &p))
		applied <- p.Edit
		return map[string]any{"applied": true}, nil
	})
	s.sync() // the buffer is open, and agrees with its file
	changed := strings.Replace(awkward, "- Status: pending\r\n\r\nCheck", "- Status: blocked\r\n\r\nCheck", 1)
	require.NoError(t, os.WriteFile(filepath.Join(s.root, "docs", "x.md"), []byte(changed), 0o644))
	s.c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": s.uri, "type": 2}}})
	select {
	case edit := <-applied:
		require.Len(t, edit.DocumentChanges, 1)
		s.change(edit.DocumentChanges[0].Edits)
		assert.Equal(t, changed, s.text)
	case <-time.After(waitTimeout):
		t.Fatal("no applyEdit")
	}
}

// The watch sees files written in folders made after it started, and
// passes over lock files, temporary files and other folders.
func TestWatch(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	got := make(chan string, 16)
	w, err := watch(root, func(path string) { got <- path }, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer w.close()

	write := func(name string) {
		t.Helper()
		full := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte("# x\n"), 0o644))
	}
	expect := func(want string) {
		t.Helper()
		for {
			select {
			case path := <-got:
				if path == want {
					return
				}
				assert.True(t, watched(path), "reported %s", path)
			case <-time.After(waitTimeout):
				t.Fatalf("%s was not reported", want)
			}
		}
	}
	write("docs/a/b/c.md")
	expect("docs/a/b/c.md")
	write("coordinator/active.md")
	expect("coordinator/active.md")
	write("docs/a/b/c.md")
	expect("docs/a/b/c.md")
	write("notes/x.md")
	write(".taskmd/locks/docs%2Fa.md.lock")
	write("docs/.tmp-0123")
	write("docs/a/d.md")
	expect("docs/a/d.md")
}

func TestWatched(t *testing.T) {
	for path, want := range map[string]bool{
		"docs/a.md":                      true,
		"docs/a/b.md":                    true,
		"coordinator/active.md":          true,
		"workflows/tdd.md":               true,
		".taskmd/claims/x":               true,
		".taskmd/locks/docs%2Fa.md.lock": false,
		"docs/.tmp-abc":                  false,
		"docs/a.txt":                     false,
		"archived/coordinator/x.md":      false,
		"README.md":                      false,
	} {
		assert.Equal(t, want, watched(path), path)
	}
}

// A change that does not fit the buffer leaves it as it was, and the
// editor is told to open the document again.
func TestChangeOutOfStep(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	from := s.c.count()
	s.c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": s.uri, "version": 2},
		"contentChanges": []contentChange{{Range: &lspRange{Start: position{Line: 3, Character: 5}, End: position{Line: 1, Character: 0}}, Text: "x"}},
	})
	params, _ := s.c.await("window/showMessage", from, nil)
	assert.Contains(t, string(params), "docs/x.md is out of step")
	var symbols []documentSymbol
	require.NoError(t, s.c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, &symbols))
	require.Len(t, symbols, 1)
	assert.Len(t, symbols[0].Children, 3, "the buffer as it was")
}

// A buffer opened at version 0, as Neovim opens them, gets edits for
// version 0, not for its file.
func TestVersionZero(t *testing.T) {
	root := workspaceDir(t)
	p := startInProcess(t, config{debounce: -1, noWatch: true})
	initialize(t, p.client, root, nil)
	s := &editorSession{t: t, c: p.client, root: root, enc: "utf-16", text: awkward,
		uri: string(uri.File(filepath.Join(root, "docs", "x.md")))}
	s.c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": s.uri, "languageId": "markdown", "version": 0, "text": s.text,
	}})
	start, ok := findAction(s.codeActions(s.at("Launch")), "Start")
	require.True(t, ok)
	require.NotNil(t, start.Edit)
	version := start.Edit.DocumentChanges[0].TextDocument.Version
	require.NotNil(t, version, "versioned: the document is open")
	assert.Equal(t, 0, *version)
}

// A document closed and opened again before the diagnostics go out keeps
// them: no clearing after the reopening.
func TestReopenBeforeThePublication(t *testing.T) {
	timers := &manualTimers{}
	_, s := openSession(t, config{after: timers.after, noWatch: true})
	s.sync()
	timers.fire()
	first := s.diagnostics()
	require.NotEmpty(t, first)
	s.c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": s.uri}})
	from := s.c.count()
	s.open("docs/x.md", awkward)
	s.sync()
	timers.fire()
	params, _ := s.c.await("textDocument/publishDiagnostics", from, nil)
	var d publishDiagnostics
	require.NoError(t, json.Unmarshal(params, &d))
	assert.Equal(t, s.uri, d.URI)
	assert.Len(t, d.Diagnostics, len(first), "the diagnostics, not a clearing")
}
