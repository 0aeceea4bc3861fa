package editor_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// testNow is the clock of the tests' Sessions.
var testNow = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)

func testClock() time.Time { return testNow }

// planATX is a plan whose tasks hold every status the actions move
// between, with emoji and CJK text where positions count in the encoding:
// in the headings, in a body before a reference, and before the edited
// characters of the Blocked and Note values.
const planATX = `---
title: "界 front"
---
# Doc 😀

Intro 界.

## Tasks

### 😀 Pending 界

- Status: pending
- Workflow: tdd

Body 界 😀 @/specs/spec.md#intro

### In progress

- Status: in_progress

### Blocked one

- Status: blocked
- Blocked: 界 waiting for 😀 keys

### Done

- Status: completed
- Completed: 2020-01-01
- Note: 😀 first try

### Failed

- Status: failed
- Error: boom

### Redo

- Status: pending
- Completed: 2020-01-01
- Note: 😀 first try
`

// planSetext is planATX with setext headings, the Tasks section at level
// 1 and its tasks at level 2.
func planSetext() string {
	r := strings.NewReplacer(
		"# Doc 😀\n", "Doc 😀\n======\n",
		"## Tasks\n", "Tasks\n=====\n",
		"### 😀 Pending 界\n", "😀 Pending 界\n------------\n",
		"### In progress\n", "In progress\n-----------\n",
		"### Blocked one\n", "Blocked one\n-----------\n",
		"### Done\n", "Done\n----\n",
		"### Failed\n", "Failed\n------\n",
		"### Redo\n", "Redo\n----\n",
	)
	return r.Replace(planATX)
}

// awkwardPlans are planATX as people's editors keep it.
func awkwardPlans() map[string]string {
	return map[string]string{
		"LF, front matter":   planATX,
		"setext":             planSetext(),
		"CRLF":               strings.ReplaceAll(planATX, "\n", "\r\n"),
		"lone CR":            strings.ReplaceAll(planATX, "\n", "\r"),
		"no final newline":   strings.TrimSuffix(planATX, "\n"),
		"CRLF, setext, BOM":  "\ufeff" + strings.ReplaceAll(strings.TrimPrefix(planSetext(), "---\ntitle: \"界 front\"\n---\n"), "\n", "\r\n"),
		"TOML front matter":  strings.Replace(planATX, "---\ntitle: \"界 front\"\n---\n", "+++\ntitle = \"界\"\n+++\n", 1),
		"star bullets, LF":   strings.ReplaceAll(planATX, "\n- ", "\n* "),
		"CRLF, star bullets": strings.ReplaceAll(strings.ReplaceAll(planATX, "\n- ", "\n* "), "\n", "\r\n"),
	}
}

const planPath = "docs/plan.md"

var planFlow = taskflow.Flow{Path: "/plan.md", File: planPath}

// wantNames are the actions offered on a task of each status of planATX.
var wantNames = map[taskdoc.Status][]editor.ActionName{
	taskdoc.StatusPending:    {editor.ActionStart, editor.ActionComplete, editor.ActionBlock, editor.ActionAddTask},
	taskdoc.StatusInProgress: {editor.ActionComplete, editor.ActionBlock, editor.ActionAddTask},
	taskdoc.StatusBlocked:    {editor.ActionComplete, editor.ActionUnblock, editor.ActionAddTask},
	taskdoc.StatusCompleted:  {editor.ActionReopen, editor.ActionAddTask},
	taskdoc.StatusFailed:     {editor.ActionComplete, editor.ActionReopen, editor.ActionAddTask},
}

