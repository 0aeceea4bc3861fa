package coordinator_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// goldenList reads a hand-written list from testdata/remove.
func goldenList(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "remove", name))
	require.NoError(t, err)
	return string(data)
}

func TestRemoveGolden(t *testing.T) {
	for _, tt := range []struct {
		slug, golden string
	}{
		// Removing the first task hands its Main-Workflow to the next one.
		{"design-the-api", "remove-first.md"},
		{"build-it", "remove-middle.md"},
	} {
		t.Run(tt.slug, func(t *testing.T) {
			list, _, root := openList(t, map[string]string{coordinator.File: goldenList(t, "list.md")})
			removed, err := list.Remove(bg, tt.slug, taskdoc.Removal{})
			require.NoError(t, err)
			assert.Equal(t, tt.slug, removed.Slug)
			assert.Equal(t, goldenList(t, tt.golden), mustRead(t, root, coordinator.File))

			_, err = list.Remove(bg, tt.slug, taskdoc.Removal{})
			requireCode(t, err, taskdoc.CodeTaskNotFound)
			assert.Equal(t, goldenList(t, tt.golden), mustRead(t, root, coordinator.File), "a retry changes nothing")
		})
	}
}

func TestRemoveRefusals(t *testing.T) {
	text := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: in_progress\n- Main-Workflow: m\n\n### B\n\n- Depends-On: #c\n\n### C\n"
	list, _, root := openList(t, map[string]string{coordinator.File: text})
	for _, tt := range []struct {
		slug string
		code taskdoc.Code
	}{
		{"a", taskdoc.CodeInvalidTransition},
		{"c", taskdoc.CodeInvalidTask},
		{"#b", taskdoc.CodeNoSlugAllowed},
		{"zz", taskdoc.CodeTaskNotFound},
	} {
		_, err := list.Remove(bg, tt.slug, taskdoc.Removal{})
		requireCode(t, err, tt.code)
		assert.Equal(t, text, mustRead(t, root, coordinator.File))
	}
	_, err := list.Remove(bg, "a", taskdoc.Removal{Force: true})
	require.NoError(t, err)
	assert.Equal(t, "# Coordinator Tasks\n\n## Tasks\n\n### B\n\n- Depends-On: #c\n- Main-Workflow: m\n\n### C\n", mustRead(t, root, coordinator.File))

	none, _, _ := openList(t, nil)
	_, err = none.Remove(bg, "a", taskdoc.Removal{})
	requireCode(t, err, taskdoc.CodeTaskNotFound)
}

func TestSetStatusList(t *testing.T) {
	list, _, root := openList(t, map[string]string{coordinator.File: goldenList(t, "list.md")})
	// Reopen the completed task: its outcome goes, nothing else changes.
	got, err := list.SetStatus(bg, "ship-it", taskdoc.StatusPending, "")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPending, got.Status)
	assert.Equal(t, goldenList(t, "reopen-last.md"), mustRead(t, root, coordinator.File))
	again, err := list.SetStatus(bg, "ship-it", taskdoc.StatusPending, "")
	require.NoError(t, err)
	assert.Equal(t, got, again)

	// Block and unblock the first task: it keeps its Main-Workflow.
	blocked, err := list.SetStatus(bg, "design-the-api", taskdoc.StatusBlocked, "waiting for review")
	require.NoError(t, err)
	assert.Equal(t, "waiting for review", field(t, blocked, taskdoc.KeyBlocked))
	assert.Equal(t, "tdd-incremental-orchestration", field(t, blocked, taskdoc.KeyMainWorkflow))
	_, err = list.SetStatus(bg, "design-the-api", taskdoc.StatusPending, "")
	require.NoError(t, err)
	assert.Equal(t, goldenList(t, "reopen-last.md"), mustRead(t, root, coordinator.File))

	_, err = list.SetStatus(bg, "#ship-it", taskdoc.StatusPending, "")
	requireCode(t, err, taskdoc.CodeNoSlugAllowed)
	_, err = list.SetStatus(bg, "ship-it", taskdoc.StatusCompleted, "")
	requireCode(t, err, taskdoc.CodeInvalidTransition)
}
