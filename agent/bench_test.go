package agent_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
)

// One heartbeat: stat, lock, read, decode, encode, durable write (file and
// folder fsynced), unlock.
func BenchmarkHeartbeat(b *testing.B) {
	r, _ := setup(b, newClock())
	a, err := r.Register(ctx, agent.Registration{
		Name: "worker-1", Runtime: "claude_code",
		Capabilities:  []string{"typescript", "testing"},
		WorkspacePath: "/Users/travis/projects/myapp",
	})
	require.NoError(b, err)
	info := agent.HeartbeatInfo{CurrentTask: "/api/authentication.md#implement-jwt-signing", Status: "busy"}
	for b.Loop() {
		if _, err := r.Heartbeat(ctx, a.ID, info); err != nil {
			b.Fatal(err)
		}
	}
}

// Heartbeats of 8 agents at once: they do not wait for each other's locks,
// only for the disk.
func BenchmarkHeartbeatParallel(b *testing.B) {
	r, _ := setup(b, newClock())
	ids := make(chan string, 64)
	for i := range cap(ids) {
		a, err := r.Register(ctx, worker(fmt.Sprintf("w%d", i)))
		require.NoError(b, err)
		ids <- a.ID
	}
	b.SetParallelism(1) // GOMAXPROCS goroutines; raise with -cpu
	b.RunParallel(func(pb *testing.PB) {
		id := <-ids
		for pb.Next() {
			if _, err := r.Heartbeat(ctx, id, agent.HeartbeatInfo{Status: "busy"}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// List of 100 agents: one directory read and 100 file reads and decodes.
func BenchmarkList(b *testing.B) {
	c := newClock()
	r, _ := setup(b, c)
	for i := range 100 {
		_, err := r.Register(ctx, agent.Registration{
			Name: fmt.Sprintf("worker-%d", i), Runtime: "claude_code",
			Capabilities: []string{"typescript", "testing"},
		})
		require.NoError(b, err)
	}
	for b.Loop() {
		list, err := r.List(ctx, agent.ListOptions{OnlineOnly: true})
		if err != nil || len(list) != 100 {
			b.Fatal(len(list), err)
		}
	}
}

// Register of a new agent: a durable create of its file and its lock file.
func BenchmarkRegister(b *testing.B) {
	r, _ := setup(b, newClock())
	reg := worker("w")
	for b.Loop() {
		if _, err := r.Register(ctx, reg); err != nil {
			b.Fatal(err)
		}
	}
}