// expected is the document the library's own flow makes of doc for
// action on task: what the action's edits must give, byte for byte.
func expected(t *testing.T, doc *taskdoc.Document, a editor.ActionName, slug, note string) *taskdoc.Document {
	t.Helper()
	var nd *taskdoc.Document
	var err error
	switch a {
	case editor.ActionStart:
		nd, _, err = planFlow.Start(doc, slug)
	case editor.ActionComplete:
		nd, _, err = planFlow.Complete(doc, slug, note, testNow)
	case editor.ActionBlock:
		nd, _, err = planFlow.SetStatus(doc, slug, taskdoc.StatusBlocked, note)
	case editor.ActionUnblock, editor.ActionReopen:
		nd, _, err = planFlow.SetStatus(doc, slug, taskdoc.StatusPending, "")
	case editor.ActionAddTask:
		nd, _, err = planFlow.Create(doc, []taskdoc.NewTask{{Title: "New task", Content: "- Status: pending", After: slug}})
	}
	require.NoError(t, err)
	return nd
}

// The key contract: the edits of every action, applied to the buffer by a
// reading of Positions independent of the package's, give exactly the
// bytes the library's own edit of the task gives, in every encoding, on
// every awkward buffer; and the buffer itself never changes.
func TestActionsEditsAreTheLibrarysEdit(t *testing.T) {
	ctx := context.Background()
	for name, src := range awkwardPlans() {
		doc, err := taskdoc.Parse([]byte(src))
		require.NoError(t, err, name)
		require.Len(t, doc.Tasks, 6, name)
		for _, enc := range editor.Encodings {
			t.Run(name+"/"+string(enc), func(t *testing.T) {
				s, _ := newTestSession(t, map[string]string{planPath: "# Old\n"}, editor.WithEncoding(enc), editor.WithClock(testClock))
				require.NoError(t, s.Open(ctx, planPath, 7, src))
				for _, task := range doc.Tasks {
					// On the heading, past the emoji of the first.
					pos := editor.Position{Line: task.Line - 1, Character: 5}
					acts, err := s.Actions(ctx, planPath, editor.Range{Start: pos, End: pos})
					require.NoError(t, err)
					var names []editor.ActionName
					for _, a := range acts {
						names = append(names, a.Name)
						assert.Equal(t, planPath, a.Path)
						assert.Equal(t, 7, a.Version)
						assert.Equal(t, task.Slug, a.Slug)
						if a.Name == editor.ActionComplete {
							assert.Equal(t, "note", a.Needs)
							assert.Empty(t, a.Edits)
							continue
						}
						require.NotEmpty(t, a.Edits, a.Name)
						got, err := editor.ApplyEdits(src, a.Edits, enc)
						require.NoError(t, err, "%s on %s", a.Name, task.Slug)
						assert.Equal(t, string(expected(t, doc, a.Name, task.Slug, "").Source), got, "%s on %s", a.Name, task.Slug)
					}
					assert.Equal(t, wantNames[task.Status], names, task.Slug)

					for _, note := range []string{"😀 second try", "done"} {
						if task.Status == taskdoc.StatusCompleted {
							break
						}
						de, err := s.Apply(ctx, editor.ActionRequest{Name: editor.ActionComplete, Path: planPath, Slug: task.Slug, Note: note, Version: 7})
						require.NoError(t, err, task.Slug)
						assert.Equal(t, editor.DocumentEdit{Path: planPath, Version: 7, Open: true, Edits: de.Edits}, de)
						got, err := editor.ApplyEdits(src, de.Edits, enc)
						require.NoError(t, err)
						assert.Equal(t, string(expected(t, doc, editor.ActionComplete, task.Slug, note).Source), got, task.Slug)
					}
				}
				de, err := s.Apply(ctx, editor.ActionRequest{Name: editor.ActionBlock, Path: planPath, Slug: "blocked-one", Reason: "界 waiting for 😀 certs"})
				require.NoError(t, err)
				got, err := editor.ApplyEdits(src, de.Edits, enc)
				require.NoError(t, err)
				assert.Equal(t, string(expected(t, doc, editor.ActionBlock, "blocked-one", "界 waiting for 😀 certs").Source), got)

				text, version, ok := s.Text(planPath)
				require.True(t, ok)
				assert.Equal(t, src, text, "the buffer is never changed")
				assert.Equal(t, 7, version)
			})
		}
	}
}

// width is the length of s in enc, counted without the package.
func width(s string, enc editor.Encoding) int {
	switch enc {
	case editor.UTF8:
		return len(s)
	case editor.UTF32:
		return utf8.RuneCountInString(s)
	}
	return len(utf16.Encode([]rune(s)))
}

