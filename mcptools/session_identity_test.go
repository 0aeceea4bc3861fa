package mcptools

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// identityEnv is a plan of two tasks and a holder's session whose agent
// holds the first one in progress, with sessions of other callers.
type identityEnv struct {
	root          string
	clock         *manualClock
	holder        *mcpSession
	others        []*mcpSession
	me            string // the holder's agent
	first, second string
}

func setupIdentity(t *testing.T, others int) identityEnv {
	t.Helper()
	root := t.TempDir()
	clock := newManualClock()
	ss := serveSessions(t, root, clock.Now, 1+others)
	e := identityEnv{root: root, clock: clock, holder: ss[0], others: ss[1:], first: "/release.md#first", second: "/release.md#second"}
	e.holder.ok("workflow_create", map[string]any{"name": "Release", "path": "/release.md"}, nil)
	e.holder.ok("workflow_set_plan", map[string]any{"workflow_id": "/release.md", "tasks": []map[string]any{{"name": "First"}, {"name": "Second"}}}, nil)
	e.me = e.holder.register("worker")
	var claim claimJSON
	e.holder.ok("task_claim", map[string]any{"task_id": e.first, "agent_id": e.me}, &claim)
	require.True(t, claim.Success)
	e.holder.ok("task_update_status", map[string]any{"id": e.first, "status": "in_progress"}, nil)
	return e
}

// A session that names another session's agent in task_claim is refused
// before anything is written, so it never gets the holder's claim: its
// writes and its release stay STALE_CLAIM, and the holder's work goes on.
func TestSessionClaimsOnlyAsItsAgent(t *testing.T) {
	e := setupIdentity(t, 1)
	stranger := e.others[0]
	snap := filetest.Snapshot(t, e.root)

	// A session without an agent cannot take one another open session is.
	_, toolErr, err := stranger.try("task_claim", map[string]any{"task_id": e.first, "agent_id": e.me})
	require.NoError(t, err)
	assert.Contains(t, toolErr, "INVALID_ARGUMENTS: ")
	assert.Contains(t, toolErr, "another open session's")
	assert.Equal(t, "STALE_CLAIM", stranger.fail("task_update_status", map[string]any{"id": e.first, "status": "completed", "outcome": "not mine"}))
	assert.Equal(t, "STALE_CLAIM", stranger.fail("checkpoint_add", map[string]any{"task_id": e.first, "type": "progress", "summary": "not mine"}))
	assert.Equal(t, "STALE_CLAIM", stranger.fail("task_release", map[string]any{"task_id": e.first}))
	// Not even a free task: the session is no agent.
	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("task_claim", map[string]any{"task_id": e.second, "agent_id": e.me}))
	assert.Equal(t, snap, filetest.Snapshot(t, e.root), "a refused claim wrote")

	// A session with an agent of its own: it claims only as that agent.
	mine := stranger.register("other")
	_, toolErr, err = stranger.try("task_claim", map[string]any{"task_id": e.first, "agent_id": e.me})
	require.NoError(t, err)
	assert.Contains(t, toolErr, "INVALID_ARGUMENTS: ")
	assert.Contains(t, toolErr, "this session is agent "+mine)
	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("task_claim", map[string]any{"task_id": e.second, "agent_id": e.me}))
	assert.Equal(t, "STALE_CLAIM", stranger.fail("task_update_status", map[string]any{"id": e.first, "status": "blocked"}))
	assert.Equal(t, "STALE_CLAIM", stranger.fail("task_release", map[string]any{"task_id": e.first}))
	assert.Equal(t, snap, filetest.Snapshot(t, e.root), "a refused claim wrote")
	var lost claimJSON
	stranger.ok("task_claim", map[string]any{"task_id": e.first, "agent_id": mine}, &lost)
	assert.False(t, lost.Success)
	assert.Equal(t, e.me, lost.AlreadyClaimedBy)

	// The holder's claim is whole.
	var done taskUpdateJSON
	e.holder.ok("task_update_status", map[string]any{"id": e.first, "status": "completed", "outcome": "Released"}, &done)
	assert.Equal(t, "completed", done.Task.Status)
	assert.Equal(t, e.me, done.Task.Assignee)
}

// A session's heartbeat for another session's agent is refused: it does
// not keep that agent online, whose task goes to the next agent once its
// own heartbeats stopped for the timeout.
func TestSessionHeartbeatsOnlyForItsAgent(t *testing.T) {
	e := setupIdentity(t, 2)
	stranger, next := e.others[0], e.others[1]
	e.clock.Add(40 * time.Second)
	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("agent_heartbeat", map[string]any{"agent_id": e.me, "status": "busy"}))
	stranger.register("other")
	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("agent_heartbeat", map[string]any{"agent_id": e.me, "status": "busy"}))

	e.clock.Add(30 * time.Second) // 70 s after the holder's last sign of life
	var progress progressJSON
	next.ok("workflow_progress", map[string]any{"workflow_id": "/release.md"}, &progress)
	require.Len(t, progress.CurrentTasks, 1)
	assert.False(t, progress.CurrentTasks[0].HolderOnline, "another session's heartbeat kept the holder online")
	mine := next.register("next")
	var took claimJSON
	next.ok("task_claim", map[string]any{"task_id": e.first, "agent_id": mine}, &took)
	require.True(t, took.Success, "the silent holder's task was not taken over: %+v", took)
	assert.Equal(t, e.me, took.Claim.TookOverFrom)
}

