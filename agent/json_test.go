package agent_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
)

// TestJSONNames pins the JSON form of Agent, Registration and
// HeartbeatInfo: the names of the agent files and of the protocol's tools,
// with Online, which the files do not store.
func TestJSONNames(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"agent", agent.Agent{ID: "ag_0123456789ab", Name: "worker-1", Runtime: "claude_code", Role: "worker",
			Capabilities: []string{"go"}, WorkspacePath: "/src", Metadata: map[string]string{"k": "v"},
			Registered: at, LastHeartbeat: at.Add(time.Minute), CurrentTask: "/a.md#x", Status: "busy", Online: true},
			`{"id":"ag_0123456789ab","name":"worker-1","runtime":"claude_code","role":"worker","capabilities":["go"],
			"workspace_path":"/src","metadata":{"k":"v"},"registered":"2026-11-22T09:30:00Z","last_heartbeat":"2026-11-22T09:31:00Z",
			"current_task":"/a.md#x","status":"busy","online":true}`},
		{"offline agent", agent.Agent{ID: "w1", Name: "w", Runtime: "r", Role: "worker", Registered: at, LastHeartbeat: at},
			`{"id":"w1","name":"w","runtime":"r","role":"worker","registered":"2026-11-22T09:30:00Z","last_heartbeat":"2026-11-22T09:30:00Z","online":false}`},
		{"registration", agent.Registration{ID: "w1", Name: "w", Runtime: "r", Capabilities: []string{"go"}},
			`{"id":"w1","name":"w","runtime":"r","capabilities":["go"]}`},
		{"heartbeat", agent.HeartbeatInfo{CurrentTask: "/a.md#x", Status: "busy"}, `{"current_task":"/a.md#x","status":"busy"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
