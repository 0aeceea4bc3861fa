package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/uri"

	"github.com/taskmd/taskmd/taskdoc"
)

// serveEnv, set in a process started from the test binary, makes it the
// server: the tests drive the real program over its stdin and stdout.
const serveEnv = "TASKMD_LSP_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// fixedNow is the server's clock in the tests (-now), so that they know
// the date a completion writes.
const fixedNow = "2026-03-14T15:09:26Z"

// awkward is a task document with what trips position arithmetic: YAML
// front matter, a setext heading, CRLF line ends, emoji (two UTF-16 code
// units, four bytes) and CJK (one unit, three bytes) before and inside
// task titles. Two tasks share a title, and one has an unknown status.
const awkward = "---\r\n" +
	"title: 認証 🔐\r\n" +
	"tags: [api]\r\n" +
	"---\r\n" +
	"Auth 🔐 認証\r\n" +
	"===========\r\n" +
	"\r\n" +
	"Intro with 😀 and 漢字.\r\n" +
	"\r\n" +
	"## Tasks\r\n" +
	"\r\n" +
	"### 🚀 Launch 火箭 sign-off\r\n" +
	"\r\n" +
	"- Status: pending\r\n" +
	"\r\n" +
	"Check 😀 the 🧪 results against @/other.md.\r\n" +
	"\r\n" +
	"### Review 🧪 テスト\r\n" +
	"\r\n" +
	"- Status: bogus\r\n" +
	"\r\n" +
	"### Review 🧪 テスト\r\n" +
	"\r\n" +
	"+ Status: pending\r\n"

const other = "# Other\n\n## Tasks\n\n### Write the spec\n\n- Status: pending\n"

// workspaceDir makes a workspace holding docs/x.md (awkward) and
// docs/other.md.
func workspaceDir(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "x.md"), []byte(awkward), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "other.md"), []byte(other), 0o644))
	return root
}

// syncBuffer collects the server's stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// process is the server running as a program of its own.
type process struct {
	cmd    *exec.Cmd
	client *rpcClient
	stderr *syncBuffer
}

// startProcess starts the server (this test binary, switched to main by
// serveEnv) with args.
func startProcess(t *testing.T, args ...string) *process {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), serveEnv+"=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	p := &process{cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	require.NoError(t, cmd.Start())
	p.client = newRPCClient(t, stdout, stdin)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-p.client.done
			cmd.Wait()
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", p.stderr)
		}
	})
	return p
}

// wait waits for the process to end after exit and returns its exit code.
func (p *process) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.client.done:
	case <-time.After(waitTimeout):
		t.Fatal("the server did not close its stdout after exit")
	}
	errc := make(chan error, 1)
	go func() { errc <- p.cmd.Wait() }()
	select {
	case <-errc:
	case <-time.After(waitTimeout):
		t.Fatal("the server did not exit")
	}
	return p.cmd.ProcessState.ExitCode()
}

// editorSession is one document open in a test editor: its text, version
// and the position encoding agreed on.
type editorSession struct {
	t       testing.TB
	c       *rpcClient
	root    string
	enc     string
	uri     string
	text    string
	version int
}

type initializeResult struct {
	Capabilities struct {
		PositionEncoding string `json:"positionEncoding"`
		TextDocumentSync struct {
			OpenClose bool `json:"openClose"`
			Change    int  `json:"change"`
		} `json:"textDocumentSync"`
		CompletionProvider struct {
			TriggerCharacters []string `json:"triggerCharacters"`
		} `json:"completionProvider"`
		ExecuteCommandProvider struct {
			Commands []string `json:"commands"`
		} `json:"executeCommandProvider"`
	} `json:"capabilities"`
	ServerInfo struct {
		Name string `json:"name"`
	} `json:"serverInfo"`
}

// initialize initializes the server on root, offering encodings, and
// returns the encoding it chose.
func initialize(t testing.TB, c *rpcClient, root string, encodings []string) initializeResult {
	t.Helper()
	rootURI := string(uri.File(root))
	var res initializeResult
	require.NoError(t, c.call("initialize", map[string]any{
		"processId": nil,
		"rootUri":   rootURI,
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": encodings},
			"workspace": map[string]any{
				"applyEdit":     true,
				"workspaceEdit": map[string]any{"documentChanges": true},
			},
		},
		"workspaceFolders": []map[string]any{{"uri": rootURI, "name": filepath.Base(root)}},
	}, &res))
	c.notify("initialized", map[string]any{})
	return res
}