// lineOf is the line (from 0) of src that reads line, the first after
// line from.
func lineOf(t *testing.T, src, line string, from int) int {
	t.Helper()
	for i, l := range editor.SplitLines(src)[from:] {
		if l == line {
			return from + i
		}
	}
	t.Fatalf("no line %q after line %d", line, from)
	return 0
}

// The edits are the fewest characters: a start changes the status value
// only; a completion the status value, the date and the words of the
// note that differ; a new reason the words of it that differ; an unblock
// removes the Blocked line.
func TestActionsEditsAreMinimal(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"LF, front matter", "CRLF", "lone CR", "setext"} {
		src := awkwardPlans()[name]
		for _, enc := range editor.Encodings {
			t.Run(name+"/"+string(enc), func(t *testing.T) {
				s, _ := newTestSession(t, nil, editor.WithEncoding(enc), editor.WithClock(testClock))
				require.NoError(t, s.Open(ctx, planPath, 3, src))
				apply := func(req editor.ActionRequest) []editor.Edit {
					t.Helper()
					req.Path = planPath
					de, err := s.Apply(ctx, req)
					require.NoError(t, err)
					return de.Edits
				}
				heading := "### 😀 Pending 界"
				if name == "setext" {
					heading = "😀 Pending 界"
				}
				first := lineOf(t, src, heading, 0)
				status := lineOf(t, src, "- Status: pending", first)
				assert.Equal(t, []editor.Edit{{Range: span(status, 10, status, 17), NewText: "in_progress"}},
					apply(editor.ActionRequest{Name: editor.ActionStart, Slug: "-pending-界"}))

				redo := lineOf(t, src, "- Status: pending", lineOf(t, src, "- Status: failed", 0))
				note := "- Note: 😀 "
				assert.Equal(t, []editor.Edit{
					{Range: span(redo, 10, redo, 17), NewText: "completed"},
					{Range: span(redo+1, 16, redo+1, 23), NewText: "6-11-23"},
					{Range: span(redo+2, width(note, enc), redo+2, width(note, enc)+5), NewText: "second"},
				}, apply(editor.ActionRequest{Name: editor.ActionComplete, Slug: "redo", Note: "😀 second try"}))

				blocked := lineOf(t, src, "- Blocked: 界 waiting for 😀 keys", 0)
				reason := "- Blocked: 界 waiting for 😀 "
				assert.Equal(t, []editor.Edit{{Range: span(blocked, width(reason, enc), blocked, width(reason, enc)+3), NewText: "cert"}},
					apply(editor.ActionRequest{Name: editor.ActionBlock, Slug: "blocked-one", Reason: "界 waiting for 😀 certs"}))

				unblock := apply(editor.ActionRequest{Name: editor.ActionUnblock, Slug: "blocked-one"})
				require.Len(t, unblock, 2)
				assert.Equal(t, editor.Edit{Range: span(blocked-1, 10, blocked-1, 17), NewText: "pending"}, unblock[0])
				assert.Equal(t, span(blocked, 0, blocked+1, 0), unblock[1].Range, "the Blocked line goes, with its line ending")
				assert.Empty(t, unblock[1].NewText)

				// A completion adds its lines after the status line.
				progress := lineOf(t, src, "- Status: in_progress", 0)
				assert.Equal(t, []editor.Edit{
					{Range: span(progress, 10, progress, 21), NewText: "completed"},
					{Range: span(progress+1, 0, progress+1, 0), NewText: "- Completed: 2026-11-23" + nl(src) + "- Note: done" + nl(src)},
				}, apply(editor.ActionRequest{Name: editor.ActionComplete, Slug: "in-progress", Note: "done"}))

				// A new task adds lines only.
				add := apply(editor.ActionRequest{Name: editor.ActionAddTask, Slug: "in-progress", Title: "Write it 😀"})
				require.Len(t, add, 1)
				assert.Equal(t, add[0].Range.Start, add[0].Range.End, "an insertion")
				assert.Contains(t, add[0].NewText, "Write it 😀")
			})
		}
	}
}

