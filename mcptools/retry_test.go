package mcptools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// Calls sent again after a lost answer are answered with the earlier
// result: complete_subagent_task with the same note, and
// complete_coordinator_task with the same request_key, which would
// otherwise complete the next task.
func TestRetriedCompletes(t *testing.T) {
	root := newRoot(t, map[string]string{
		"docs/api.md": "# API\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n",
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: in_progress\n- Main-Workflow: tdd\n\n" +
			"### Follow\n\n- Status: pending\n",
	})
	call := inProcess(t, root, time.Now)

	first, failed := call("complete_subagent_task", map[string]any{"document": "/api.md#sign-tokens", "note": "signed"})
	require.False(t, failed)
	again, failed := call("complete_subagent_task", map[string]any{"document": "/api.md#sign-tokens", "note": "signed"})
	require.False(t, failed)
	assert.Equal(t, true, again["replayed"])
	assert.Equal(t, first["completed_task"], again["completed_task"])

	args := map[string]any{"note": "led", "request_key": "k-1"}
	done, failed := call("complete_coordinator_task", args)
	require.False(t, failed)
	retried, failed := call("complete_coordinator_task", args)
	require.False(t, failed)
	assert.Equal(t, true, retried["replayed"])
	assert.Equal(t, done["completed_task"], retried["completed_task"])
	assert.Contains(t, filetest.Snapshot(t, root)["coordinator/active.md"], "### Follow\n\n- Status: in_progress\n",
		"the retry did not complete the next task")
}

// An edit carrying content read before the task was completed is refused;
// reopen: true says the caller means it.
func TestStaleEditRefused(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/api.md": "# API\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n"})
	call := inProcess(t, root, time.Now)
	_, failed := call("complete_subagent_task", map[string]any{"document": "/api.md#sign-tokens", "note": "signed"})
	require.False(t, failed)
	before := filetest.Snapshot(t, root)
	edit := map[string]any{"operation": "edit", "task": "sign-tokens", "content": "- Status: pending\n\nAgain."}
	_, failed = call("subagent_task", map[string]any{"document": "/api.md", "operations": []any{edit}})
	assert.True(t, failed)
	assert.Equal(t, before, filetest.Snapshot(t, root))
	edit["reopen"] = true
	_, failed = call("subagent_task", map[string]any{"document": "/api.md", "operations": []any{edit}})
	assert.False(t, failed)
	assert.Contains(t, filetest.Snapshot(t, root)["docs/api.md"], "- Status: pending\n\nAgain.")
}

// view_* shows each task's version; an edit with if_version is refused
// with CONFLICT once the task changed.
func TestEditIfVersionOverMCP(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/api.md": "# API\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n"})
	call := inProcess(t, root, time.Now)
	viewed, failed := call("view_subagent_task", map[string]any{"document": "/api.md"})
	require.False(t, failed)
	version := viewed["tasks"].([]any)[0].(map[string]any)["version"]
	require.NotEmpty(t, version)
	edit := map[string]any{"operation": "edit", "task": "sign-tokens", "content": "- Status: blocked", "if_version": version}
	_, failed = call("subagent_task", map[string]any{"document": "/api.md", "operations": []any{edit}})
	require.False(t, failed)
	edit["content"] = "- Status: pending\n\nStale."
	res, failed := call("subagent_task", map[string]any{"document": "/api.md", "operations": []any{edit}})
	assert.True(t, failed, "%v", res)
	assert.Contains(t, filetest.Snapshot(t, root)["docs/api.md"], "- Status: blocked\n")
}

// complete_coordinator_task with include_full_workflow whose next task
// references a symbolic link fails before anything is written: the retry
// completes the same task, not the next one.
func TestCompleteWithBrokenNextContextChangesNothing(t *testing.T) {
	root := newRoot(t, map[string]string{
		"docs/elsewhere.md": "# Elsewhere\n",
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: in_progress\n- Main-Workflow: tdd\n\n" +
			"### Next\n\n- Status: pending\n\nRead @/spec.md first.\n",
	})
	require.NoError(t, os.Symlink("elsewhere.md", filepath.Join(root, "docs", "spec.md")))
	call := inProcess(t, root, time.Now)
	before := filetest.Snapshot(t, root)
	out, failed := call("complete_coordinator_task", map[string]any{"note": "led", "include_full_workflow": true})
	require.True(t, failed, "%v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "SYMLINK_REFUSED: "), out["error"])
	assert.Equal(t, before, filetest.Snapshot(t, root))

	require.NoError(t, os.Remove(filepath.Join(root, "docs", "spec.md")))
	done, failed := call("complete_coordinator_task", map[string]any{"note": "led", "include_full_workflow": true})
	require.False(t, failed, "%v", done)
	assert.Equal(t, "lead", done["completed_task"].(map[string]any)["slug"])
}

// The complete_coordinator_task call that finished the list lost its
// answer; meanwhile the agent's next plan was created. The retry with the
// same request_key must be answered with the first completion, not
// complete the new plan's first task.
func TestRetryRequestKeyAfterNewList(t *testing.T) {
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
func TestRetryReplayedNextTaskWorkflow(t *testing.T) {
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

// A request_key names one completion: reused with another note (a careless
// agent sending one key for every completion), the call is refused with
// CONFLICT and nothing is written, in the list and after it was archived,
// rather than answered with the first completion as if the new one were
// made; the call repeated as it was is still answered with it.
func TestRequestKeyReusedWithAnotherNote(t *testing.T) {
	root := newRoot(t, map[string]string{
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: in_progress\n- Main-Workflow: tdd\n\n" +
			"### Follow\n\n- Status: pending\n",
	})
	call := inProcess(t, root, time.Now)
	first := map[string]any{"note": "led", "request_key": "k-1"}
	done, failed := call("complete_coordinator_task", first)
	require.False(t, failed, "%v", done)
	require.Equal(t, "lead", done["completed_task"].(map[string]any)["slug"])

	before := filetest.Snapshot(t, root)
	out, failed := call("complete_coordinator_task", map[string]any{"note": "followed", "request_key": "k-1"})
	require.True(t, failed, "a reused key was answered: %v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "CONFLICT: "), out["error"])
	assert.Contains(t, out["error"], `"lead"`)
	assert.Equal(t, before, filetest.Snapshot(t, root))

	retried, failed := call("complete_coordinator_task", first)
	require.False(t, failed, "%v", retried)
	assert.Equal(t, true, retried["replayed"])

	// The key's record answers once the list is archived: so does the refusal.
	last, failed := call("complete_coordinator_task", map[string]any{"note": "followed", "request_key": "k-2"})
	require.False(t, failed, "%v", last)
	require.Equal(t, true, last["archived"])
	before = filetest.Snapshot(t, root)
	out, failed = call("complete_coordinator_task", map[string]any{"note": "again", "request_key": "k-2"})
	require.True(t, failed, "a reused key was answered: %v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "CONFLICT: "), out["error"])
	assert.Equal(t, before, filetest.Snapshot(t, root))
	retried, failed = call("complete_coordinator_task", map[string]any{"note": "followed", "request_key": "k-2"})
	require.False(t, failed, "%v", retried)
	assert.Equal(t, true, retried["replayed"])
}
