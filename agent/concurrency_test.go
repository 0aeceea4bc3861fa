package agent_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
)

// counter is a clock that moves a millisecond on every reading, so every
// heartbeat has a time of its own.
type counter struct{ n atomic.Int64 }

func (c *counter) Now() time.Time    { return t0.Add(time.Duration(c.n.Add(1)) * time.Millisecond) }
func (c *counter) last() time.Time   { return t0.Add(time.Duration(c.n.Load()) * time.Millisecond) }
func (c *counter) ticks() int64      { return c.n.Load() }
func (c *counter) opt() agent.Option { return agent.WithClock(c.Now) }

// Heartbeats of one agent from 8 goroutines, half of them through a
// second Workspace on the same root: none is lost or torn, and the last
// one written is the latest (the clock is read under the file's lock).
func TestConcurrentHeartbeatsOfOneAgent(t *testing.T) {
	const goroutines, beats = 8, 25
	var clk counter
	root := t.TempDir()
	regs := []*agent.Registry{open(t, root, newClock(), clk.opt()), open(t, root, newClock(), clk.opt())}
	a, err := regs[0].Register(ctx, worker("w"))
	require.NoError(t, err)

	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range beats {
				_, err := regs[g%2].Heartbeat(ctx, a.ID, agent.HeartbeatInfo{CurrentTask: fmt.Sprintf("g%d-%d", g, i), Status: "busy"})
				if !assert.NoError(t, err) {
					return
				}
			}
		})
	}
	wg.Wait()

	assert.Equal(t, int64(1+goroutines*beats), clk.ticks(), "one clock reading per write")
	last := clk.last()
	got, err := regs[1].Get(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, last, got.LastHeartbeat)
	assert.Equal(t, a.Registered, got.Registered)
	assert.Regexp(t, `^g[0-7]-24$`, got.CurrentTask, "some goroutine's last heartbeat was the last")
}

// 8 agents, registered and beating at once through two Workspace values:
// each keeps its own state, and List sees them all.
func TestConcurrentAgents(t *testing.T) {
	const agents, beats = 8, 20
	var clk counter
	root := t.TempDir()
	regs := []*agent.Registry{open(t, root, newClock(), clk.opt()), open(t, root, newClock(), clk.opt())}

	ids := make([]string, agents)
	var wg sync.WaitGroup
	for g := range agents {
		wg.Go(func() {
			r := regs[g%2]
			a, err := r.Register(ctx, worker(fmt.Sprintf("w%d", g)))
			if !assert.NoError(t, err) {
				return
			}
			ids[g] = a.ID
			for i := range beats {
				if _, err := r.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{CurrentTask: fmt.Sprintf("w%d-%d", g, i)}); !assert.NoError(t, err) {
					return
				}
				if _, err := regs[(g+1)%2].List(ctx, agent.ListOptions{}); !assert.NoError(t, err) {
					return
				}
			}
		})
	}
	wg.Wait()

	list, err := regs[0].List(ctx, agent.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, agents)
	byID := map[string]agent.Agent{}
	for _, a := range list {
		byID[a.ID] = a
	}
	for g, id := range ids {
		a := byID[id]
		assert.Equal(t, fmt.Sprintf("w%d", g), a.Name)
		assert.Equal(t, fmt.Sprintf("w%d-%d", g, beats-1), a.CurrentTask)
	}
}

// A heartbeat racing an Unregister never brings the agent back.
func TestHeartbeatRacingUnregister(t *testing.T) {
	root := t.TempDir()
	c := newClock()
	regs := []*agent.Registry{open(t, root, c), open(t, root, c)}
	for range 20 {
		a, err := regs[0].Register(ctx, worker("w"))
		require.NoError(t, err)
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				if _, err := regs[1].Heartbeat(ctx, a.ID, agent.HeartbeatInfo{}); err != nil {
					assert.ErrorIs(t, err, agent.ErrAgentNotFound)
					return
				}
			}
		})
		require.NoError(t, regs[0].Unregister(ctx, a.ID))
		wg.Wait()
		_, err = regs[0].Get(ctx, a.ID)
		assert.ErrorIs(t, err, agent.ErrAgentNotFound)
	}
	list, err := regs[0].List(ctx, agent.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list)
}
