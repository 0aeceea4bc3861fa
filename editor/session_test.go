package editor_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
)

func change(r editor.Range, text string) editor.Change { return editor.Change{Range: &r, Text: text} }

func TestOpenChange(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		enc     editor.Encoding
		start   string
		changes []editor.Change
		want    string
	}{
		{"insert after an emoji, UTF-16", editor.UTF16, "a😀b\r\nline2\rline3",
			[]editor.Change{change(span(0, 3, 0, 3), "X")}, "a😀Xb\r\nline2\rline3"},
		{"insert after an emoji, UTF-8", editor.UTF8, "a😀b\r\nline2\rline3",
			[]editor.Change{change(span(0, 5, 0, 5), "X")}, "a😀Xb\r\nline2\rline3"},
		{"insert after an emoji, UTF-32", editor.UTF32, "a😀b\r\nline2\rline3",
			[]editor.Change{change(span(0, 2, 0, 2), "X")}, "a😀Xb\r\nline2\rline3"},
		{"replace across a CRLF and a lone CR", editor.UTF16, "a😀b\r\nline2\rline3",
			[]editor.Change{change(span(0, 3, 2, 4), "-")}, "a😀-3"},
		{"changes apply in order", editor.UTF16, "abc\n",
			[]editor.Change{change(span(0, 0, 0, 1), "界界"), change(span(0, 2, 0, 3), "")}, "界界c\n"},
		{"the whole text", editor.UTF16, "abc\n",
			[]editor.Change{change(span(0, 0, 0, 1), "x"), {Text: "new\r\n"}, change(span(1, 0, 1, 0), "end")}, "new\r\nend"},
		{"past the end of a line is its end", editor.UTF16, "ab\r\ncd",
			[]editor.Change{change(span(0, 9, 0, 9), "!")}, "ab!\r\ncd"},
		{"past the last line is the end", editor.UTF16, "ab\ncd",
			[]editor.Change{change(span(5, 0, 7, 3), "!")}, "ab\ncd!"},
		{"inside a surrogate pair is its start", editor.UTF16, "😀",
			[]editor.Change{change(span(0, 1, 0, 1), "x")}, "x😀"},
		{"an empty buffer", editor.UTF32, "",
			[]editor.Change{change(span(0, 0, 0, 0), "界")}, "界"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSession(t, nil, editor.WithEncoding(tt.enc))
			require.NoError(t, s.Open(ctx, "docs/a.md", 1, tt.start))
			require.NoError(t, s.Change("docs/a.md", 2, tt.changes))
			text, version, ok := s.Text("docs/a.md")
			require.True(t, ok)
			assert.Equal(t, tt.want, text)
			assert.Equal(t, 2, version)
		})
	}
}

// A change that does not fit the buffer leaves it as it was, with every
// change before it in the same call.
func TestChangeRefused(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, nil)
	const start = "a\nb\n"
	require.NoError(t, s.Open(ctx, "docs/a.md", 3, start))
	for name, changes := range map[string][]editor.Change{
		"negative line":         {change(span(-1, 0, 0, 0), "x")},
		"negative character":    {change(span(0, -1, 0, 0), "x")},
		"ends before it starts": {change(span(1, 0, 0, 1), "x")},
		"the second is bad":     {change(span(0, 0, 0, 1), "x"), change(span(0, 1, 0, 0), "y")},
	} {
		err := s.Change("docs/a.md", 4, changes)
		assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), name)
		text, version, _ := s.Text("docs/a.md")
		assert.Equal(t, start, text, name)
		assert.Equal(t, 3, version, name)
	}
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(s.Change("docs/b.md", 1, []editor.Change{{Text: "x"}})), "not open")
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(s.Saved("docs/b.md")), "not open")
}

