package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/workspace"
)

func TestIgnoreState(t *testing.T) {
	tests := []struct {
		name   string
		before *string // nil: no .gitignore
		after  string
		added  bool
	}{
		{"no file", nil, ".taskmd/\n", true},
		{"empty file", ptr(""), ".taskmd/\n", true},
		{"other lines", ptr("node_modules/\n*.log\n"), "node_modules/\n*.log\n.taskmd/\n", true},
		{"no final line ending", ptr("bin"), "bin\n.taskmd/\n", true},
		{"CRLF kept", ptr("bin\r\nobj\r\n"), "bin\r\nobj\r\n.taskmd/\r\n", true},
		{"CRLF without final line ending", ptr("bin\r\nobj"), "bin\r\nobj\r\n.taskmd/\r\n", true},
		{"a comment does not ignore", ptr("# .taskmd/\n"), "# .taskmd/\n.taskmd/\n", true},
		{"leading space is another name", ptr(" .taskmd/\n"), " .taskmd/\n.taskmd/\n", true},
		{"a later negation undoes it", ptr(".taskmd/\n!.taskmd/\n"), ".taskmd/\n!.taskmd/\n.taskmd/\n", true},
		{"another folder of that name", ptr("docs/.taskmd/\n"), "docs/.taskmd/\n.taskmd/\n", true},
		{"ignored already", ptr("bin\n.taskmd/\n"), "bin\n.taskmd/\n", false},
		{"without the slash", ptr(".taskmd"), ".taskmd", false},
		{"anchored", ptr("/.taskmd/\r\n"), "/.taskmd/\r\n", false},
		{"its content", ptr("/.taskmd/**  \n"), "/.taskmd/**  \n", false},
		{"negation undone again", ptr("!.taskmd\n.taskmd/*\n"), "!.taskmd\n.taskmd/*\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, ".gitignore")
			if tt.before != nil {
				require.NoError(t, os.WriteFile(file, []byte(*tt.before), 0o644))
			}
			ws, err := workspace.Open(dir)
			require.NoError(t, err)
			defer ws.Close()
			added, err := ws.IgnoreState(context.Background())
			require.NoError(t, err)
			assert.Equal(t, tt.added, added)
			got, err := os.ReadFile(file)
			if tt.before == nil && !tt.added {
				assert.True(t, os.IsNotExist(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.after, string(got))

			again, err := ws.IgnoreState(context.Background())
			require.NoError(t, err)
			assert.False(t, again, "a retry adds nothing")
			got, err = os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, tt.after, string(got))
		})
	}
}

func ptr(s string) *string { return &s }

func TestEnsureLines(t *testing.T) {
	tests := []struct {
		name   string
		before *string // nil: no file
		lines  []string
		after  string
		added  bool
	}{
		{"no file", nil, []string{"a merge=x", "b merge=x"}, "a merge=x\nb merge=x\n", true},
		{"one there already", ptr("b merge=x\n"), []string{"a merge=x", "b merge=x"}, "b merge=x\na merge=x\n", true},
		{"trailing blanks and CRLF", ptr("a merge=x  \r\nb merge=x"), []string{"a merge=x", "b merge=x"}, "a merge=x  \r\nb merge=x", false},
		{"CRLF kept, last line ended", ptr("*.png binary\r\nc"), []string{"a merge=x"}, "*.png binary\r\nc\r\na merge=x\r\n", true},
		{"a line given twice once", ptr(""), []string{"a", "a"}, "a\n", true},
		{"a longer line is another", ptr("a merge=xy\n"), []string{"a merge=x"}, "a merge=xy\na merge=x\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, ".gitattributes")
			if tt.before != nil {
				require.NoError(t, os.WriteFile(file, []byte(*tt.before), 0o644))
			}
			ws, err := workspace.Open(dir)
			require.NoError(t, err)
			defer ws.Close()
			added, err := ws.EnsureLines(context.Background(), ".gitattributes", tt.lines...)
			require.NoError(t, err)
			assert.Equal(t, tt.added, added)
			got, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, tt.after, string(got))

			again, err := ws.EnsureLines(context.Background(), ".gitattributes", tt.lines...)
			require.NoError(t, err)
			assert.False(t, again, "a retry adds nothing")
			got, err = os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, tt.after, string(got))
		})
	}
}
