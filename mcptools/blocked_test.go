package mcptools

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// An agent's claim, status update and start of a task whose dependency is
// not done are TASK_BLOCKED, and change no file: no MCP tool can take up a
// task out of order.
func TestToolsRefuseBlockedTask(t *testing.T) {
	root := t.TempDir()
	s := serveSessions(t, root, newManualClock().Now, 1)[0]
	const wf = "/release.md"
	s.ok("workflow_create", map[string]any{"name": "Release", "path": wf}, nil)
	s.ok("workflow_set_plan", map[string]any{"workflow_id": wf, "tasks": []map[string]any{
		{"name": "First"}, {"name": "Second", "depends_on": []string{"First"}},
	}}, nil)
	me := s.register("worker")
	before := filetest.Snapshot(t, root)
	assert.Equal(t, "TASK_BLOCKED", s.fail("task_claim", map[string]any{"task_id": wf + "#second", "agent_id": me}))
	assert.Equal(t, "TASK_BLOCKED", s.fail("task_update_status", map[string]any{"id": wf + "#second", "status": "in_progress"}))
	assert.Equal(t, "TASK_BLOCKED", s.fail("start_subagent_task", map[string]any{"document": wf + "#second"}))
	assert.Equal(t, before, filetest.Snapshot(t, root))
}