func (s *editorSession) open(path, text string) {
	s.uri = string(uri.File(filepath.Join(s.root, filepath.FromSlash(path))))
	s.text, s.version = text, 1
	s.c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": s.uri, "languageId": "markdown", "version": s.version, "text": s.text,
	}})
}

// change applies edits to the buffer and tells the server, as an editor
// does after applying an edit.
func (s *editorSession) change(edits []textEdit) {
	s.text = applyEdits(s.text, edits, s.enc)
	s.version++
	s.c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": s.uri, "version": s.version},
		"contentChanges": contentChanges(edits),
	})
}

// diagnostics waits for the diagnostics of the buffer's current version.
func (s *editorSession) diagnostics() []diagnostic {
	s.t.Helper()
	params, _ := s.c.await("textDocument/publishDiagnostics", 0, func(p json.RawMessage) bool {
		var d publishDiagnostics
		return json.Unmarshal(p, &d) == nil && d.URI == s.uri && d.Version != nil && *d.Version == s.version
	})
	var d publishDiagnostics
	require.NoError(s.t, json.Unmarshal(params, &d))
	return d.Diagnostics
}

// at is the position of the first occurrence of what in the buffer.
func (s *editorSession) at(what string) position {
	s.t.Helper()
	i := strings.Index(s.text, what)
	require.GreaterOrEqual(s.t, i, 0, "%q is not in the buffer", what)
	return positionOf(s.text, i, s.enc)
}

func (s *editorSession) codeActions(at position) []codeAction {
	s.t.Helper()
	var actions []codeAction
	require.NoError(s.t, s.c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": s.uri},
		"range":        lspRange{Start: at, End: at},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions))
	return actions
}

func findAction(actions []codeAction, prefix string) (codeAction, bool) {
	for _, a := range actions {
		if strings.HasPrefix(a.Title, prefix) {
			return a, true
		}
	}
	return codeAction{}, false
}

// smallEdits checks that edits change a few bytes, not the document.
func smallEdits(t *testing.T, text string, edits []textEdit, enc string) {
	t.Helper()
	require.NotEmpty(t, edits)
	replaced, inserted := 0, 0
	for _, e := range edits {
		replaced += len(slice(text, e.Range, enc))
		inserted += len(e.NewText)
	}
	assert.Less(t, replaced, 64, "the edits replace %d bytes of a %d-byte document", replaced, len(text))
	assert.Less(t, inserted, 128, "the edits insert %d bytes", inserted)
}

// The server, run as a program, serves an editor that speaks UTF-16 and
// one that speaks UTF-8 on a document whose positions differ in the two:
// diagnostics, symbols, a code action's edit, a command's applyEdit and a
// change on disk all land on exactly the bytes the library's own edit
// makes.
func TestServerProcess(t *testing.T) {
	for _, tc := range []struct {
		offer []string
		want  string
	}{
		{[]string{"utf-16"}, "utf-16"},
		{[]string{"utf-8", "utf-16"}, "utf-8"},
		{nil, "utf-16"},
	} {
		t.Run(strings.Join(tc.offer, ",")+"→"+tc.want, func(t *testing.T) {
			root := workspaceDir(t)
			p := startProcess(t, "-now", fixedNow)
			res := initialize(t, p.client, root, tc.offer)
			assert.Equal(t, tc.want, res.Capabilities.PositionEncoding)
			assert.Equal(t, 2, res.Capabilities.TextDocumentSync.Change, "incremental sync")
			assert.True(t, res.Capabilities.TextDocumentSync.OpenClose)
			assert.ElementsMatch(t, []string{"/", "#", ":", " "}, res.Capabilities.CompletionProvider.TriggerCharacters)
			assert.Subset(t, res.Capabilities.ExecuteCommandProvider.Commands, []string{
				"taskmd.start", "taskmd.complete", "taskmd.block", "taskmd.unblock", "taskmd.reopen", "taskmd.addTask", "taskmd.archive"})

			s := &editorSession{t: t, c: p.client, root: root, enc: tc.want}
			s.open("docs/x.md", awkward)
			checkDiagnostics(t, s)
			checkSymbols(t, s)
			checkStart(t, s)
			checkComplete(t, s)
			checkDiskChange(t, s)

			require.NoError(t, p.client.call("shutdown", nil, nil))
			p.client.notify("exit", nil)
			assert.Equal(t, 0, p.wait(t), "exit code after shutdown and exit")
		})
	}
}