func TestOpenPaths(t *testing.T) {
	ctx := context.Background()
	s, ws := newTestSession(t, map[string]string{"docs/a.md": "# On disk\n\n## Tasks\n\n### A\n"})
	for _, p := range []string{"", "/docs/a.md", "docs\\a.md", "docs/../a.md", "./docs/a.md", "docs//a.md"} {
		err := s.Open(ctx, p, 1, "x")
		var e *taskdoc.Error
		require.ErrorAs(t, err, &e, p)
		assert.Contains(t, []taskdoc.Code{taskdoc.CodeInvalidArguments, taskdoc.CodeOutsideRoot}, e.Code, p)
	}
	assert.Empty(t, s.OpenPaths())

	// The buffer, not the file, is the document until it is closed.
	require.NoError(t, s.Open(ctx, "docs/a.md", 1, "# Typed\n\n## Tasks\n\n### B\n"))
	require.NoError(t, s.Open(ctx, "docs/new.md", 1, ""))
	assert.Equal(t, []string{"docs/a.md", "docs/new.md"}, s.OpenPaths())
	syms, err := s.WorkspaceSymbols(ctx, "")
	require.NoError(t, err)
	var names []string
	for _, sym := range syms {
		names = append(names, sym.Name)
	}
	assert.Equal(t, []string{"B"}, names)
	s.Close("docs/a.md")
	_, _, ok := s.Text("docs/a.md")
	assert.False(t, ok)
	syms, err = s.WorkspaceSymbols(ctx, "")
	require.NoError(t, err)
	require.Len(t, syms, 1)
	assert.Equal(t, "A", syms[0].Name)
	assert.Equal(t, []string{"docs/new.md"}, s.OpenPaths())
	data, _, err := ws.Read(ctx, "docs/a.md")
	require.NoError(t, err)
	assert.Equal(t, "# On disk\n\n## Tasks\n\n### A\n", string(data), "nothing is written")

	// A saved buffer is the file once it is closed.
	const saved = "# Saved\n\n## Tasks\n\n### C\n"
	require.NoError(t, s.Open(ctx, "docs/a.md", 1, saved))
	writeTestFiles(t, ws.Root(), map[string]string{"docs/a.md": saved})
	require.NoError(t, s.Saved("docs/a.md"))
	s.Close("docs/a.md")
	syms, err = s.WorkspaceSymbols(ctx, "")
	require.NoError(t, err)
	require.Len(t, syms, 1)
	assert.Equal(t, "C", syms[0].Name)
}

// conflicted reports whether the Session says the buffer at path and its
// file disagree.
func conflicted(t *testing.T, s *editor.Session, path string) bool {
	t.Helper()
	ds, err := s.Diagnostics(context.Background(), path)
	require.NoError(t, err)
	return slices.ContainsFunc(ds, func(d editor.Diagnostic) bool { return d.Code == editor.CodeBufferDiffersFromDisk })
}

func TestDiskChanged(t *testing.T) {
	ctx := context.Background()
	const path = "docs/plan.md"
	for _, enc := range editor.Encodings {
		t.Run(string(enc), func(t *testing.T) {
			s, ws := newTestSession(t, map[string]string{path: planATX}, editor.WithEncoding(enc))
			require.NoError(t, s.Open(ctx, path, 5, planATX))

			// A clean buffer gets the edits that bring it to the file.
			agent := awkwardPlans()["CRLF"]
			writeTestFiles(t, ws.Root(), map[string]string{path: agent})
			r, err := s.DiskChanged(ctx, path)
			require.NoError(t, err)
			assert.Equal(t, path, r.Path)
			assert.Equal(t, 5, r.Version)
			assert.False(t, r.Conflict)
			got, err := editor.ApplyEdits(planATX, r.Edits, enc)
			require.NoError(t, err)
			assert.Equal(t, agent, got)
			// The editor applies them as a change of its own.
			require.NoError(t, s.Change(path, 6, []editor.Change{{Text: got}}))
			assert.False(t, conflicted(t, s, path))

			// A file that changes to what the buffer holds: nothing to do.
			r, err = s.DiskChanged(ctx, path)
			require.NoError(t, err)
			assert.Equal(t, editor.Refresh{Path: path, Version: 6}, r)

			// A dirty buffer is a conflict, and keeps its text.
			require.NoError(t, s.Change(path, 7, []editor.Change{change(span(0, 0, 0, 0), "typed ")}))
			writeTestFiles(t, ws.Root(), map[string]string{path: planATX})
			r, err = s.DiskChanged(ctx, path)
			require.NoError(t, err)
			assert.Equal(t, editor.Refresh{Path: path, Version: 7, Conflict: true}, r)
			assert.True(t, conflicted(t, s, path))
			text, _, _ := s.Text(path)
			assert.Equal(t, "typed "+agent, text)

			// Typing the file's text back ends the conflict; so does a save.
			require.NoError(t, s.Change(path, 8, []editor.Change{{Text: planATX}}))
			assert.False(t, conflicted(t, s, path))
			require.NoError(t, s.Change(path, 9, []editor.Change{{Text: "# Mine\n"}}))
			writeTestFiles(t, ws.Root(), map[string]string{path: "# Theirs\n"})
			r, err = s.DiskChanged(ctx, path)
			require.NoError(t, err)
			assert.True(t, r.Conflict)
			writeTestFiles(t, ws.Root(), map[string]string{path: "# Mine\n"})
			require.NoError(t, s.Saved(path))
			assert.False(t, conflicted(t, s, path))

			// After a save the buffer is clean again: the next change on
			// disk is edits.
			writeTestFiles(t, ws.Root(), map[string]string{path: "# Mine\n\nMore.\n"})
			r, err = s.DiskChanged(ctx, path)
			require.NoError(t, err)
			assert.Equal(t, []editor.Edit{{Range: span(1, 0, 1, 0), NewText: "\nMore.\n"}}, r.Edits)

			// A removed file (an archived list) under a clean buffer: the
			// buffer is a document without a file, as a new one is; nothing
			// disagrees, and no diagnostic says the buffer has unsaved changes.
			require.NoError(t, s.Change(path, 10, []editor.Change{{Text: "# Mine\n\nMore.\n"}}))
			require.NoError(t, os.Remove(filepath.Join(ws.Root(), path)))
			r, err = s.DiskChanged(ctx, path)
			require.NoError(t, err)
			assert.Equal(t, editor.Refresh{Path: path, Version: 10}, r)
			diags, err := s.Diagnostics(ctx, path)
			require.NoError(t, err)
			for _, d := range diags {
				assert.NotEqual(t, editor.CodeBufferDiffersFromDisk, d.Code)
			}
		})
	}
}

