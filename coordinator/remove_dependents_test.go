package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// A task of the list that documents under docs/ depend on by its address
// is removed only when forced.
func TestRemoveDependedOnFromDocs(t *testing.T) {
	text := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Main-Workflow: m\n\n### B\n\nb\n"
	list, _, root := openList(t, map[string]string{
		coordinator.File: text,
		"docs/api.md":    "## Tasks\n\n### D\n\n- Depends-On: /Coordinator/active.md#b\n",
	})
	_, err := list.Remove(bg, "b", taskdoc.Removal{})
	e := requireCode(t, err, taskdoc.CodeInvalidTask)
	assert.Contains(t, e.Msg, "/api.md#d")
	assert.Equal(t, text, mustRead(t, root, coordinator.File))

	_, err = list.Remove(bg, "b", taskdoc.Removal{Force: true})
	require.NoError(t, err)
	assert.NotContains(t, mustRead(t, root, coordinator.File), "### B")
}
