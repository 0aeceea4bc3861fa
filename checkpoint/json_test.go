package checkpoint_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
)

// TestJSONNames pins the JSON form of worker diffs and sections, and that a Checkpoint inside another value keeps the checkpoint-resume protocol's form.
func TestJSONNames(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"diff", checkpoint.Changes{FromSequence: 1, ToSequence: 2, OldStatus: "PARTIAL", NewStatus: "DONE",
			OldPhase: "working", NewPhase: "done", Finished: []string{"a"}, Started: []string{"b"},
			Added:        []checkpoint.ItemChange{{Section: "Remaining", Text: "c"}},
			Dropped:      []checkpoint.ItemChange{{Section: "In Progress", Text: "d"}},
			NewFiles:     []checkpoint.FileChange{{Path: "x.go", Note: "new"}, {Path: "y.go"}},
			NewDecisions: []string{"e"}},
			`{"from_sequence":1,"to_sequence":2,"old_status":"PARTIAL","new_status":"DONE","old_phase":"working","new_phase":"done",
			"finished":["a"],"started":["b"],"added":[{"section":"Remaining","text":"c"}],"dropped":[{"section":"In Progress","text":"d"}],
			"new_files":[{"path":"x.go","note":"new"},{"path":"y.go"}],"new_decisions":["e"]}`},
		{"section", checkpoint.Section{Heading: "Links", Body: "- a"}, `{"heading":"Links","body":"- a"}`},
		{"checkpoint inside a value", struct {
			Checkpoint checkpoint.Checkpoint `json:"checkpoint"`
		}{checkpoint.Checkpoint{Worker: "w1", Task: "/a.md#x", Status: "PARTIAL", Phase: "working", Time: at, Sequence: 2,
			Completed: []string{"a"}, Remaining: []string{"b"}, Decisions: []string{"c"}, Resumption: "go on"}},
			`{"checkpoint":{"agentId":"w1","timestamp":"2026-11-22T09:30:00Z","phase":"working",
			"workState":{"completed":["a"],"inProgress":[],"blocked":[],"parallelWorkAvailable":[]},
			"context":{"task":"/a.md#x","remaining":["b"],"decisions":["c"]},
			"resumeInstructions":{"text":"go on"},
			"metadata":{"status":"PARTIAL","sequence":2}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}

// TestWorkerCheckpointJSONRoundTrip reads back what MarshalJSON writes,
// and refuses a checkpoint that JSON refuses.
func TestWorkerCheckpointJSONRoundTrip(t *testing.T) {
	in := checkpoint.Checkpoint{Worker: "w1", Status: "BLOCKED", Time: time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC),
		Sequence: 4, Blocked: []string{"the key"}, FilesChanged: []checkpoint.FileChange{{Path: "a.go", Note: "modified"}}}
	data, err := json.Marshal(in)
	require.NoError(t, err)
	var out checkpoint.Checkpoint
	require.NoError(t, json.Unmarshal(data, &out))
	assert.Equal(t, in, out)

	_, err = json.Marshal(checkpoint.Checkpoint{Worker: "Not An Id"})
	require.Error(t, err)
	require.Error(t, json.Unmarshal([]byte(`{"agentId": 5}`), &out))
}
