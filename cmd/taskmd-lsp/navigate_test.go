package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.lsp.dev/uri"

	"github.com/taskmd/taskmd/taskdoc"
)

func (s *editorSession) textDocumentPosition(at position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": s.uri}, "position": at}
}

// Hover over a task heading shows the task in Markdown, over the heading.
func TestHover(t *testing.T) {
	for _, enc := range []string{"utf-16", "utf-8"} {
		t.Run(enc, func(t *testing.T) {
			_, s := openSession(t, config{debounce: -1, noWatch: true}, enc)
			var hover struct {
				Contents struct {
					Kind  string `json:"kind"`
					Value string `json:"value"`
				} `json:"contents"`
				Range lspRange `json:"range"`
			}
			require.NoError(t, s.c.call("textDocument/hover", s.textDocumentPosition(s.at("Launch")), &hover))
			assert.Equal(t, "markdown", hover.Contents.Kind)
			assert.Contains(t, hover.Contents.Value, "pending")
			assert.Contains(t, hover.Contents.Value, "/x.md#"+launchSlug)
			assert.Equal(t, "### 🚀 Launch 火箭 sign-off", slice(s.text, hover.Range, s.enc))

			var nothing json.RawMessage
			require.NoError(t, s.c.call("textDocument/hover", s.textDocumentPosition(s.at("Intro")), &nothing))
			assert.Equal(t, "null", string(nothing), "nothing to show outside the tasks")
		})
	}
}

// Definition goes from a reference to the document it names.
func TestDefinition(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	var locations []struct {
		URI   string   `json:"uri"`
		Range lspRange `json:"range"`
	}
	require.NoError(t, s.c.call("textDocument/definition", s.textDocumentPosition(s.at("other.md.")), &locations))
	require.Len(t, locations, 1)
	assert.Equal(t, string(uri.File(filepath.Join(s.root, "docs", "other.md"))), locations[0].URI)
	assert.Equal(t, lspRange{}, locations[0].Range)
}

// Completion in a Status value offers the statuses, each replacing what
// is typed of the value.
func TestCompletion(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	at := s.at("pending\r\n\r\nCheck")
	at.Character += 2 // "pe|nding"
	var list struct {
		IsIncomplete bool `json:"isIncomplete"`
		Items        []struct {
			Label    string   `json:"label"`
			Kind     int      `json:"kind"`
			TextEdit textEdit `json:"textEdit"`
		} `json:"items"`
	}
	require.NoError(t, s.c.call("textDocument/completion", s.textDocumentPosition(at), &list))
	var labels []string
	for _, item := range list.Items {
		labels = append(labels, item.Label)
		assert.Equal(t, 20, item.Kind, "an enum member")
		assert.Equal(t, "pe", slice(s.text, item.TextEdit.Range, s.enc), "the typed part")
		if item.Label == "in_progress" {
			assert.Contains(t, applyEdits(s.text, []textEdit{item.TextEdit}, s.enc), "- Status: in_progressnding\r\n")
		}
	}
	assert.Subset(t, labels, []string{"pending", "in_progress", "blocked", "completed"})
}

// The actions of a task: its edits for the moves that need nothing, a
// command for complete; an editor may ask for some kinds only.
func TestCodeActionKinds(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	actions := s.codeActions(s.at("Launch"))
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
		assert.Equal(t, "refactor.rewrite", a.Kind)
		assert.True(t, (a.Edit == nil) != (a.Command == nil), "%s: an edit or a command", a.Title)
	}
	assert.Contains(t, titles, `Start "🚀 Launch 火箭 sign-off"`)
	assert.Contains(t, titles, `Block "🚀 Launch 火箭 sign-off"`)
	assert.Contains(t, titles, `Add a task after "🚀 Launch 火箭 sign-off"`)

	var only []codeAction
	require.NoError(t, s.c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": s.uri},
		"range":        lspRange{Start: s.at("Launch"), End: s.at("Launch")},
		"context":      map[string]any{"diagnostics": []any{}, "only": []string{"source"}},
	}, &only))
	assert.Empty(t, only)
}

