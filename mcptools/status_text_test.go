package mcptools

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// task_update_status records outcome with completed only: with another
// status it is refused with INVALID_ARGUMENTS and writes nothing, rather
// than moving the task and dropping what the agent meant to leave. With
// blocked, error is the reason, kept until the task leaves blocked.
func TestUpdateStatusTextGoesWithItsStatus(t *testing.T) {
	e := setupIdentity(t, 0)
	before := filetest.Snapshot(t, e.root)
	for _, args := range []map[string]any{
		{"task_id": e.first, "status": "paused", "outcome": "half the routes done"},
		{"task_id": e.first, "status": "blocked", "outcome": "half the routes done", "error": "no keys"},
		{"task_id": e.first, "status": "failed", "outcome": "half done", "error": "disk full"},
	} {
		_, toolErr, err := e.holder.try("task_update_status", args)
		require.NoError(t, err)
		require.NotEmpty(t, toolErr, "%v was answered", args)
		assert.True(t, strings.HasPrefix(toolErr, "INVALID_ARGUMENTS: "), toolErr)
		assert.Equal(t, before, filetest.Snapshot(t, e.root), "%v wrote", args)
	}

	var done taskUpdateJSON
	e.holder.ok("task_update_status", map[string]any{"task_id": e.first, "status": "blocked", "error": "waiting for the signing keys"}, &done)
	assert.Equal(t, "blocked", done.Task.Status)
	doc := func() string { return filetest.Read(t, e.root, "docs/release.md") }
	assert.Contains(t, doc(), "- Blocked: waiting for the signing keys\n")
	e.holder.ok("task_update_status", map[string]any{"task_id": e.first, "status": "blocked", "error": "the keys are late"}, &done)
	assert.Contains(t, doc(), "- Blocked: the keys are late\n", "a new reason is recorded")
	assert.NotContains(t, doc(), "signing keys")
	e.holder.ok("task_update_status", map[string]any{"task_id": e.first, "status": "in_progress"}, &done)
	assert.Equal(t, "in_progress", done.Task.Status)
	assert.NotContains(t, doc(), "- Blocked:", "the reason goes with the status")
}
