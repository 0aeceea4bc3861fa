package archive_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/archive"
	"github.com/taskmd/taskmd/coordinator"
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
		{"coordinator", coordinator.File, finishedList, func(ws *workspace.Workspace) error {
			_, err := archive.Coordinator(bg, ws, now)
			return err
		}},
		{"recover", coordinator.File, finishedList, func(ws *workspace.Workspace) error {
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

// Several Workspace values (as several processes would) recovering one
// finished list at once make exactly one archive and report no error.
func TestConcurrentRecover(t *testing.T) {
	_, root := newWorkspace(t, map[string]string{coordinator.File: finishedList})
	var wg sync.WaitGroup
	for range 8 {
		ws, err := workspace.Open(root)
		require.NoError(t, err)
		defer ws.Close()
		wg.Go(func() { assert.NoError(t, archive.Recover(bg, ws)) })
	}
	wg.Wait()
	_, active := readFile(t, root, coordinator.File)
	assert.False(t, active)
	archived := filesUnder(t, root, "archived/coordinator")
	require.Len(t, archived, 1)
	text, _ := readFile(t, root, archived[0])
	assert.Equal(t, finishedList, text)
}

// A file that cannot be read where archives live must not stop the list
// from being archived (Recover runs before every coordinator operation), nor
// a document from being archived.
func TestUnreadableArchivesArePassedOver(t *testing.T) {
	t.Run("coordinator", func(t *testing.T) {
		broken := "archived/coordinator/active-2026-11-21-170000.md"
		ws, root := newWorkspace(t, map[string]string{coordinator.File: finishedList, broken: "# Broken \xff\n"})
		require.NoError(t, archive.Recover(bg, ws))
		_, active := readFile(t, root, coordinator.File)
		assert.False(t, active)
		archived := filesUnder(t, root, "archived/coordinator")
		require.Len(t, archived, 2)
		text, _ := readFile(t, root, archived[1])
		assert.Equal(t, finishedList, text)
	})
	t.Run("document", func(t *testing.T) {
		ws, root := newWorkspace(t, map[string]string{"docs/a.md": "# A\n", "archived/docs/a.md/x": "folder"})
		name, err := archive.Document(bg, ws, "/a.md")
		require.NoError(t, err)
		assert.Equal(t, "archived/docs/a-2.md", name)
		text, _ := readFile(t, root, name)
		assert.Equal(t, "# A\n", text)
		_, exists := readFile(t, root, "docs/a.md")
		assert.False(t, exists)
	})
}
