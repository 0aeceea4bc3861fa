package agent_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/workspace"
)

// An agent registers, reports its work with heartbeats, goes offline when
// they stop, and unregisters. The clock is fixed so that the output is.
func Example() {
	root, err := os.MkdirTemp("", "taskmd-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	now := time.Date(2025, 10, 14, 15, 30, 45, 0, time.UTC)
	agents := agent.New(ws, agent.WithClock(func() time.Time { return now }))

	a, err := agents.Register(ctx, agent.Registration{
		Name:         "worker-1",
		Runtime:      "claude_code",
		Capabilities: []string{"typescript", "testing"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Name, a.Role, a.Online)

	now = now.Add(30 * time.Second)
	next, err := agents.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{
		CurrentTask: "/api/authentication.md#implement-jwt-signing",
		Status:      "busy",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("next heartbeat in", next)
	fmt.Println("online until", agents.OnlineUntil(mustGet(agents, a.ID)).Format(time.TimeOnly))

	now = now.Add(2 * time.Minute) // no heartbeat came
	online, err := agents.List(ctx, agent.ListOptions{OnlineOnly: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("online:", len(online))

	if err := agents.Unregister(ctx, a.ID); err != nil {
		log.Fatal(err)
	}
	err = agents.Unregister(ctx, a.ID) // a retry whose first answer was lost
	fmt.Println(errors.Is(err, agent.ErrAgentNotFound))
	// Output:
	// worker-1 worker true
	// next heartbeat in 30s
	// online until 15:32:15
	// online: 0
	// true
}

func mustGet(agents *agent.Registry, id string) agent.Agent {
	a, err := agents.Get(context.Background(), id)
	if err != nil {
		log.Fatal(err)
	}
	return a
}