// A command on a document that is not open edits its file: the edit's
// version is null.
func TestCommandOnADocumentNotOpen(t *testing.T) {
	_, s := openSession(t, config{debounce: -1, noWatch: true})
	otherURI := string(uri.File(filepath.Join(s.root, "docs", "other.md")))
	applied := make(chan workspaceEdit, 1)
	s.c.handle("workspace/applyEdit", func(params json.RawMessage) (any, *wireError) {
		var p struct {
			Edit workspaceEdit `json:"edit"`
		}
		require.NoError(t, json.Unmarshal(params, &p))
		applied <- p.Edit
		return map[string]any{"applied": true}, nil
	})
	require.NoError(t, s.c.call("workspace/executeCommand", map[string]any{"command": "taskmd.block",
		"arguments": []any{map[string]any{"uri": otherURI, "slug": "write-the-spec", "reason": "waiting for review"}}}, nil))
	edit := <-applied
	require.Len(t, edit.DocumentChanges, 1)
	change := edit.DocumentChanges[0]
	assert.Equal(t, otherURI, change.TextDocument.URI)
	assert.Nil(t, change.TextDocument.Version, "null: the file is the truth")
	got := applyEdits(other, change.Edits, s.enc)
	assert.Contains(t, got, "- Status: blocked\n")
	assert.Contains(t, got, "waiting for review")
}

// A finished coordinator list offers archive; the command moves the list
// and tells the user where it went.
func TestArchive(t *testing.T) {
	root := workspaceDir(t)
	list := "# Coordinator\n\n## Tasks\n\n### Plan\n\n- Status: completed\n- Main-Workflow: tdd\n- Completed: 2026-03-01\n- Note: done\n"
	require.NoError(t, os.MkdirAll(filepath.Join(root, "coordinator"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "coordinator", "active.md"), []byte(list), 0o644))
	p := startInProcess(t, config{debounce: -1, noWatch: true, now: func() time.Time { return time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC) }})
	initialize(t, p.client, root, nil)
	s := &editorSession{t: t, c: p.client, root: root, enc: "utf-16"}
	s.open("coordinator/active.md", list)

	actions := s.codeActions(s.at("Plan"))
	archive, ok := findAction(actions, "Archive")
	require.True(t, ok, "an archive action in %+v", actions)
	assert.Equal(t, "source", archive.Kind)
	require.NotNil(t, archive.Command)
	assert.Equal(t, "taskmd.archive", archive.Command.Command)

	from := s.c.count()
	var res struct {
		Archived string `json:"archived"`
	}
	require.NoError(t, s.c.call("workspace/executeCommand", map[string]any{"command": "taskmd.archive", "arguments": archive.Command.Arguments}, &res))
	assert.True(t, strings.HasPrefix(res.Archived, "archived/coordinator/active-2026-03-14-"), res.Archived)
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(res.Archived)))
	require.NoError(t, err)
	assert.Equal(t, list, string(data))
	_, err = os.Stat(filepath.Join(root, "coordinator", "active.md"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	params, _ := s.c.await("window/showMessage", from, nil)
	assert.Contains(t, string(params), res.Archived)

	// A second archive finds no list.
	err = s.c.call("workspace/executeCommand", map[string]any{"command": "taskmd.archive"}, nil)
	var werr *wireError
	require.ErrorAs(t, err, &werr)
	assert.Equal(t, -32803, werr.Code)
	assert.Regexp(t, `^[A-Z_]+: `, werr.Message)
}

// Every taskmd command applies the library's own change, exactly.
func TestCommandsMatchTheLibrary(t *testing.T) {
	now, err := time.Parse(time.RFC3339, fixedNow)
	require.NoError(t, err)
	_, s := openSession(t, config{debounce: -1, noWatch: true, now: func() time.Time { return now }})
	s.diagnostics()
	var got []textEdit
	s.c.handle("workspace/applyEdit", func(params json.RawMessage) (any, *wireError) {
		var p struct {
			Edit workspaceEdit `json:"edit"`
		}
		require.NoError(t, json.Unmarshal(params, &p))
		got = p.Edit.DocumentChanges[0].Edits
		return map[string]any{"applied": true}, nil
	})
	run := func(command string, arg map[string]any, want func(*taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error)) {
		t.Helper()
		doc, err := taskdoc.Parse([]byte(s.text))
		require.NoError(t, err)
		nd, _, err := want(doc)
		require.NoError(t, err)
		arg["uri"], arg["version"] = s.uri, s.version
		require.NoError(t, s.c.call("workspace/executeCommand", map[string]any{"command": command, "arguments": []any{arg}}, nil))
		s.change(got)
		require.Equal(t, string(nd.Source), s.text, command)
		s.diagnostics()
	}
	run("taskmd.start", map[string]any{"slug": launchSlug}, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
		return d.SetStatus(launchSlug, taskdoc.StatusInProgress)
	})
	run("taskmd.addTask", map[string]any{"slug": launchSlug, "title": "Follow up 🧾"}, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
		return d.AddTask(taskdoc.NewTask{Title: "Follow up 🧾", Content: "- Status: pending", After: launchSlug})
	})
	run("taskmd.complete", map[string]any{"slug": launchSlug, "note": "done"}, func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
		return d.Complete(launchSlug, "done", now.UTC())
	})
}
