package archive_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/archive"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// A person (or a tool that takes no lock) may save the original while its
// archive copy is being written. Removing the original then would lose that
// edit, so it must be kept and the operation must report CONFLICT.
func TestEditDuringArchiveIsKept(t *testing.T) {
	const edited = "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: completed\n- Main-Workflow: m\n\n### added by hand\n"
	tests := []struct {
		name   string
		source string // root-relative original
		text   string
		run    func(ws *workspace.Workspace) error
	}{
		{"coordinator", archive.ActiveList, finishedList, func(ws *workspace.Workspace) error {
			_, err := archive.Coordinator(bg, ws, now)
			return err
		}},
		{"recover", archive.ActiveList, finishedList, func(ws *workspace.Workspace) error {
			return archive.Recover(bg, ws)
		}},
		{"document", "docs/api/auth.md", "# Auth\n\n## Tasks\n", func(ws *workspace.Workspace) error {
			_, err := archive.Document(bg, ws, "/api/auth.md")
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, root := newWorkspace(t, map[string]string{tt.source: tt.text})
			restore := archive.SetBeforeRemove(func() { writeFile(t, root, tt.source, edited) })
			defer restore()

			err := tt.run(ws)
			requireCode(t, err, taskdoc.CodeConflict)
			got, ok := readFile(t, root, tt.source)
			require.True(t, ok, "the edited original was removed")
			assert.Equal(t, edited, got)
			copies := filesUnder(t, root, "archived")
			require.Len(t, copies, 1)
			archived, _ := readFile(t, root, copies[0])
			assert.Equal(t, tt.text, archived, "the archive holds the version before the edit")
		})
	}
}