// checkDiagnostics: the planted problems come with taskmd's codes, at the
// text they are about.
func checkDiagnostics(t *testing.T, s *editorSession) {
	diags := s.diagnostics()
	require.NotEmpty(t, diags)
	codes := map[string]diagnostic{}
	for _, d := range diags {
		assert.Equal(t, "taskmd", d.Source)
		assert.NotEmpty(t, d.Code)
		assert.NotEmpty(t, d.Message)
		codes[d.Code] = d
	}
	t.Logf("diagnostics: %v", slices.Sorted(maps.Keys(codes)))
	if d, ok := codes[string(taskdoc.CodeDuplicateTask)]; assert.True(t, ok, "a duplicate slug diagnostic") {
		assert.Contains(t, slice(s.text, d.Range, s.enc), "Review 🧪 テスト")
		if assert.NotEmpty(t, d.RelatedInformation, "the other task with the slug") {
			rel := d.RelatedInformation[0].Location
			assert.Equal(t, s.uri, rel.URI)
			assert.Contains(t, slice(s.text, rel.Range, s.enc), "Review 🧪 テスト")
		}
	}
	if d, ok := codes[string(taskdoc.CodeUnknownStatus)]; assert.True(t, ok, "an unknown status diagnostic") {
		assert.Contains(t, slice(s.text, d.Range, s.enc), "bogus")
	}
}

// checkSymbols: the outline is the Tasks section with its tasks, each
// with its status, their ranges on their headings.
func checkSymbols(t *testing.T, s *editorSession) {
	var symbols []documentSymbol
	require.NoError(t, s.c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, &symbols))
	require.Len(t, symbols, 1)
	tasks := symbols[0]
	assert.Equal(t, "Tasks", tasks.Name)
	require.Len(t, tasks.Children, 3)
	for i, want := range []struct{ title, status string }{
		{"🚀 Launch 火箭 sign-off", "pending"}, {"Review 🧪 テスト", "bogus"}, {"Review 🧪 テスト", "pending"},
	} {
		child := tasks.Children[i]
		assert.Equal(t, want.title, child.Name)
		assert.Equal(t, want.status, child.Detail)
		assert.Contains(t, slice(s.text, child.SelectionRange, s.enc), want.title)
		assert.True(t, strings.HasPrefix(slice(s.text, child.Range, s.enc), "### "+want.title))
	}
}

const launchSlug = "-launch-火箭-sign-off"

// checkStart: the start action's edit, applied by the editor's own
// arithmetic, gives exactly the library's SetStatus, in a few bytes.
func checkStart(t *testing.T, s *editorSession) {
	actions := s.codeActions(s.at("Launch"))
	start, ok := findAction(actions, "Start")
	require.True(t, ok, "a start action in %+v", actions)
	require.NotNil(t, start.Edit)
	require.Len(t, start.Edit.DocumentChanges, 1)
	change := start.Edit.DocumentChanges[0]
	assert.Equal(t, s.uri, change.TextDocument.URI)
	require.NotNil(t, change.TextDocument.Version)
	assert.Equal(t, s.version, *change.TextDocument.Version)
	smallEdits(t, s.text, change.Edits, s.enc)

	doc, err := taskdoc.Parse([]byte(s.text))
	require.NoError(t, err)
	want, _, err := doc.SetStatus(launchSlug, taskdoc.StatusInProgress)
	require.NoError(t, err)
	s.change(change.Edits)
	require.Equal(t, string(want.Source), s.text)
	s.diagnostics()
}