// nl is the line ending of src.
func nl(src string) string { return plaintext.LineEnding([]byte(src)) }

func TestActionsOutsideTasks(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, map[string]string{planPath: planATX})
	// The file, not open: Version 0.
	acts, err := s.Actions(ctx, planPath, span(5, 0, 5, 0)) // Intro
	require.NoError(t, err)
	assert.Empty(t, acts)

	tasks := lineOf(t, planATX, "## Tasks", 0)
	acts, err = s.Actions(ctx, planPath, span(tasks, 0, tasks, 0))
	require.NoError(t, err)
	require.Len(t, acts, 1)
	a := acts[0]
	assert.Equal(t, editor.ActionAddTask, a.Name)
	assert.Equal(t, "Add a task", a.Title)
	assert.Equal(t, 0, a.Version)
	assert.Empty(t, a.Slug)
	got, err := editor.ApplyEdits(planATX, a.Edits, editor.UTF16)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(got, planATX[strings.Index(planATX, "### Redo"):]+"\n### New task\n\n- Status: pending\n"), got)

	// A path that holds no tasks has no actions and takes none.
	_, err = s.Actions(ctx, "workflows/tdd.md", span(0, 0, 0, 0))
	assert.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err))
	_, err = s.Actions(ctx, "docs/missing.md", span(0, 0, 0, 0))
	assert.Equal(t, taskdoc.CodeDocumentNotFound, taskdoc.CodeOf(err))
	_, err = s.Actions(ctx, planPath, span(-1, 0, 0, 0))
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
}

// add_task is one click: its title is free in the document.
func TestActionsNewTaskTitleIsFree(t *testing.T) {
	ctx := context.Background()
	src := "# P\n\n## Tasks\n\n### New task\n\n### New task 2\n"
	s, _ := newTestSession(t, map[string]string{planPath: src})
	acts, err := s.Actions(ctx, planPath, span(4, 0, 4, 0))
	require.NoError(t, err)
	add := acts[len(acts)-1]
	require.Equal(t, editor.ActionAddTask, add.Name)
	assert.Equal(t, `Add a task after "New task"`, add.Title)
	got, err := editor.ApplyEdits(src, add.Edits, editor.UTF16)
	require.NoError(t, err)
	assert.Equal(t, "# P\n\n## Tasks\n\n### New task\n\n### New task 3\n\n- Status: pending\n\n### New task 2\n", got)
}