// A session cannot unregister another session's agent.
func TestSessionUnregistersOnlyItsAgent(t *testing.T) {
	e := setupIdentity(t, 1)
	stranger := e.others[0]
	assert.Equal(t, "AGENT_NOT_FOUND", stranger.fail("agent_unregister", map[string]any{"id": e.me}))
	stranger.register("other")
	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("agent_unregister", map[string]any{"id": e.me}))

	e.holder.ok("agent_heartbeat", map[string]any{"agent_id": e.me, "status": "busy"}, nil)
	var progress progressJSON
	e.holder.ok("workflow_progress", map[string]any{"workflow_id": "/release.md"}, &progress)
	require.Len(t, progress.CurrentTasks, 1)
	assert.Equal(t, e.me, progress.CurrentTasks[0].Holder)
	assert.True(t, progress.CurrentTasks[0].HolderOnline)
	e.holder.ok("agent_unregister", map[string]any{"id": e.me}, nil)
}

// The agent protocol on one session, as its own agent: register, claim,
// status, checkpoint, heartbeat, release, claim again, complete,
// unregister.
func TestSessionActsAsItsAgent(t *testing.T) {
	root := t.TempDir()
	s := serveSessions(t, root, newManualClock().Now, 1)[0]
	const task = "/release.md#first"
	s.ok("workflow_create", map[string]any{"name": "Release", "path": "/release.md"}, nil)
	s.ok("workflow_set_plan", map[string]any{"workflow_id": "/release.md", "tasks": []map[string]any{{"name": "First"}}}, nil)
	me := s.register("worker")
	var claim claimJSON
	s.ok("task_claim", map[string]any{"task_id": task, "agent_id": me}, &claim)
	require.True(t, claim.Success)
	s.ok("task_update_status", map[string]any{"id": task, "status": "in_progress"}, nil)
	var cp checkpointJSON
	s.ok("checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "half way"}, &cp)
	assert.Equal(t, me, cp.Agent)
	s.ok("agent_heartbeat", map[string]any{"agent_id": me, "current_task_id": task, "status": "busy"}, nil)
	s.ok("task_release", map[string]any{"task_id": task}, nil)
	var next nextJSON
	s.ok("workflow_next_tasks", map[string]any{"workflow_id": "/release.md"}, &next)
	require.Len(t, next.Tasks, 1)
	assert.True(t, next.Tasks[0].Stranded)
	var again claimJSON
	s.ok("task_claim", map[string]any{"task_id": task, "agent_id": me}, &again)
	require.True(t, again.Success)
	assert.Greater(t, again.Claim.Token, claim.Claim.Token)
	s.ok("task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "Done"}, nil)
	s.ok("agent_unregister", map[string]any{"id": me}, nil)
	assert.Equal(t, "AGENT_NOT_FOUND", s.fail("agent_unregister", map[string]any{"id": me}), "a retried unregister")
}

// agent_register with an existing agent's id makes the session that agent
// (after a reconnect or a lost context) and takes it from the session it
// was: that one is no agent any more, and its claims are forgotten, so two
// sessions never write as one agent.
func TestSessionRegisteringAnAgentAgainTakesItOver(t *testing.T) {
	root := t.TempDir()
	ss := serveSessions(t, root, newManualClock().Now, 2)
	before, after := ss[0], ss[1]
	const task = "/release.md#first"
	before.ok("workflow_create", map[string]any{"name": "Release", "path": "/release.md"}, nil)
	before.ok("workflow_set_plan", map[string]any{"workflow_id": "/release.md", "tasks": []map[string]any{{"name": "First"}}}, nil)
	register := map[string]any{"id": "w1", "name": "worker-1", "runtime": "claude_code"}
	before.ok("agent_register", register, nil)
	var claim claimJSON
	before.ok("task_claim", map[string]any{"task_id": task, "agent_id": "w1"}, &claim)
	require.True(t, claim.Success)
	before.ok("task_update_status", map[string]any{"id": task, "status": "in_progress"}, nil)

	after.ok("agent_register", register, nil)
	snap := filetest.Snapshot(t, root)
	assert.Equal(t, "STALE_CLAIM", before.fail("checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "still me?"}))
	assert.Equal(t, "STALE_CLAIM", before.fail("task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "still me?"}))
	assert.Equal(t, "INVALID_ARGUMENTS", before.fail("task_claim", map[string]any{"task_id": task, "agent_id": "w1"}))
	assert.Equal(t, "INVALID_ARGUMENTS", before.fail("agent_heartbeat", map[string]any{"agent_id": "w1"}))
	assert.Equal(t, snap, filetest.Snapshot(t, root))

	var back claimJSON
	after.ok("task_claim", map[string]any{"task_id": task, "agent_id": "w1"}, &back)
	require.True(t, back.Success)
	assert.Equal(t, claim.Claim.Token, back.Claim.Token, "the holder gets its claim back")
	after.ok("task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "Released"}, nil)
}

// A session that registers another agent is no longer the first: the
// claims it made as it are forgotten.
func TestSessionRegisteringAnotherAgentLetsTheFirstGo(t *testing.T) {
	e := setupIdentity(t, 0)
	other := e.holder.register("other")
	assert.Equal(t, "STALE_CLAIM", e.holder.fail("task_update_status", map[string]any{"id": e.first, "status": "blocked"}))
	assert.Equal(t, "INVALID_ARGUMENTS", e.holder.fail("task_claim", map[string]any{"task_id": e.first, "agent_id": e.me}))
	var claim claimJSON
	e.holder.ok("task_claim", map[string]any{"task_id": e.second, "agent_id": other}, &claim)
	assert.True(t, claim.Success)
}

// Naming a pivoted worker's id in task_claim does not make a session that
// worker: it cannot acknowledge the worker's pivot, nor keep the claim of a
// task resumed for the worker, and its writes on it stay STALE_CLAIM.
func TestSessionCannotActAsAPivotedWorker(t *testing.T) {
	e := setupPivot(t, 3)
	stranger := e.others[0]
	e.orch.ok("pivot_worker", map[string]any{"worker_id": e.worker, "mode": "immediate", "reason": "Critical auth bug", "wait_seconds": 0}, nil)

	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("task_claim", map[string]any{"task_id": e.rateLimiting, "agent_id": e.worker}))
	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{"remaining": []string{"nothing"}}}))
	var ack pivotAckJSON
	e.wk.ok("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{"remaining": []string{"Route integration"}}}, &ack)
	assert.Equal(t, "acknowledged", ack.Request.State)
	assert.Equal(t, 1, ack.Request.Sequence, "the worker's own checkpoint is the first")

	// The task is paused; the stranger resumes it for the worker (an
	// orchestrator's request), and does not get the worker's claim.
	assert.Equal(t, "INVALID_ARGUMENTS", stranger.fail("task_claim", map[string]any{"task_id": e.fixLogin, "agent_id": e.worker}))
	var brief struct {
		Claim *claimJSON `json:"claim"`
	}
	stranger.ok("resume_brief", map[string]any{"task_id": e.rateLimiting, "worker_id": e.worker}, &brief)
	require.NotNil(t, brief.Claim)
	require.True(t, brief.Claim.Success)
	assert.Equal(t, "STALE_CLAIM", stranger.fail("task_update_status", map[string]any{"id": e.rateLimiting, "status": "completed", "outcome": "not mine"}))
	var back claimJSON
	e.wk.ok("task_claim", map[string]any{"task_id": e.rateLimiting, "agent_id": e.worker}, &back)
	require.True(t, back.Success)
	assert.Equal(t, brief.Claim.Claim.Token, back.Claim.Token)
	e.wk.ok("task_update_status", map[string]any{"id": e.rateLimiting, "status": "completed", "outcome": "Rate limited"}, nil)
}

// TestSessionComesBackAsItsAgent: a worker back in a new session (its
// process restarted, its old session gone) claims its task again as the
// agent it was, without registering anew, and gets its claim back; while
// the old session was open, that was refused.
func TestSessionComesBackAsItsAgent(t *testing.T) {
	e := setupIdentity(t, 1)
	back := e.others[0]
	assert.Equal(t, "INVALID_ARGUMENTS", back.fail("task_claim", map[string]any{"task_id": e.first, "agent_id": e.me}))
	var first claimJSON
	e.holder.ok("task_claim", map[string]any{"task_id": e.first, "agent_id": e.me}, &first)
	require.NoError(t, e.holder.cs.Close())
	require.Eventually(t, func() bool {
		_, toolErr, err := back.try("agent_heartbeat", map[string]any{"agent_id": e.me, "status": "busy"})
		return err == nil && toolErr == ""
	}, 5*time.Second, 10*time.Millisecond, "the old session's end lets the agent go")
	var again claimJSON
	back.ok("task_claim", map[string]any{"task_id": e.first, "agent_id": e.me}, &again)
	assert.True(t, again.Success)
	assert.Equal(t, first.Claim.Token, again.Claim.Token, "its own claim")
	back.ok("task_update_status", map[string]any{"id": e.first, "status": "completed", "outcome": "done after a restart"}, nil)
}
