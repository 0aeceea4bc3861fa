package mcptools

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// The complete_coordinator_task call that finished the list lost its
// answer; meanwhile the agent's next plan was created. The retry with the
// same request_key must be answered with the first completion, not
// complete the new plan's first task.
func TestRetryEdgeRequestKeyAfterNewList(t *testing.T) {
	root := newRoot(t, map[string]string{
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: in_progress\n- Main-Workflow: tdd\n",
	})
	call := inProcess(t, root, time.Now)
	args := map[string]any{"note": "led", "request_key": "k-1"}
	done, failed := call("complete_coordinator_task", args)
	require.False(t, failed, "%v", done)
	require.Equal(t, true, done["archived"])

	create := map[string]any{"operation": "create", "title": "Plan two", "content": "- Status: pending\n- Main-Workflow: tdd"}
	res, failed := call("coordinator_task", map[string]any{"operations": []any{create}})
	require.False(t, failed, "%v", res)

	retried, failed := call("complete_coordinator_task", args)
	require.False(t, failed, "%v", retried)
	assert.Equal(t, true, retried["replayed"], "%v", retried)
	assert.Equal(t, done["completed_task"], retried["completed_task"])
	assert.Contains(t, filetest.Snapshot(t, root)["coordinator/active.md"], "### Plan two\n\n- Status: pending\n",
		"the retry completed the new list's task")
}

// A retry with include_full_workflow is answered without the next task's
// workflow, which the lost answer carried.
func TestRetryEdgeReplayedNextTaskWorkflow(t *testing.T) {
	root := newRoot(t, map[string]string{
		"workflows/tdd.md": "# TDD\n\nRed, green, refactor.\n",
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: in_progress\n- Main-Workflow: tdd\n\n" +
			"### Follow\n\n- Status: pending\n- Workflow: tdd\n",
	})
	call := inProcess(t, root, time.Now)
	args := map[string]any{"note": "led", "request_key": "k-1", "include_full_workflow": true}
	done, failed := call("complete_coordinator_task", args)
	require.False(t, failed, "%v", done)
	require.NotNil(t, done["next_task"].(map[string]any)["workflow"])
	retried, failed := call("complete_coordinator_task", args)
	require.False(t, failed, "%v", retried)
	require.Equal(t, true, retried["replayed"])
	assert.Equal(t, done["next_task"], retried["next_task"])
}