// A document that is not open is read again after DiskChanged names it.
func TestDiskChangedClosed(t *testing.T) {
	ctx := context.Background()
	const path = "docs/plan.md"
	s, ws := newTestSession(t, map[string]string{path: "# P\n\n## Tasks\n\n### A\n"})
	syms, err := s.Symbols(ctx, path)
	require.NoError(t, err)
	require.Len(t, syms, 1)
	writeTestFiles(t, ws.Root(), map[string]string{path: "# P\n\n## Tasks\n\n### A\n\n### B\n"})
	r, err := s.DiskChanged(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, editor.Refresh{}, r)
	syms, err = s.Symbols(ctx, path)
	require.NoError(t, err)
	require.Len(t, syms, 1)
	assert.Len(t, syms[0].Children, 2)
}

func TestNewSession(t *testing.T) {
	ws := newTestWorkspace(t, nil)
	_, err := editor.New(ws, editor.WithEncoding("utf-7"))
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	s, err := editor.New(ws)
	require.NoError(t, err)
	assert.Equal(t, editor.UTF16, s.Encoding())
	assert.Same(t, ws, s.Workspace())
	for name, want := range map[editor.Encoding]editor.Encoding{
		"": editor.UTF16, "utf-16": editor.UTF16, "utf-8": editor.UTF8, "utf-32": editor.UTF32,
	} {
		s, err := editor.New(ws, editor.WithEncoding(name))
		require.NoError(t, err, name)
		assert.Equal(t, want, s.Encoding(), "WithEncoding(%q)", name)
	}
	_, err = editor.New(ws, editor.WithEncoding("UTF-8"))
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
}

// An empty encoding is the default, UTF-16: a character beyond the Basic
// Multilingual Plane counts two, as for an editor that names none.
func TestEmptyEncodingCountsUTF16(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"docs/a.md": "# A\n\n## Tasks\n\n### 😀 Emoji\n\n- Status: pending\n"})
	s, err := editor.New(ws, editor.WithEncoding(""))
	require.NoError(t, err)
	syms, err := s.Symbols(t.Context(), "docs/a.md")
	require.NoError(t, err)
	require.Len(t, syms, 1)
	require.Len(t, syms[0].Children, 1)
	assert.Equal(t, editor.Range{Start: editor.Position{Line: 4, Character: 0}, End: editor.Position{Line: 4, Character: 12}},
		syms[0].Children[0].SelectionRange, "### 😀 Emoji: the emoji is two UTF-16 units")
}
