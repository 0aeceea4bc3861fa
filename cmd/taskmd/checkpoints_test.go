package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/workspace"
)

// checkpoint list without --worker lists every worker's checkpoints, by
// worker, each newest first: what the lists of each worker hold, in one.
func TestCheckpointListOfEveryWorker(t *testing.T) {
	root := newWorkspace(t)
	workerState(t, root)
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	_, err = checkpoint.New(ws).Save(context.Background(), checkpoint.Checkpoint{Worker: "w1", Phase: "working",
		Completed: []string{"setup"}})
	require.NoError(t, err)
	require.NoError(t, ws.Close())

	list := func(args ...string) []map[string]any {
		t.Helper()
		r := taskmd(t, root, "", append([]string{"--json", "checkpoint", "list"}, args...)...)
		require.Equal(t, 0, r.exit, r.stderr)
		var out struct {
			Checkpoints []map[string]any `json:"checkpoints"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
		return out.Checkpoints
	}
	w1, w2 := list("--worker", "w1"), list("--worker", "w2")
	require.Len(t, w1, 1)
	require.Len(t, w2, 2)
	assert.Equal(t, append(w1, w2...), list())
	assert.Equal(t, append(w1, w2[0]), list("--limit", "1"))

	r := taskmd(t, root, "", "checkpoint", "list")
	assert.Equal(t, 0, r.exit)
	assert.Contains(t, r.stdout, "w1")
	assert.Contains(t, r.stdout, "w2")
	assert.Equal(t, exitUsage, taskmd(t, root, "", "checkpoint", "list", "--types", "decision").exit)
}
