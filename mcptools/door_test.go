package mcptools

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/internal/filetest"
)

// TestSessionStartsNoWorkByEdit: an agent's session without a claim
// starts no work, whichever tool it uses: start_subagent_task and an edit
// of subagent_task that writes the Status are both STALE_CLAIM, and
// nothing is written.
func TestSessionStartsNoWorkByEdit(t *testing.T) {
	root := t.TempDir()
	s := serveSessions(t, root, newManualClock().Now, 1)[0]
	const wf = "/release.md"
	s.ok("workflow_create", map[string]any{"name": "Release", "path": wf}, nil)
	s.ok("workflow_set_plan", map[string]any{"workflow_id": wf, "tasks": []map[string]any{{"name": "First"}}}, nil)
	s.register("worker")
	before := filetest.Snapshot(t, root)
	assert.Equal(t, "STALE_CLAIM", s.fail("start_subagent_task", map[string]any{"document": wf + "#first"}))
	assert.Equal(t, "STALE_CLAIM", s.fail("subagent_task", map[string]any{"document": wf, "operations": []map[string]any{
		{"operation": "edit", "task": "first", "content": "- Status: in_progress\n"}}}))
	assert.Equal(t, before, filetest.Snapshot(t, root))
}
