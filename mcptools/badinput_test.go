package mcptools

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// Bad input through the tools gets a typed error and changes no file; inputs
// that used to misbehave now work.
func TestBadInputOverMCP(t *testing.T) {
	const doc = "See [x][spec].\n\n## Tasks\n\n### T\n\n- Status: pending\n"
	long := "/" + strings.Repeat("n", 232) + ".md" // a 235-byte file name
	tests := []struct {
		name  string
		tool  string
		args  map[string]any
		code  string // "" for success
		check func(t *testing.T, files map[string]string)
	}{
		{"a definition that would change a link outside the task", "subagent_task", map[string]any{"document": "/d.md",
			"operations": []any{map[string]any{"operation": "create", "title": "U", "content": "[spec]: /url"}}},
			"EDIT_CHANGED_OUTSIDE", nil},
		{"a control character in a title", "subagent_task", map[string]any{"document": "/d.md",
			"operations": []any{map[string]any{"operation": "create", "title": "Bell\a"}}},
			"CONTROL_CHARACTER", nil},
		{"a NUL in a note", "complete_subagent_task", map[string]any{"document": "/d.md#t", "note": "done\x00"},
			"CONTROL_CHARACTER", nil},
		{"a task in a document with undecodable front matter", "complete_subagent_task",
			map[string]any{"document": "/fm.md#t", "note": "done"}, "", func(t *testing.T, files map[string]string) {
				assert.Contains(t, files["docs/fm.md"], "---\nissue id: [#885]\n---\n")
				assert.Contains(t, files["docs/fm.md"], "- Status: completed\n")
			}},
		{"a document with a 235-byte name", "subagent_task", map[string]any{"document": long,
			"operations": []any{map[string]any{"operation": "create", "title": "First"}}}, "", func(t *testing.T, files map[string]string) {
			assert.Contains(t, files["docs"+long], "### First\n")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newRoot(t, map[string]string{
				"docs/d.md":  doc,
				"docs/fm.md": "---\nissue id: [#885]\n---\n# FM\n\n## Tasks\n\n### T\n\n- Status: pending\n",
			})
			before := filetest.Snapshot(t, root)
			out, failed := inProcess(t, root, time.Now)(tt.tool, tt.args)
			if tt.code != "" {
				require.True(t, failed, "%v", out)
				assert.True(t, strings.HasPrefix(out["error"].(string), tt.code+": "), out["error"])
				assert.Equal(t, before, filetest.Snapshot(t, root))
				return
			}
			require.False(t, failed, "%v", out)
			tt.check(t, filetest.Snapshot(t, root))
		})
	}
}
