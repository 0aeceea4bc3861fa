package editor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
)

// The ranges are counted by hand; see intlDoc for its lines.
func TestSymbols(t *testing.T) {
	tests := []struct {
		name string
		enc  editor.Encoding
		src  string
		want []editor.Symbol
	}{
		{
			name: "setext headings, CRLF, front matter, UTF-16",
			enc:  editor.UTF16,
			src:  intlDoc,
			want: []editor.Symbol{{Name: "Tasks", Kind: editor.SymbolTasks, Range: span(3, 0, 15, 0), SelectionRange: span(3, 0, 4, 5),
				Children: []editor.Symbol{
					{Name: "翻訳 🚀 task", Detail: "完了", Kind: editor.SymbolTask, Status: "完了", Address: "/intl.md#翻訳--task",
						Range: span(6, 0, 13, 0), SelectionRange: span(6, 0, 7, 12)},
					{Name: "翻訳 🚀 task", Detail: "pending", Kind: editor.SymbolTask, Status: taskdoc.StatusPending, Address: "/intl.md#翻訳--task",
						Range: span(14, 0, 15, 0), SelectionRange: span(14, 0, 14, 13)},
				}}},
		},
		{
			name: "the same in UTF-8",
			enc:  editor.UTF8,
			src:  intlDoc,
			want: []editor.Symbol{{Name: "Tasks", Kind: editor.SymbolTasks, Range: span(3, 0, 15, 0), SelectionRange: span(3, 0, 4, 5),
				Children: []editor.Symbol{
					{Name: "翻訳 🚀 task", Detail: "完了", Kind: editor.SymbolTask, Status: "完了", Address: "/intl.md#翻訳--task",
						Range: span(6, 0, 13, 0), SelectionRange: span(6, 0, 7, 12)},
					{Name: "翻訳 🚀 task", Detail: "pending", Kind: editor.SymbolTask, Status: taskdoc.StatusPending, Address: "/intl.md#翻訳--task",
						Range: span(14, 0, 15, 0), SelectionRange: span(14, 0, 14, 19)},
				}}},
		},
		{
			name: "a section after the Tasks section, blank lines before it, no final newline",
			src:  "# D\n\n## Tasks\n\n### A\n\n- Status: completed\n\n\n### B\nlast line\n\n## Notes\n\ntext",
			want: []editor.Symbol{{Name: "Tasks", Kind: editor.SymbolTasks, Range: span(2, 0, 12, 0), SelectionRange: span(2, 0, 2, 8),
				Children: []editor.Symbol{
					{Name: "A", Detail: "completed", Kind: editor.SymbolTask, Status: taskdoc.StatusCompleted, Address: "/d.md#a",
						Range: span(4, 0, 7, 0), SelectionRange: span(4, 0, 4, 5)},
					{Name: "B", Detail: "pending", Kind: editor.SymbolTask, Status: taskdoc.StatusPending, Address: "/d.md#b",
						Range: span(9, 0, 11, 0), SelectionRange: span(9, 0, 9, 5)},
				}}},
		},
		{
			name: "the last task at the end of a file without a final newline",
			src:  "# D\n\n## Tasks\n\n### A\n\ntext",
			want: []editor.Symbol{{Name: "Tasks", Kind: editor.SymbolTasks, Range: span(2, 0, 6, 4), SelectionRange: span(2, 0, 2, 8),
				Children: []editor.Symbol{
					{Name: "A", Detail: "pending", Kind: editor.SymbolTask, Status: taskdoc.StatusPending, Address: "/d.md#a",
						Range: span(4, 0, 6, 4), SelectionRange: span(4, 0, 4, 5)},
				}}},
		},
		{
			name: "an empty Tasks section",
			src:  "# D\n\n## Tasks\n",
			want: []editor.Symbol{{Name: "Tasks", Kind: editor.SymbolTasks, Range: span(2, 0, 3, 0), SelectionRange: span(2, 0, 2, 8),
				Children: []editor.Symbol{}}},
		},
		{name: "no Tasks section", src: "# D\n\n## Notes\n\n### A\n"},
		{name: "a document that does not read", src: "# D\n\n## Tasks\n\n### A\xff\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []editor.Option
			if tt.enc != "" {
				opts = append(opts, editor.WithEncoding(tt.enc))
			}
			path := "docs/d.md"
			if tt.src == intlDoc {
				path = "docs/intl.md"
			}
			s, _ := newTestSession(t, map[string]string{path: "# old\n"}, opts...)
			require.NoError(t, s.Open(context.Background(), path, 1, tt.src))
			got, err := s.Symbols(context.Background(), path)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSymbolsPaths(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, map[string]string{
		"coordinator/active.md": "# Active\n\n## Tasks\n\n### Deploy\n\n- Main-Workflow: x\n",
		"workflows/x.md":        "# X\n\n## Tasks\n\n### Not a task document\n",
	})
	got, err := s.Symbols(ctx, "coordinator/active.md")
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Len(t, got[0].Children, 1)
	assert.Equal(t, "/coordinator/active.md#deploy", got[0].Children[0].Address)

	got, err = s.Symbols(ctx, "workflows/x.md")
	assert.NoError(t, err)
	assert.Nil(t, got)

	_, err = s.Symbols(ctx, "docs/missing.md")
	assert.ErrorIs(t, err, taskdoc.ErrDocumentNotFound)
}

func TestWorkspaceSymbols(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, map[string]string{
		"docs/b/c.md":           "# C\n\n## Tasks\n\n### Auth tokens\n\n- Status: in_progress\n",
		"docs/a.md":             "# A\n\n## Notes\n\n### Auth outside the Tasks section\n\n## Tasks\n\n### Write docs\n\n### Setup Auth\n",
		"coordinator/active.md": "# Active\n\n## Tasks\n\n### Deploy\n",
		"workflows/auth.md":     "# Auth\n\n## Tasks\n\n### Auth workflow\n",
		"docs/stale.md":         "# S\n\n## Tasks\n\n### Auth, as the file says\n",
	})
	require.NoError(t, s.Open(ctx, "docs/new.md", 1, "# N\n\n## Tasks\n\n### Auth later\n"))
	require.NoError(t, s.Open(ctx, "docs/stale.md", 1, "# S\n\n## Tasks\n\n### As the buffer says\n"))

	got, err := s.WorkspaceSymbols(ctx, "AUTH")
	require.NoError(t, err)
	assert.Equal(t, []editor.TaskSymbol{
		{Name: "Setup Auth", Address: "/a.md#setup-auth", Status: taskdoc.StatusPending,
			Location: editor.Location{Path: "docs/a.md", Range: span(10, 0, 10, 14)}},
		{Name: "Auth tokens", Address: "/b/c.md#auth-tokens", Status: taskdoc.StatusInProgress,
			Location: editor.Location{Path: "docs/b/c.md", Range: span(4, 0, 4, 15)}},
		{Name: "Auth later", Address: "/new.md#auth-later", Status: taskdoc.StatusPending,
			Location: editor.Location{Path: "docs/new.md", Range: span(4, 0, 4, 14)}},
	}, got)

	got, err = s.WorkspaceSymbols(ctx, "setup-a") // the slug, not the title
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "/a.md#setup-auth", got[0].Address)

	got, err = s.WorkspaceSymbols(ctx, "")
	require.NoError(t, err)
	var addresses []string
	for _, g := range got {
		addresses = append(addresses, g.Address)
	}
	assert.Equal(t, []string{"/a.md#setup-auth", "/a.md#write-docs", "/b/c.md#auth-tokens",
		"/coordinator/active.md#deploy", "/new.md#auth-later", "/stale.md#as-the-buffer-says"}, addresses)
}

func TestWorkspaceSymbolsCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Many\n\n## Tasks\n")
	for i := range 600 {
		fmt.Fprintf(&b, "\n### Task %03d\n", i)
	}
	s, _ := newTestSession(t, map[string]string{"docs/many.md": b.String()})
	got, err := s.WorkspaceSymbols(context.Background(), "task")
	require.NoError(t, err)
	require.Len(t, got, 500)
	assert.Equal(t, "/many.md#task-000", got[0].Address)
	assert.Equal(t, "/many.md#task-499", got[499].Address)
}
