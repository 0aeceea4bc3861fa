package mcptools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
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
