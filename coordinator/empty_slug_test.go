package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// An empty slug names no task: every call that takes a slug refuses it as
// INVALID_ADDRESS, never TASK_NOT_FOUND, which reads as a task that is gone
// (a removal that already happened), and nothing is written.
func TestEmptySlugIsInvalidAddress(t *testing.T) {
	text := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Main-Workflow: m\n"
	list, _, root := openList(t, map[string]string{coordinator.File: text})
	for _, slug := range []string{"", "  "} {
		_, err := list.Remove(bg, slug, taskdoc.Removal{Force: true})
		requireCode(t, err, taskdoc.CodeInvalidAddress)
		_, err = list.SetStatus(bg, slug, taskdoc.StatusBlocked, "why")
		requireCode(t, err, taskdoc.CodeInvalidAddress)
		_, err = list.Edit(bg, slug, taskdoc.Edit{Title: "x"})
		requireCode(t, err, taskdoc.CodeInvalidAddress)
		_, err = list.View(bg, slug)
		requireCode(t, err, taskdoc.CodeInvalidAddress)
	}
	assert.Equal(t, text, mustRead(t, root, coordinator.File))

	none, _, _ := openList(t, nil)
	_, err := none.Remove(bg, "", taskdoc.Removal{})
	requireCode(t, err, taskdoc.CodeInvalidAddress)
}
