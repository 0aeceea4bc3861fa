package mcptools

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
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

// TestArchiveLeavesHeldPlansAlone: document_archive of a plan one of
// whose tasks an agent holds is STALE_CLAIM and moves nothing, as the
// removal of that task is; once the holder lets go it is archived.
func TestArchiveLeavesHeldPlansAlone(t *testing.T) {
	e := setupIdentity(t, 1)
	stranger := e.others[0]
	before := filetest.Snapshot(t, e.root)
	assert.Equal(t, "STALE_CLAIM", stranger.fail("task_remove", map[string]any{"task": e.first, "force": true}))
	assert.Equal(t, "STALE_CLAIM", stranger.fail("document_archive", map[string]any{"document": "/release.md"}))
	assert.Equal(t, before, filetest.Snapshot(t, e.root))
	e.holder.ok("task_release", map[string]any{"task_id": e.first}, nil)
	stranger.ok("document_archive", map[string]any{"document": "/release.md"}, nil)
}

// TestCheckpointSaveOnlyAsItsAgent: an agent's session saves its own
// worker checkpoints only; another worker's is refused and nothing is
// written.
func TestCheckpointSaveOnlyAsItsAgent(t *testing.T) {
	e := setupIdentity(t, 1)
	stranger := e.others[0]
	stranger.register("other")
	before := filetest.Snapshot(t, e.root)
	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("checkpoint_save", map[string]any{"worker_id": e.me, "task_id": e.first, "phase": "working",
		"resume_instructions": "start over"}))
	assert.Equal(t, before, filetest.Snapshot(t, e.root))
	e.holder.ok("checkpoint_save", map[string]any{"worker_id": e.me, "task_id": e.first, "phase": "working", "resume_instructions": "go on"}, nil)
}