// Bad input is a typed error and changes nothing.
func TestApplyRefusals(t *testing.T) {
	ctx := context.Background()
	s, ws := newTestSession(t, map[string]string{planPath: planATX, "workflows/tdd.md": "# TDD\n"}, editor.WithClock(testClock))
	require.NoError(t, s.Open(ctx, planPath, 4, planATX))
	tests := []struct {
		name string
		req  editor.ActionRequest
		code taskdoc.Code
	}{
		{"unknown action", editor.ActionRequest{Name: "finish", Path: planPath, Slug: "redo"}, taskdoc.CodeInvalidArguments},
		{"archive is Archive's", editor.ActionRequest{Name: editor.ActionArchive, Path: planPath}, taskdoc.CodeInvalidArguments},
		{"missing slug", editor.ActionRequest{Name: editor.ActionStart, Path: planPath}, taskdoc.CodeSubagentRequiresSlug},
		{"complete without a note", editor.ActionRequest{Name: editor.ActionComplete, Path: planPath, Slug: "redo", Note: "  "}, taskdoc.CodeNoteRequired},
		{"no such task", editor.ActionRequest{Name: editor.ActionStart, Path: planPath, Slug: "nope"}, taskdoc.CodeTaskNotFound},
		{"add a task without a title", editor.ActionRequest{Name: editor.ActionAddTask, Path: planPath, Slug: "redo"}, taskdoc.CodeInvalidTask},
		{"add a task whose title is taken", editor.ActionRequest{Name: editor.ActionAddTask, Path: planPath, Title: "Redo"}, taskdoc.CodeDuplicateTask},
		{"start a completed task", editor.ActionRequest{Name: editor.ActionStart, Path: planPath, Slug: "done"}, taskdoc.CodeInvalidTransition},
		{"block a completed task", editor.ActionRequest{Name: editor.ActionBlock, Path: planPath, Slug: "done"}, taskdoc.CodeInvalidTransition},
		{"unblock a pending task", editor.ActionRequest{Name: editor.ActionUnblock, Path: planPath, Slug: "redo"}, taskdoc.CodeInvalidTransition},
		{"reopen a pending task", editor.ActionRequest{Name: editor.ActionReopen, Path: planPath, Slug: "redo"}, taskdoc.CodeInvalidTransition},
		{"complete a completed task", editor.ActionRequest{Name: editor.ActionComplete, Path: planPath, Slug: "done", Note: "again"}, taskdoc.CodeInvalidTransition},
		{"an older version", editor.ActionRequest{Name: editor.ActionStart, Path: planPath, Slug: "redo", Version: 3, CheckVersion: true}, taskdoc.CodeConflict},
		{"a workflow", editor.ActionRequest{Name: editor.ActionStart, Path: "workflows/tdd.md", Slug: "x"}, taskdoc.CodeInvalidAddress},
		{"outside the root", editor.ActionRequest{Name: editor.ActionStart, Path: "docs/../x.md", Slug: "x"}, taskdoc.CodeOutsideRoot},
		{"control character in a note", editor.ActionRequest{Name: editor.ActionComplete, Path: planPath, Slug: "redo", Note: "a\x00b"}, taskdoc.CodeControlCharacter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Apply(ctx, tt.req)
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code, err.Error())
		})
	}
	text, version, _ := s.Text(planPath)
	assert.Equal(t, planATX, text)
	assert.Equal(t, 4, version)
	data, _, err := ws.Read(ctx, planPath)
	require.NoError(t, err)
	assert.Equal(t, planATX, string(data))

	// The version the buffer has is accepted, as is none.
	for _, check := range []bool{false, true} {
		de, err := s.Apply(ctx, editor.ActionRequest{Name: editor.ActionStart, Path: planPath, Slug: "redo", Version: 4, CheckVersion: check})
		require.NoError(t, err)
		assert.Equal(t, 4, de.Version)
		assert.True(t, de.Open)
		assert.Len(t, de.Edits, 1)
	}
	// A retry that changes nothing has no edits, as an empty list.
	de, err := s.Apply(ctx, editor.ActionRequest{Name: editor.ActionStart, Path: planPath, Slug: "in-progress"})
	require.NoError(t, err)
	assert.NotNil(t, de.Edits)
	assert.Empty(t, de.Edits)
}

// A document that is not open: the edits apply to its file (Open false),
// which stays as it was.
func TestApplyOnFile(t *testing.T) {
	ctx := context.Background()
	s, ws := newTestSession(t, map[string]string{planPath: planATX}, editor.WithClock(testClock))
	de, err := s.Apply(ctx, editor.ActionRequest{Name: editor.ActionComplete, Path: planPath, Slug: "redo", Note: "ok"})
	require.NoError(t, err)
	assert.False(t, de.Open)
	doc, err := taskdoc.Parse([]byte(planATX))
	require.NoError(t, err)
	got, err := editor.ApplyEdits(planATX, de.Edits, editor.UTF16)
	require.NoError(t, err)
	assert.Equal(t, string(expected(t, doc, editor.ActionComplete, "redo", "ok").Source), got)
	data, _, err := ws.Read(ctx, planPath)
	require.NoError(t, err)
	assert.Equal(t, planATX, string(data))
	// A version for a document that is not open is a buffer that closed.
	_, err = s.Apply(ctx, editor.ActionRequest{Name: editor.ActionStart, Path: planPath, Slug: "redo", Version: 2, CheckVersion: true})
	assert.ErrorIs(t, err, taskdoc.ErrConflict)
}

