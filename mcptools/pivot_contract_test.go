package mcptools

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// pivot_worker refuses a reason or new_task with a control character,
// naming the field, and records nothing: the worker is asked nothing, and
// no acknowledgement is left to fail.
func TestPivotWorkerRefusesControlCharacters(t *testing.T) {
	for field, args := range map[string]map[string]any{
		"reason":   {"reason": "stop\x00now"},
		"new_task": {"reason": "stop", "new_task": "\x1b[31mfix login"},
	} {
		e := setupPivot(t, 2)
		args["worker_id"], args["wait_seconds"] = e.worker, 0
		_, toolErr, err := e.orch.try("pivot_worker", args)
		assert.NoError(t, err)
		assert.Regexp(t, `^CONTROL_CHARACTER: .*`+field, toolErr)
		_, err = os.Stat(filepath.Join(e.root, "checkpoints", "workers", e.worker, "pivot.json"))
		assert.True(t, os.IsNotExist(err), "no pivot request for %s", field)
		assert.Equal(t, "INVALID_ARGUMENTS", e.wk.fail("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{"completed": []string{"a"}}}),
			"no pivot was asked of the worker")
	}
}

// A clarification_ask refused for its checkpoint leaves no request: the
// parent's clarification_check lists nothing open.
func TestClarificationAskRefusedForItsCheckpointLeavesNoQuestion(t *testing.T) {
	e := setupPivot(t, 2)
	assert.Equal(t, "CONTROL_CHARACTER", e.wk.fail("clarification_ask", map[string]any{"id": "cl_key",
		"questions": []map[string]any{{"text": "Per user or per IP?"}}, "task_id": e.rateLimiting,
		"checkpoint": map[string]any{"original_task": "limit\x00 it", "remaining": []string{"Middleware"}}}))
	var open struct {
		Open []clarificationJSON `json:"open"`
	}
	e.orch.ok("clarification_check", map[string]any{}, &open)
	assert.Empty(t, open.Open)
	_, err := os.Stat(filepath.Join(e.root, "checkpoints", "workers", e.worker, "clarifications", "cl_key.json"))
	assert.True(t, os.IsNotExist(err))
	assert.Equal(t, "DOCUMENT_NOT_FOUND", e.wk.fail("clarification_check", map[string]any{"id": "cl_key"}))
}

// clarification_respond records resume_instructions.checkpoint_path: by
// default the checkpoint the suspended worker saved; one given must be a
// worker checkpoint of the workspace, or nothing is written.
func TestClarificationRespondCheckpointPath(t *testing.T) {
	e := setupPivot(t, 2)
	e.timer.fire <- time.Time{}
	var asked askJSON
	e.wk.ok("clarification_ask", map[string]any{"id": "cl_burst", "questions": []map[string]any{{"text": "Allow bursts?"}},
		"task_id": e.rateLimiting, "wait_seconds": 5, "checkpoint": map[string]any{"remaining": []string{"Middleware"}}}, &asked)
	require.Equal(t, "suspended", asked.Status)
	path := "checkpoints/workers/" + e.worker + "/000001.md"
	answer := filepath.Join(e.root, "checkpoints", "workers", e.worker, "clarifications", "cl_burst.answer.json")
	respond := func(checkpointPath string) map[string]any {
		args := map[string]any{"worker_id": e.worker, "id": "cl_burst",
			"responses": []map[string]any{{"question_id": "Q1", "answer": "Yes"}}}
		if checkpointPath != "" {
			args["checkpoint_path"] = checkpointPath
		}
		return args
	}
	for bad, code := range map[string]string{
		"../docs/shop.md":                      "INVALID_ARGUMENTS",
		filepath.Join(e.root, path):            "INVALID_ARGUMENTS",
		"checkpoints/workers/nobody/000001.md": "DOCUMENT_NOT_FOUND",
	} {
		assert.Equal(t, code, e.orch.fail("clarification_respond", respond(bad)), bad)
		_, err := os.Stat(answer)
		assert.True(t, os.IsNotExist(err), "no answer written for %q", bad)
	}
	var got struct {
		Answer struct {
			ResumeInstructions struct {
				CheckpointPath string `json:"checkpoint_path"`
			} `json:"resume_instructions"`
		} `json:"answer"`
	}
	e.orch.ok("clarification_respond", respond(""), &got)
	assert.Equal(t, path, got.Answer.ResumeInstructions.CheckpointPath)
	e.orch.ok("clarification_respond", respond(path), &got)
	assert.Equal(t, path, got.Answer.ResumeInstructions.CheckpointPath, "the same path given is a retry")
	data, err := os.ReadFile(answer)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"checkpoint_path": "`+path+`"`)
}

// checkpoint_list without worker_id and task_id lists every worker's
// checkpoints, by worker, each newest first, limit of each, as the same
// objects the list of one worker has.
func TestCheckpointListOfEveryWorker(t *testing.T) {
	e := setupPivot(t, 3)
	other := e.others[0]
	otherID := other.register("worker-2")
	save := func(s *mcpSession, completed string) {
		s.ok("checkpoint_save", map[string]any{"status": "PARTIAL", "phase": "working", "completed": []string{completed}}, nil)
	}
	save(e.wk, "a")
	save(e.wk, "b")
	save(other, "c")
	type listJSON struct {
		WorkerID          string                 `json:"worker_id"`
		Count             int                    `json:"count"`
		WorkerCheckpoints []workerCheckpointJSON `json:"worker_checkpoints"`
	}
	var mine, theirs, all listJSON
	e.orch.ok("checkpoint_list", map[string]any{"worker_id": e.worker}, &mine)
	e.orch.ok("checkpoint_list", map[string]any{"worker_id": otherID}, &theirs)
	e.orch.ok("checkpoint_list", map[string]any{}, &all)
	want := append(mine.WorkerCheckpoints, theirs.WorkerCheckpoints...)
	if otherID < e.worker {
		want = append(theirs.WorkerCheckpoints, mine.WorkerCheckpoints...)
	}
	assert.Len(t, want, 3)
	assert.Equal(t, want, all.WorkerCheckpoints)
	assert.Equal(t, 3, all.Count)

	e.orch.ok("checkpoint_list", map[string]any{"limit": 1}, &all)
	require.Len(t, all.WorkerCheckpoints, 2, "the newest of each")
	for _, c := range all.WorkerCheckpoints {
		if c.WorkerID == e.worker {
			assert.Equal(t, mine.WorkerCheckpoints[0], c)
		}
	}
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("checkpoint_list", map[string]any{"types": []string{"decision"}}))
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("checkpoint_list", map[string]any{"limit": -1}))
}

// pivot_acknowledge refused (the new task blocked, or held by another
// agent) leaves every file as it was: no checkpoint saved, the worker's
// task still in progress under its claim.
func TestPivotAcknowledgeRefusedChangesNothing(t *testing.T) {
	for name, want := range map[string]string{"blocked": "TASK_BLOCKED", "held": "CONFLICT"} {
		t.Run(name, func(t *testing.T) {
			e := setupPivot(t, 3)
			newTask := e.fixLogin
			if name == "blocked" {
				newTask = "/shop.md#deploy"
				filetest.Write(t, e.root, "docs/shop.md", filetest.Read(t, e.root, "docs/shop.md")+
					"\n### Deploy\n- Status: pending\n- Depends-On: #add-rate-limiting\n")
			} else {
				id := e.others[0].register("worker-2")
				var claim claimJSON
				e.others[0].ok("task_claim", map[string]any{"task_id": e.fixLogin, "agent_id": id}, &claim)
				require.True(t, claim.Success)
			}
			e.orch.ok("pivot_worker", map[string]any{"worker_id": e.worker, "reason": "stop", "new_task": newTask, "wait_seconds": 0}, nil)
			before := filetest.Snapshot(t, e.root)
			for range 2 {
				assert.Equal(t, want, e.wk.fail("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{"completed": []string{"half"}}}))
				assert.Equal(t, before, filetest.Snapshot(t, e.root), "a refused acknowledgement writes nothing")
			}
		})
	}
}

// pivot_worker without task_id, for a worker whose last heartbeat names a
// task it has completed since, pivots it from no task: the worker's
// pivot_acknowledge claims the new task instead of ending in STALE_CLAIM.
func TestPivotWorkerAfterTheHeartbeatTaskIsDone(t *testing.T) {
	e := setupPivot(t, 2)
	e.wk.ok("task_update_status", map[string]any{"id": e.rateLimiting, "status": "completed", "outcome": "done"}, nil)
	var res pivotWorkerJSON
	e.orch.ok("pivot_worker", map[string]any{"worker_id": e.worker, "reason": "stop", "new_task": e.fixLogin, "wait_seconds": 0}, &res)
	require.Len(t, res.Pivots, 1)
	assert.Empty(t, res.Pivots[0].Request.TaskID)
	var ack pivotAckJSON
	e.wk.ok("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{"completed": []string{"rate limiting"}}}, &ack)
	assert.Equal(t, "acknowledged", ack.Request.State)
	require.NotNil(t, ack.Request.NewClaim)
	assert.Equal(t, e.fixLogin, ack.Request.NewClaim.TaskID)
}