// checkComplete: the complete action is a command the editor calls with
// the note; the server answers with an applyEdit that gives exactly the
// library's completion; without a note the command is refused.
func checkComplete(t *testing.T, s *editorSession) {
	actions := s.codeActions(s.at("Launch"))
	complete, ok := findAction(actions, "Complete")
	require.True(t, ok, "a complete action in %+v", actions)
	assert.Nil(t, complete.Edit)
	require.NotNil(t, complete.Command)
	assert.Equal(t, "taskmd.complete", complete.Command.Command)
	require.Len(t, complete.Command.Arguments, 1)
	arg := complete.Command.Arguments[0]
	assert.Equal(t, s.uri, arg["uri"])
	assert.Equal(t, launchSlug, arg["slug"])
	assert.EqualValues(t, s.version, arg["version"])

	err := s.c.call("workspace/executeCommand", map[string]any{"command": "taskmd.complete", "arguments": []any{arg}}, nil)
	var werr *wireError
	require.ErrorAs(t, err, &werr)
	assert.Equal(t, -32602, werr.Code)
	assert.Contains(t, werr.Message, "note")

	const note = "Shipped 🚀 on time, 火箭 ok"
	doc, err := taskdoc.Parse([]byte(s.text))
	require.NoError(t, err)
	now, _ := time.Parse(time.RFC3339, fixedNow)
	want, _, err := doc.Complete(launchSlug, note, now.UTC())
	require.NoError(t, err)

	applied := make(chan workspaceEdit, 1)
	s.c.handle("workspace/applyEdit", func(params json.RawMessage) (any, *wireError) {
		var p struct {
			Edit workspaceEdit `json:"edit"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &wireError{Code: -32602, Message: err.Error()}
		}
		applied <- p.Edit
		return map[string]any{"applied": true}, nil
	})
	arg["note"] = note
	require.NoError(t, s.c.call("workspace/executeCommand", map[string]any{"command": "taskmd.complete", "arguments": []any{arg}}, nil))
	var edit workspaceEdit
	select {
	case edit = <-applied:
	default:
		t.Fatal("executeCommand returned before the server's applyEdit")
	}
	require.Len(t, edit.DocumentChanges, 1)
	change := edit.DocumentChanges[0]
	assert.Equal(t, s.uri, change.TextDocument.URI)
	require.NotNil(t, change.TextDocument.Version)
	assert.Equal(t, s.version, *change.TextDocument.Version)
	smallEdits(t, s.text, change.Edits, s.enc)
	s.change(change.Edits)
	require.Equal(t, string(want.Source), s.text)
	s.diagnostics()
}

// checkDiskChange: once the buffer is saved, a file written by another
// process arrives as an applyEdit that makes the buffer the file.
func checkDiskChange(t *testing.T, s *editorSession) {
	name := filepath.Join(s.root, "docs", "x.md")
	writeAtomically(t, name, []byte(s.text))
	s.c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": s.uri}})

	applied := make(chan workspaceEdit, 1)
	s.c.handle("workspace/applyEdit", func(params json.RawMessage) (any, *wireError) {
		var p struct {
			Edit workspaceEdit `json:"edit"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &wireError{Code: -32602, Message: err.Error()}
		}
		applied <- p.Edit
		return map[string]any{"applied": true}, nil
	})
	doc, err := taskdoc.Parse([]byte(s.text))
	require.NoError(t, err)
	agent, _, err := doc.SetField(launchSlug, "Reviewed-By", "agent 🤖")
	require.NoError(t, err)
	writeAtomically(t, name, agent.Source)

	var edit workspaceEdit
	select {
	case edit = <-applied:
	case <-time.After(waitTimeout):
		t.Fatal("no applyEdit after the file changed on disk")
	}
	require.Len(t, edit.DocumentChanges, 1)
	change := edit.DocumentChanges[0]
	require.NotNil(t, change.TextDocument.Version)
	assert.Equal(t, s.version, *change.TextDocument.Version)
	smallEdits(t, s.text, change.Edits, s.enc)
	s.change(change.Edits)
	require.Equal(t, string(agent.Source), s.text)
}

// writeAtomically writes a file as the library and editors do: a
// temporary file renamed over it, so that no one reads half of it.
func writeAtomically(t *testing.T, name string, data []byte) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(name), ".tmp-"+filepath.Base(name))
	require.NoError(t, os.WriteFile(tmp, data, 0o644))
	require.NoError(t, os.Rename(tmp, name))
}