// A buffer that does not read has no actions, and takes none.
func TestActionsUnreadable(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, nil)
	require.NoError(t, s.Open(ctx, planPath, 1, "# P\n\n## Tasks\n\n### A\xff\n"))
	acts, err := s.Actions(ctx, planPath, span(4, 0, 4, 0))
	require.NoError(t, err)
	assert.Empty(t, acts)
	_, err = s.Apply(ctx, editor.ActionRequest{Name: editor.ActionStart, Path: planPath, Slug: "a"})
	assert.Equal(t, taskdoc.CodeInvalidUTF8, taskdoc.CodeOf(err))
}

// Every answer reads one version of the buffer while the editor types.
func TestActionsConcurrentWithChanges(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, navFiles(), editor.WithClock(testClock))
	require.NoError(t, s.Open(ctx, planPath, 1, planATX))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 50 {
			text := planATX
			if i%2 == 0 {
				text = strings.ReplaceAll(planATX, "\n", "\r\n")
			}
			assert.NoError(t, s.Change(planPath, i+2, []editor.Change{{Text: text}}))
		}
	}()
	p := editor.Position{Line: 9, Character: 4}
	for range 20 {
		acts, err := s.Actions(ctx, planPath, editor.Range{Start: p, End: p})
		require.NoError(t, err)
		for _, a := range acts {
			if a.Edits == nil {
				continue
			}
			src := planATX
			if a.Version%2 == 0 && a.Version > 1 {
				src = strings.ReplaceAll(planATX, "\n", "\r\n")
			}
			_, err := editor.ApplyEdits(src, a.Edits, editor.UTF16)
			assert.NoError(t, err, "the edits fit the buffer of their version")
		}
		_, err = s.Hover(ctx, planPath, p)
		require.NoError(t, err)
		_, err = s.Complete(ctx, planPath, p)
		require.NoError(t, err)
		_, err = s.Definition(ctx, planPath, p)
		require.NoError(t, err)
	}
	<-done
}

func ExampleSession_Actions() {
	ctx := context.Background()
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	ws, _ := workspace.Open(root)
	defer ws.Close()
	s, _ := editor.New(ws)

	// The editor opens a buffer (not saved yet) and asks what it can do
	// at the heading of "Sign tokens".
	_ = s.Open(ctx, "docs/auth.md", 3, "# Auth\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n")
	acts, _ := s.Actions(ctx, "docs/auth.md", editor.Range{Start: editor.Position{Line: 4, Character: 6}})
	for _, a := range acts {
		fmt.Printf("%s (%s) needs %q, %d edits\n", a.Title, a.Name, a.Needs, len(a.Edits))
	}
	// Start changes the status value only, in the buffer of version 3.
	fmt.Printf("%+v\n", acts[0].Edits)
	// Output:
	// Start "Sign tokens" (start) needs "", 1 edits
	// Complete "Sign tokens"… (complete) needs "note", 0 edits
	// Block "Sign tokens" (block) needs "", 1 edits
	// Add a task after "Sign tokens" (add_task) needs "", 1 edits
	// [{Range:{Start:{Line:6 Character:10} End:{Line:6 Character:17}} NewText:in_progress}]
}

func ExampleSession_Apply() {
	ctx := context.Background()
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	ws, _ := workspace.Open(root)
	defer ws.Close()
	clock := func() time.Time { return time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC) }
	s, _ := editor.New(ws, editor.WithClock(clock))
	_ = s.Open(ctx, "docs/auth.md", 3, "# Auth\n\n## Tasks\n\n### Sign tokens\n\n- Status: in_progress\n")

	de, err := s.Apply(ctx, editor.ActionRequest{Name: editor.ActionComplete, Path: "docs/auth.md",
		Slug: "sign-tokens", Note: "Signed with RS256.", Version: 3, CheckVersion: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range de.Edits {
		fmt.Printf("%d:%d-%d:%d %q\n", e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Line, e.Range.End.Character, e.NewText)
	}
	// Output:
	// 6:10-6:21 "completed"
	// 7:0-7:0 "- Completed: 2026-11-23\n- Note: Signed with RS256.\n"
}
