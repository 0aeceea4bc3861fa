package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/workspace"
)

// The pivot protocol's pivot protocol and the checkpoint-resume protocol's worker checkpoints through the
// SDK's client, in process: an orchestrator's session, a worker's, and a
// third worker that resumes the paused task.

const pivotShop = `# Shop

## Tasks

### Add rate limiting
- Status: pending

Limit /users to 100 requests a minute.

### Fix login bug
- Status: pending
`

// handTimer fires pivot_worker's timeout when the test says so.
type handTimer struct{ fire chan time.Time }

func (h handTimer) After(time.Duration) <-chan time.Time { return h.fire }

// servePivots is serveSessions with the waits of pivot_worker timed out
// by timer.
func servePivots(t *testing.T, root string, now func() time.Time, timer handTimer, n int) []*mcpSession {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server, err := NewServer(ws, WithClock(now), withTimer(timer))
	require.NoError(t, err)
	out := make([]*mcpSession, n)
	for i := range out {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { ss.Close() })
		cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("session-%d", i), Version: "v0"}, nil).
			Connect(context.Background(), ct, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		out[i] = &mcpSession{t: t, cs: cs}
	}
	return out
}

// pivotEnv is a shop plan, an orchestrator's session, and a worker's
// session whose agent holds the rate limiting task in progress.
type pivotEnv struct {
	root         string
	orch, wk     *mcpSession
	others       []*mcpSession
	worker       string
	timer        handTimer
	rateLimiting string
	fixLogin     string
}

func setupPivot(t *testing.T, sessions int) pivotEnv {
	t.Helper()
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	timer := handTimer{fire: make(chan time.Time, 1)}
	ss := servePivots(t, root, newManualClock().Now, timer, sessions)
	e := pivotEnv{root: root, orch: ss[0], wk: ss[1], others: ss[2:], timer: timer,
		rateLimiting: "/shop.md#add-rate-limiting", fixLogin: "/shop.md#fix-login-bug"}
	e.worker = e.wk.register("worker-1")
	var claim claimJSON
	e.wk.ok("task_claim", map[string]any{"task_id": e.rateLimiting, "agent_id": e.worker}, &claim)
	require.True(t, claim.Success)
	e.wk.ok("task_update_status", map[string]any{"id": e.rateLimiting, "status": "in_progress"}, nil)
	e.wk.ok("agent_heartbeat", map[string]any{"agent_id": e.worker, "current_task_id": e.rateLimiting, "status": "busy"}, nil)
	return e
}

// The tests' result types, written from the tool descriptions.

type pivotRequestJSON struct {
	ID             string     `json:"id"`
	WorkerID       string     `json:"worker_id"`
	TaskID         string     `json:"task_id"`
	Mode           string     `json:"mode"`
	Reason         string     `json:"reason"`
	NewTask        string     `json:"new_task"`
	Requested      time.Time  `json:"requested"`
	State          string     `json:"state"`
	Acknowledged   *time.Time `json:"acknowledged"`
	CheckpointPath string     `json:"checkpoint_path"`
	Sequence       int        `json:"sequence"`
	NewClaim       *struct {
		TaskID  string `json:"task_id"`
		AgentID string `json:"agent_id"`
		Token   int64  `json:"token"`
	} `json:"new_claim"`
	Instructions string `json:"instructions"`
}

type fileJSON struct {
	Path string `json:"path"`
	Note string `json:"note,omitempty"`
}

type workerCheckpointJSON struct {
	WorkerID           string     `json:"worker_id"`
	Sequence           int        `json:"sequence"`
	Path               string     `json:"path"`
	Time               time.Time  `json:"time"`
	TaskID             string     `json:"task_id"`
	Status             string     `json:"status"`
	Phase              string     `json:"phase"`
	PivotMode          string     `json:"pivot_mode"`
	PivotReason        string     `json:"pivot_reason"`
	ClarificationID    string     `json:"clarification_id"`
	OriginalTask       string     `json:"original_task"`
	Completed          []string   `json:"completed"`
	InProgress         []string   `json:"in_progress"`
	Remaining          []string   `json:"remaining"`
	Blocked            []string   `json:"blocked"`
	ParallelWork       []string   `json:"parallel_work_available"`
	FilesChanged       []fileJSON `json:"files_changed"`
	Decisions          []string   `json:"decisions"`
	Notes              string     `json:"notes"`
	ResumeInstructions string     `json:"resume_instructions"`
}

type pivotWorkerJSON struct {
	Pivots []struct {
		WorkerID       string                `json:"worker_id"`
		Request        pivotRequestJSON      `json:"request"`
		Checkpoint     *workerCheckpointJSON `json:"checkpoint"`
		CheckpointJSON string                `json:"checkpoint_json"`
		Error          string                `json:"error"`
	} `json:"pivots"`
	Acknowledged int `json:"acknowledged"`
}

type pivotAckJSON struct {
	Success    bool                  `json:"success"`
	Request    pivotRequestJSON      `json:"request"`
	Checkpoint *workerCheckpointJSON `json:"checkpoint"`
}

// decodeField decodes m[key] into out.
func decodeField(t *testing.T, m map[string]any, key string, out any) {
	t.Helper()
	require.Contains(t, m, key)
	raw, err := json.Marshal(m[key])
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, out))
}

// The graceful pivot, end to end: the orchestrator waits while the worker
// learns of the pivot from its heartbeat and from an unrelated call,
// acknowledges with its checkpoint and goes on with the new task under the
// claim the pivot gave it.
func TestPivotGracefulEndToEnd(t *testing.T) {
	e := setupPivot(t, 2)
	args := map[string]any{"worker_id": e.worker, "reason": "Auth bug is blocking", "new_task": e.fixLogin}

	// The request, without waiting; the same call again is a retry of it,
	// and waits.
	var asked pivotWorkerJSON
	e.orch.ok("pivot_worker", map[string]any{"worker_id": e.worker, "reason": "Auth bug is blocking",
		"new_task": e.fixLogin, "wait_seconds": 0}, &asked)
	require.Len(t, asked.Pivots, 1)
	id := asked.Pivots[0].Request.ID
	assert.Regexp(t, `^pv_[0-9a-f]{12}$`, id)
	assert.Equal(t, pivotRequestJSON{ID: id, WorkerID: e.worker, TaskID: e.rateLimiting, Mode: "graceful",
		Reason: "Auth bug is blocking", NewTask: e.fixLogin, Requested: lifecycleStart, State: "pending"}, asked.Pivots[0].Request)
	assert.Equal(t, 0, asked.Acknowledged)

	type waited struct {
		out     map[string]any
		toolErr string
		err     error
	}
	done := make(chan waited, 1)
	go func() {
		out, toolErr, err := e.orch.try("pivot_worker", args) // try's context ends after 30 s
		done <- waited{out, toolErr, err}
	}()

	// The worker's next heartbeat carries the request, and so does the
	// result of any other call of its session, an error's too.
	want := pivotRequestJSON{ID: id, WorkerID: e.worker, TaskID: e.rateLimiting, Mode: "graceful",
		Reason: "Auth bug is blocking", NewTask: e.fixLogin, Requested: lifecycleStart, State: "pending",
		Instructions: "[PIVOT REQUEST] Mode: graceful. Reason: Auth bug is blocking. Finish the tool call you are in, " +
			"start nothing new on /shop.md#add-rate-limiting, then call pivot_acknowledge with your checkpoint " +
			"(completed, in_progress, remaining, files_changed, decisions, resume_instructions). " +
			"New task: /shop.md#fix-login-bug, claimed for you when you acknowledge: then task_load_context and task_update_status in_progress."}
	var hb struct {
		Success         bool              `json:"success"`
		NextHeartbeatMS int64             `json:"next_heartbeat_ms"`
		PivotRequest    *pivotRequestJSON `json:"pivot_request"`
	}
	e.wk.ok("agent_heartbeat", map[string]any{"agent_id": e.worker, "current_task_id": e.rateLimiting, "status": "busy"}, &hb)
	assert.True(t, hb.Success)
	assert.Equal(t, int64(30000), hb.NextHeartbeatMS)
	require.NotNil(t, hb.PivotRequest)
	assert.Equal(t, want, *hb.PivotRequest)

	var progress map[string]any
	e.wk.ok("workflow_progress", map[string]any{"workflow_id": "/shop.md"}, &progress)
	var notice pivotRequestJSON
	decodeField(t, progress, "pivot_request", &notice)
	assert.Equal(t, want, notice)
	assert.Equal(t, "/shop.md", progress["workflow_id"], "the result is there too")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := e.wk.cs.CallTool(ctx, &mcp.CallToolParams{Name: "task_claim",
		Arguments: map[string]any{"task_id": "/shop.md#no-such-task", "agent_id": e.worker}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Len(t, res.Content, 2)
	assert.Regexp(t, `^TASK_NOT_FOUND: `, text(res))
	var inError struct {
		PivotRequest pivotRequestJSON `json:"pivot_request"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.Content[1].(*mcp.TextContent).Text), &inError))
	assert.Equal(t, want, inError.PivotRequest)

	// The orchestrator's session has no agent: its results carry nothing.
	var orchProgress map[string]any
	e.orch.ok("workflow_progress", map[string]any{"workflow_id": "/shop.md"}, &orchProgress)
	assert.NotContains(t, orchProgress, "pivot_request")

	// A graceful pivot is acknowledged with a checkpoint.
	assert.Equal(t, "INVALID_ARGUMENTS", e.wk.fail("pivot_acknowledge", map[string]any{}))

	var ack pivotAckJSON
	e.wk.ok("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{
		"original_task":       "Add rate limiting to /api/users",
		"completed":           []string{"Created `src/middleware/rateLimit.ts`"},
		"in_progress":         []string{"Integration with routes (50% done)"},
		"remaining":           []string{"Tests for rate limiting"},
		"files_changed":       []map[string]any{{"path": "src/middleware/rateLimit.ts", "note": "new"}},
		"decisions":           []string{"Token bucket over a fixed window"},
		"resume_instructions": "1. Complete route integration in src/routes/posts.ts",
	}}, &ack)
	path := "checkpoints/workers/" + e.worker + "/000001.md"
	wantCheckpoint := workerCheckpointJSON{WorkerID: e.worker, Sequence: 1, Path: path, Time: lifecycleStart,
		TaskID: e.rateLimiting, Status: "PARTIAL", Phase: "pivoted", PivotMode: "graceful", PivotReason: "Auth bug is blocking",
		OriginalTask: "Add rate limiting to /api/users", Completed: []string{"Created `src/middleware/rateLimit.ts`"},
		InProgress: []string{"Integration with routes (50% done)"}, Remaining: []string{"Tests for rate limiting"},
		FilesChanged: []fileJSON{{Path: "src/middleware/rateLimit.ts", Note: "new"}}, Decisions: []string{"Token bucket over a fixed window"},
		ResumeInstructions: "1. Complete route integration in src/routes/posts.ts"}
	assert.True(t, ack.Success)
	require.NotNil(t, ack.Checkpoint)
	assert.Equal(t, wantCheckpoint, *ack.Checkpoint)
	acknowledged := lifecycleStart
	wantAck := pivotRequestJSON{ID: id, WorkerID: e.worker, TaskID: e.rateLimiting, Mode: "graceful",
		Reason: "Auth bug is blocking", NewTask: e.fixLogin, Requested: lifecycleStart, State: "acknowledged",
		Acknowledged: &acknowledged, CheckpointPath: path, Sequence: 1}
	require.NotNil(t, ack.Request.NewClaim)
	assert.Equal(t, e.fixLogin, ack.Request.NewClaim.TaskID)
	assert.Equal(t, e.worker, ack.Request.NewClaim.AgentID)
	assert.Equal(t, int64(2), ack.Request.NewClaim.Token)
	gotAck := ack.Request
	gotAck.NewClaim = nil
	assert.Equal(t, wantAck, gotAck)

	// The orchestrator gets the acknowledged request and the checkpoint.
	var w waited
	select {
	case w = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("pivot_worker did not return")
	}
	require.NoError(t, w.err)
	require.Empty(t, w.toolErr)
	var got pivotWorkerJSON
	raw, err := json.Marshal(w.out)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &got))
	require.Len(t, got.Pivots, 1)
	assert.Equal(t, 1, got.Acknowledged)
	assert.Equal(t, e.worker, got.Pivots[0].WorkerID)
	assert.Empty(t, got.Pivots[0].Error)
	gotReq := got.Pivots[0].Request
	require.NotNil(t, gotReq.NewClaim)
	gotReq.NewClaim = nil
	assert.Equal(t, wantAck, gotReq)
	require.NotNil(t, got.Pivots[0].Checkpoint)
	assert.Equal(t, wantCheckpoint, *got.Pivots[0].Checkpoint)
	assert.JSONEq(t, `{
		"agentId": "`+e.worker+`",
		"timestamp": "2030-05-06T07:08:09Z",
		"phase": "pivoted",
		"workState": {
			"completed": ["Created `+"`src/middleware/rateLimit.ts`"+`"],
			"inProgress": ["Integration with routes (50% done)"],
			"blocked": [],
			"parallelWorkAvailable": []
		},
		"context": {
			"task": "/shop.md#add-rate-limiting",
			"originalTask": "Add rate limiting to /api/users",
			"remaining": ["Tests for rate limiting"],
			"decisions": ["Token bucket over a fixed window"],
			"filesChanged": [{"path": "src/middleware/rateLimit.ts", "note": "new"}],
			"filesCreated": ["src/middleware/rateLimit.ts"]
		},
		"resumeInstructions": {"text": "1. Complete route integration in src/routes/posts.ts"},
		"metadata": {"status": "PARTIAL", "sequence": 1, "pivotMode": "graceful", "pivotReason": "Auth bug is blocking"}
	}`, got.Pivots[0].CheckpointJSON)

	// The plan: the task paused with its checkpoint, the new task claimed
	// for the worker.
	assert.Equal(t, `# Shop

## Tasks

### Add rate limiting
- Status: paused
- Checkpoint: `+path+`

Limit /users to 100 requests a minute.

### Fix login bug
- Status: pending
- Assignee: `+e.worker+`
`, filetest.Read(t, e.root, "docs/shop.md"))

	// The worker's session holds the new claim: it starts the new task.
	var started taskUpdateJSON
	e.wk.ok("task_update_status", map[string]any{"id": e.fixLogin, "status": "in_progress"}, &started)
	assert.Equal(t, planTaskJSON{ID: e.fixLogin, Title: "Fix login bug", Status: "in_progress", Assignee: e.worker}, started.Task)
	e.wk.ok("agent_heartbeat", map[string]any{"agent_id": e.worker, "current_task_id": e.fixLogin}, &hb)
	assert.Nil(t, hb.PivotRequest, "nothing pending any more")

	// A retried acknowledgement returns the acknowledged request.
	e.wk.ok("pivot_acknowledge", map[string]any{}, &ack)
	assert.Equal(t, "acknowledged", ack.Request.State)
	assert.Equal(t, path, ack.Request.CheckpointPath)
}

// A worker that does not answer: NO_ACK when the timer fires, with the
// advice to pivot it in hard mode, which takes its task back at once.
func TestPivotNoAckThenHard(t *testing.T) {
	e := setupPivot(t, 2)
	e.timer.fire <- time.Time{} // the timeout has passed as soon as the wait starts

	out, toolErr, err := e.orch.try("pivot_worker", map[string]any{"worker_id": e.worker, "reason": "Redistributing work", "wait_seconds": 5})
	require.NoError(t, err)
	require.NotEmpty(t, toolErr, "pivot_worker succeeded: %v", out)
	assert.Regexp(t, `^NO_ACK: worker `+e.worker+` did not acknowledge pivot pv_[0-9a-f]{12} within 5s: it may be stuck or gone; `+
		`pivot it in hard mode to take its task back without a checkpoint $`, toolErr)

	// The NO_ACK result still lists the request, pending.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e.timer.fire <- time.Time{}
	res, err := e.orch.cs.CallTool(ctx, &mcp.CallToolParams{Name: "pivot_worker",
		Arguments: map[string]any{"worker_id": e.worker, "reason": "Redistributing work", "wait_seconds": 5}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	var failed pivotWorkerJSON
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &failed))
	require.Len(t, failed.Pivots, 1)
	assert.Equal(t, "pending", failed.Pivots[0].Request.State)
	assert.Equal(t, text(res), failed.Pivots[0].Error)
	assert.Equal(t, 0, failed.Acknowledged)

	// Hard: the task goes back to pending at once, without waiting.
	var hard pivotWorkerJSON
	e.orch.ok("pivot_worker", map[string]any{"worker_id": e.worker, "mode": "hard", "reason": "Worker is stuck",
		"new_task": e.fixLogin}, &hard)
	require.Len(t, hard.Pivots, 1)
	assert.Equal(t, "hard", hard.Pivots[0].Request.Mode)
	assert.Equal(t, "pending", hard.Pivots[0].Request.State)
	assert.Equal(t, e.rateLimiting, hard.Pivots[0].Request.TaskID)
	assert.Nil(t, hard.Pivots[0].Checkpoint)
	assert.Equal(t, pivotShop, filetest.Read(t, e.root, "docs/shop.md"), "the task is pending again, unclaimed")

	// The worker is told, and its writes on the old task are refused.
	var hb struct {
		PivotRequest *pivotRequestJSON `json:"pivot_request"`
	}
	e.wk.ok("agent_heartbeat", map[string]any{"agent_id": e.worker, "current_task_id": e.rateLimiting}, &hb)
	require.NotNil(t, hb.PivotRequest)
	assert.Equal(t, "[PIVOT REQUEST] Mode: hard. Reason: Worker is stuck. The orchestrator took /shop.md#add-rate-limiting back: "+
		"stop now and write nothing more on it. Call pivot_acknowledge (no checkpoint is saved). "+
		"New task: /shop.md#fix-login-bug, claimed for you when you acknowledge: then task_load_context and task_update_status in_progress.",
		hb.PivotRequest.Instructions)
	assert.Equal(t, "STALE_CLAIM", e.wk.fail("task_update_status", map[string]any{"id": e.rateLimiting, "status": "completed", "outcome": "late"}))

	var ack pivotAckJSON
	e.wk.ok("pivot_acknowledge", map[string]any{}, &ack)
	assert.Equal(t, "acknowledged", ack.Request.State)
	assert.Empty(t, ack.Request.CheckpointPath, "a hard pivot saves no checkpoint")
	assert.Nil(t, ack.Checkpoint)
	require.NotNil(t, ack.Request.NewClaim)
	assert.Equal(t, e.fixLogin, ack.Request.NewClaim.TaskID)
	var started taskUpdateJSON
	e.wk.ok("task_update_status", map[string]any{"id": e.fixLogin, "status": "in_progress"}, &started)
	assert.Equal(t, "in_progress", started.Task.Status)

	// Bad requests.
	assert.Equal(t, "AGENT_NOT_FOUND", e.orch.fail("pivot_worker", map[string]any{"worker_id": "ag_000000000000", "reason": "r", "wait_seconds": 0}))
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("pivot_worker", map[string]any{"worker_id": e.worker, "reason": "r", "mode": "gentle"}))
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("pivot_worker", map[string]any{"reason": "r"}))
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("pivot_acknowledge", map[string]any{}), "the orchestrator's session has no agent")
}

// A pivot chain: two workers pivoted in one call, both acknowledging while
// the orchestrator waits for them together.
func TestPivotChain(t *testing.T) {
	e := setupPivot(t, 3)
	wk2 := e.others[0]
	second := wk2.register("worker-2")
	var claim claimJSON
	wk2.ok("task_claim", map[string]any{"task_id": e.fixLogin, "agent_id": second}, &claim)
	require.True(t, claim.Success)
	wk2.ok("task_update_status", map[string]any{"id": e.fixLogin, "status": "in_progress"}, nil)
	wk2.ok("agent_heartbeat", map[string]any{"agent_id": second, "current_task_id": e.fixLogin}, nil)

	args := map[string]any{"worker_ids": []string{e.worker, second}, "mode": "immediate", "reason": "Regroup"}
	var asked pivotWorkerJSON
	e.orch.ok("pivot_worker", map[string]any{"worker_ids": []string{e.worker, second}, "mode": "immediate", "reason": "Regroup", "wait_seconds": 0}, &asked)
	require.Len(t, asked.Pivots, 2)
	done := make(chan pivotWorkerJSON, 1)
	go func() {
		var out pivotWorkerJSON
		if err := call(e.orch, "pivot_worker", args, &out); err != nil {
			t.Error(err)
		}
		done <- out
	}()
	var ack pivotAckJSON
	e.wk.ok("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{"remaining": []string{"Tests"}}}, &ack)
	wk2.ok("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{"remaining": []string{"The fix"}}}, &ack)
	var got pivotWorkerJSON
	select {
	case got = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("pivot_worker did not return")
	}
	assert.Equal(t, 2, got.Acknowledged)
	require.Len(t, got.Pivots, 2)
	for i, p := range got.Pivots {
		assert.Equal(t, asked.Pivots[i].Request.ID, p.Request.ID)
		assert.Equal(t, "acknowledged", p.Request.State)
		require.NotNil(t, p.Checkpoint)
		assert.Equal(t, "immediate", p.Checkpoint.PivotMode)
	}
	assert.Equal(t, []string{"Tests"}, got.Pivots[indexOf(got, e.worker)].Checkpoint.Remaining)
	assert.Equal(t, []string{"The fix"}, got.Pivots[indexOf(got, second)].Checkpoint.Remaining)
	doc := filetest.Read(t, e.root, "docs/shop.md")
	assert.Contains(t, doc, "### Add rate limiting\n- Status: paused\n")
	assert.Contains(t, doc, "### Fix login bug\n- Status: paused\n")
}

func indexOf(r pivotWorkerJSON, workerID string) int {
	for i, p := range r.Pivots {
		if p.WorkerID == workerID {
			return i
		}
	}
	return -1
}

// A paused task waits in the resume queue; a third session reads its
// brief and resumes it for its own agent, whose writes then go through.
func TestResumeByAnotherWorker(t *testing.T) {
	e := setupPivot(t, 3)
	third := e.others[0]
	var queue struct {
		Count int `json:"count"`
		Tasks []struct {
			TaskID         string                `json:"task_id"`
			Title          string                `json:"title"`
			CheckpointPath string                `json:"checkpoint_path"`
			Checkpoint     *workerCheckpointJSON `json:"checkpoint"`
			Problem        string                `json:"problem"`
		} `json:"tasks"`
	}
	third.ok("resume_queue", map[string]any{}, &queue)
	assert.Equal(t, 0, queue.Count)
	assert.Empty(t, queue.Tasks)

	e.orch.ok("pivot_worker", map[string]any{"worker_id": e.worker, "mode": "immediate", "reason": "Critical auth bug",
		"new_task": "Fix the login 500", "wait_seconds": 0}, nil)
	var ack pivotAckJSON
	e.wk.ok("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{
		"completed": []string{"Redis client"}, "remaining": []string{"Route integration"},
		"resume_instructions": "Wire the middleware into src/routes/users.ts.",
	}}, &ack)
	assert.Nil(t, ack.Request.NewClaim, "free text is not claimed")
	path := "checkpoints/workers/" + e.worker + "/000001.md"

	third.ok("resume_queue", map[string]any{}, &queue)
	require.Equal(t, 1, queue.Count)
	require.Len(t, queue.Tasks, 1)
	q := queue.Tasks[0]
	assert.Equal(t, e.rateLimiting, q.TaskID)
	assert.Equal(t, "Add rate limiting", q.Title)
	assert.Equal(t, path, q.CheckpointPath)
	assert.Empty(t, q.Problem)
	require.NotNil(t, q.Checkpoint)
	assert.Equal(t, workerCheckpointJSON{WorkerID: e.worker, Sequence: 1, Path: path, Time: lifecycleStart, TaskID: e.rateLimiting,
		Status: "PARTIAL", Phase: "pivoted", PivotMode: "immediate", PivotReason: "Critical auth bug",
		Completed: []string{"Redis client"}, Remaining: []string{"Route integration"},
		ResumeInstructions: "Wire the middleware into src/routes/users.ts."}, *q.Checkpoint)

	wantBrief := "# Resume: Add rate limiting\n\nTask: /shop.md#add-rate-limiting (paused)\n" +
		"Checkpoint: " + path + ", saved 2030-05-06T07:08:09Z by " + e.worker + " (pivoted: Critical auth bug)\n" +
		"\n## Completed\n\n- [x] Redis client\n" +
		"\n## Remaining\n\n- [ ] Route integration\n" +
		"\n## Resumption Instructions\n\nWire the middleware into src/routes/users.ts.\n" +
		"\n## Context\n\n"
	var brief struct {
		TaskID string        `json:"task_id"`
		Brief  string        `json:"brief"`
		Claim  *claimJSON    `json:"claim"`
		Task   *planTaskJSON `json:"task"`
	}
	third.ok("resume_brief", map[string]any{"task_id": e.rateLimiting}, &brief)
	assert.Equal(t, e.rateLimiting, brief.TaskID)
	assert.Nil(t, brief.Claim, "a brief only")
	require.Greater(t, len(brief.Brief), len(wantBrief))
	assert.Equal(t, wantBrief, brief.Brief[:len(wantBrief)])
	assert.Contains(t, brief.Brief[len(wantBrief):], "Limit /users to 100 requests a minute.")
	assert.Contains(t, brief.Brief[len(wantBrief):], "- Status: paused\n")

	// Resumed for the third session's agent: claimed, in progress, and the
	// session keeps the claim.
	second := third.register("worker-2")
	third.ok("resume_brief", map[string]any{"task_id": e.rateLimiting, "worker_id": second}, &brief)
	require.NotNil(t, brief.Claim)
	assert.True(t, brief.Claim.Success)
	require.NotNil(t, brief.Claim.Claim)
	assert.Equal(t, second, brief.Claim.Claim.AgentID)
	require.NotNil(t, brief.Task)
	assert.Equal(t, planTaskJSON{ID: e.rateLimiting, Title: "Add rate limiting", Status: "in_progress", Assignee: second}, *brief.Task)
	resumed := strings.Replace(wantBrief, "(paused)", "(in_progress)", 1)
	require.Greater(t, len(brief.Brief), len(resumed))
	assert.Equal(t, resumed, brief.Brief[:len(resumed)], "the brief of the resumed task, now in progress")
	assert.Contains(t, brief.Brief[len(resumed):], "- Assignee: "+second+"\n")
	var done taskUpdateJSON
	third.ok("task_update_status", map[string]any{"id": e.rateLimiting, "status": "completed", "outcome": "Rate limiting on every route"}, &done)
	assert.Equal(t, "completed", done.Task.Status)

	// The first worker may not take it back: another agent held it.
	third.ok("resume_queue", map[string]any{}, &queue)
	assert.Equal(t, 0, queue.Count)
	assert.Equal(t, "TASK_NOT_FOUND", third.fail("resume_brief", map[string]any{"task_id": "/shop.md#nope"}))
}

// A worker's own checkpoints: saved twice, read back in Markdown and in
// the checkpoint-resume protocol's JSON, listed newest first and compared.
func TestWorkerCheckpointTools(t *testing.T) {
	e := setupPivot(t, 2)
	var first, second workerCheckpointJSON
	e.wk.ok("checkpoint_save", map[string]any{"task_id": e.rateLimiting, "status": "PARTIAL", "phase": "working",
		"original_task": "Add rate limiting to /api/users",
		"in_progress":   []string{"Redis client"},
		"remaining":     []string{"Middleware", "Tests"},
	}, &first)
	path1 := "checkpoints/workers/" + e.worker + "/000001.md"
	assert.Equal(t, workerCheckpointJSON{WorkerID: e.worker, Sequence: 1, Path: path1, Time: lifecycleStart, TaskID: e.rateLimiting,
		Status: "PARTIAL", Phase: "working", OriginalTask: "Add rate limiting to /api/users",
		InProgress: []string{"Redis client"}, Remaining: []string{"Middleware", "Tests"}}, first)
	e.wk.ok("checkpoint_save", map[string]any{"task_id": e.rateLimiting, "status": "BLOCKED", "phase": "waiting_clarification",
		"clarification_id": "clarif_xyz789",
		"original_task":    "Add rate limiting to /api/users",
		"completed":        []string{"Redis client"},
		"in_progress":      []string{"Middleware"},
		"remaining":        []string{"Tests"},
		"blocked":          []string{"Limits per plan (needs Q1 answer)"},
		"files_changed":    []map[string]any{{"path": "src/redis.ts", "note": "new"}},
		"decisions":        []string{"Token bucket"},
		"notes":            "Pool size may need tuning.",
	}, &second)
	assert.Equal(t, 2, second.Sequence)
	assert.Equal(t, "BLOCKED", second.Status)

	// Markdown.
	var got struct {
		Checkpoint workerCheckpointJSON `json:"checkpoint"`
		Format     string               `json:"format"`
		Content    string               `json:"content"`
	}
	e.wk.ok("checkpoint_get", map[string]any{"worker_id": e.worker}, &got)
	assert.Equal(t, second, got.Checkpoint)
	assert.Equal(t, "markdown", got.Format)
	assert.Equal(t, `---
worker: "`+e.worker+`"
task: "/shop.md#add-rate-limiting"
status: "BLOCKED"
phase: "waiting_clarification"
clarification_id: "clarif_xyz789"
time: "2030-05-06T07:08:09Z"
sequence: 2
---

# Worker Checkpoint: `+e.worker+`

## Original Task

Add rate limiting to /api/users

## Completed

- [x] Redis client

## In Progress

- [ ] Middleware

## Remaining

- [ ] Tests

## Blocked

- Limits per plan (needs Q1 answer)

## Files Changed

- `+"`src/redis.ts`"+` (new)

## Decisions

- Token bucket

## Notes

Pool size may need tuning.
`, got.Content)
	assert.Equal(t, got.Content, filetest.Read(t, e.root, "checkpoints/workers/"+e.worker+"/000002.md"), "the document as stored")

	// The checkpoint-resume protocol's JSON, of the first one.
	e.orch.ok("checkpoint_get", map[string]any{"worker_id": e.worker, "sequence": 1, "format": "json"}, &got)
	assert.Equal(t, first, got.Checkpoint)
	assert.Equal(t, "json", got.Format)
	assert.JSONEq(t, `{
		"agentId": "`+e.worker+`",
		"timestamp": "2030-05-06T07:08:09Z",
		"phase": "working",
		"workState": {"completed": [], "inProgress": ["Redis client"], "blocked": [], "parallelWorkAvailable": []},
		"context": {
			"task": "/shop.md#add-rate-limiting",
			"originalTask": "Add rate limiting to /api/users",
			"remaining": ["Middleware", "Tests"]
		},
		"metadata": {"status": "PARTIAL", "sequence": 1}
	}`, got.Content)

	// The list, newest first; the task journal's list is unchanged.
	var list struct {
		TaskID            string                 `json:"task_id"`
		WorkerID          string                 `json:"worker_id"`
		Count             int                    `json:"count"`
		Checkpoints       []checkpointJSON       `json:"checkpoints"`
		WorkerCheckpoints []workerCheckpointJSON `json:"worker_checkpoints"`
	}
	e.orch.ok("checkpoint_list", map[string]any{"worker_id": e.worker}, &list)
	assert.Equal(t, e.worker, list.WorkerID)
	assert.Equal(t, 2, list.Count)
	assert.Equal(t, []workerCheckpointJSON{second, first}, list.WorkerCheckpoints)
	assert.Empty(t, list.Checkpoints)
	e.orch.ok("checkpoint_list", map[string]any{"worker_id": e.worker, "limit": 1}, &list)
	assert.Equal(t, []workerCheckpointJSON{second}, list.WorkerCheckpoints)
	e.orch.ok("checkpoint_list", map[string]any{"task_id": e.rateLimiting}, &list)
	assert.Equal(t, e.rateLimiting, list.TaskID)
	assert.Equal(t, 0, list.Count)
	assert.Empty(t, list.WorkerCheckpoints)
	e.orch.ok("checkpoint_list", map[string]any{}, &list)
	assert.Equal(t, []workerCheckpointJSON{second, first}, list.WorkerCheckpoints, "every worker's: the one worker's here")
	assert.Empty(t, list.WorkerID)
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("checkpoint_list", map[string]any{"worker_id": e.worker, "task_id": e.rateLimiting}))

	// The diff of the previous and the current checkpoint.
	type itemJSON struct {
		Section string `json:"section"`
		Text    string `json:"text"`
	}
	var diff struct {
		WorkerID     string     `json:"worker_id"`
		From         int        `json:"from"`
		To           int        `json:"to"`
		Empty        bool       `json:"empty"`
		OldStatus    string     `json:"old_status"`
		NewStatus    string     `json:"new_status"`
		OldPhase     string     `json:"old_phase"`
		NewPhase     string     `json:"new_phase"`
		Finished     []string   `json:"finished"`
		Started      []string   `json:"started"`
		Added        []itemJSON `json:"added"`
		Dropped      []itemJSON `json:"dropped"`
		NewFiles     []fileJSON `json:"new_files"`
		NewDecisions []string   `json:"new_decisions"`
	}
	e.wk.ok("checkpoint_diff", map[string]any{}, &diff)
	assert.Equal(t, e.worker, diff.WorkerID)
	assert.Equal(t, 1, diff.From)
	assert.Equal(t, 2, diff.To)
	assert.False(t, diff.Empty)
	assert.Equal(t, []string{"PARTIAL", "BLOCKED", "working", "waiting_clarification"},
		[]string{diff.OldStatus, diff.NewStatus, diff.OldPhase, diff.NewPhase})
	assert.Equal(t, []string{"Redis client"}, diff.Finished)
	assert.Equal(t, []string{"Middleware"}, diff.Started)
	assert.Equal(t, []itemJSON{{Section: "Blocked", Text: "Limits per plan (needs Q1 answer)"}}, diff.Added)
	assert.Empty(t, diff.Dropped)
	assert.Equal(t, []fileJSON{{Path: "src/redis.ts", Note: "new"}}, diff.NewFiles)
	assert.Equal(t, []string{"Token bucket"}, diff.NewDecisions)

	e.orch.ok("checkpoint_diff", map[string]any{"worker_id": e.worker, "from": 2, "to": 2}, &diff)
	assert.True(t, diff.Empty)
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("checkpoint_diff", map[string]any{"worker_id": e.worker, "to": 1}), "nothing before the first")
	assert.Equal(t, "DOCUMENT_NOT_FOUND", e.orch.fail("checkpoint_get", map[string]any{"worker_id": e.worker, "sequence": 9}))
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("checkpoint_get", map[string]any{}), "the orchestrator's session has no agent to default to")
	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("checkpoint_save", map[string]any{"worker_id": "Bad Id", "status": "PARTIAL", "phase": "working"}))
	assert.Equal(t, "INVALID_ARGUMENTS", e.wk.fail("checkpoint_save", map[string]any{"status": "HALF", "phase": "working"}))
}

type clarificationJSON struct {
	ID        string    `json:"id"`
	AgentID   string    `json:"agent_id"`
	Timestamp time.Time `json:"timestamp"`
	BlockedAt string    `json:"blocked_at"`
	Reason    string    `json:"reason"`
	Questions []struct {
		ID   string `json:"question_id"`
		Text string `json:"text"`
	} `json:"questions"`
	CheckpointInfo struct {
		BriefPollDuration string `json:"brief_poll_duration"`
		CheckpointPath    string `json:"checkpoint_path"`
	} `json:"checkpoint_info"`
}

type answerJSON struct {
	RequestID string `json:"request_id"`
	AgentID   string `json:"agent_id"`
	Responses []struct {
		QuestionID string `json:"question_id"`
		Answer     string `json:"answer"`
	} `json:"responses"`
	ResumeSignal bool `json:"resume_signal"`
}

type askJSON struct {
	Status        string                `json:"status"`
	Clarification clarificationJSON     `json:"clarification"`
	Answer        *answerJSON           `json:"answer"`
	Checkpoint    *workerCheckpointJSON `json:"checkpoint"`
	Instructions  string                `json:"instructions"`
}

// The checkpoint-resume protocol: a question answered during the brief poll, and one that is
// not: the worker's checkpoint is saved, and its parent finds the answer
// and the resume prompt.
func TestClarifications(t *testing.T) {
	e := setupPivot(t, 2)
	q := map[string]any{"id": "cl_limits", "questions": []map[string]any{{"text": "Per user or per IP?"}},
		"blocked_at": "Choosing the rate key", "task_id": e.rateLimiting,
		"checkpoint": map[string]any{"completed": []string{"Redis client"}, "remaining": []string{"Middleware"}}}

	// Recorded without waiting, then the same ask again waits for the
	// answer the parent gives meanwhile.
	var asked askJSON
	e.wk.ok("clarification_ask", map[string]any{"id": "cl_limits", "questions": []map[string]any{{"text": "Per user or per IP?"}},
		"blocked_at": "Choosing the rate key", "task_id": e.rateLimiting, "wait_seconds": 0}, &asked)
	assert.Equal(t, "asked", asked.Status)
	assert.Equal(t, "cl_limits", asked.Clarification.ID)
	assert.Equal(t, e.worker, asked.Clarification.AgentID)
	require.Len(t, asked.Clarification.Questions, 1)
	assert.Equal(t, "Q1", asked.Clarification.Questions[0].ID)

	var open struct {
		Open     []clarificationJSON `json:"open"`
		Answered []struct {
			WorkerID     string `json:"worker_id"`
			ResumePrompt string `json:"resume_prompt"`
		} `json:"answered"`
	}
	e.orch.ok("clarification_check", map[string]any{}, &open)
	require.Len(t, open.Open, 1)
	assert.Equal(t, "cl_limits", open.Open[0].ID)
	assert.Empty(t, open.Answered)

	done := make(chan askJSON, 1)
	go func() {
		var out askJSON
		if err := call(e.wk, "clarification_ask", q, &out); err != nil {
			t.Error(err)
		}
		done <- out
	}()
	var responded struct {
		Answer       answerJSON `json:"answer"`
		ResumePrompt string     `json:"resume_prompt"`
	}
	e.orch.ok("clarification_respond", map[string]any{"worker_id": e.worker, "id": "cl_limits",
		"responses": []map[string]any{{"question_id": "Q1", "answer": "Per user"}}}, &responded)
	assert.True(t, responded.Answer.ResumeSignal)
	assert.Empty(t, responded.ResumePrompt, "the worker did not suspend")
	var answered askJSON
	select {
	case answered = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("clarification_ask did not return")
	}
	assert.Equal(t, "answered", answered.Status)
	require.NotNil(t, answered.Answer)
	require.Len(t, answered.Answer.Responses, 1)
	assert.Equal(t, "Per user", answered.Answer.Responses[0].Answer)
	assert.Nil(t, answered.Checkpoint, "no checkpoint when the answer comes in time")

	// No answer during the brief poll: suspended, with the checkpoint.
	e.timer.fire <- time.Time{}
	var suspended askJSON
	e.wk.ok("clarification_ask", map[string]any{"id": "cl_burst", "questions": []map[string]any{{"text": "Allow bursts?"}},
		"task_id": e.rateLimiting, "wait_seconds": 5,
		"checkpoint": map[string]any{"completed": []string{"Redis client"}, "remaining": []string{"Middleware"}}}, &suspended)
	assert.Equal(t, "suspended", suspended.Status)
	path := "checkpoints/workers/" + e.worker + "/000001.md"
	require.NotNil(t, suspended.Checkpoint)
	assert.Equal(t, workerCheckpointJSON{WorkerID: e.worker, Sequence: 1, Path: path, Time: lifecycleStart, TaskID: e.rateLimiting,
		Status: "BLOCKED", Phase: "waiting_clarification", ClarificationID: "cl_burst",
		Completed: []string{"Redis client"}, Remaining: []string{"Middleware"}}, *suspended.Checkpoint)
	assert.Equal(t, path, suspended.Clarification.CheckpointInfo.CheckpointPath)

	var one struct {
		Status        string             `json:"status"`
		Clarification *clarificationJSON `json:"clarification"`
		Answer        *answerJSON        `json:"answer"`
	}
	e.wk.ok("clarification_check", map[string]any{"id": "cl_burst"}, &one)
	assert.Equal(t, "open", one.Status)
	assert.Nil(t, one.Answer)

	e.orch.ok("clarification_respond", map[string]any{"worker_id": e.worker, "id": "cl_burst",
		"responses": []map[string]any{{"question_id": "Q1", "answer": "Yes, up to 20"}}}, &responded)
	assert.Contains(t, responded.ResumePrompt, "## RESUME FROM CLARIFICATION\n")
	assert.Contains(t, responded.ResumePrompt, "Yes, up to 20")
	e.orch.ok("clarification_check", map[string]any{}, &open)
	assert.Empty(t, open.Open)
	require.Len(t, open.Answered, 1)
	assert.Equal(t, e.worker, open.Answered[0].WorkerID)
	assert.Equal(t, responded.ResumePrompt, open.Answered[0].ResumePrompt)
	e.orch.ok("clarification_check", map[string]any{"worker_id": e.worker, "id": "cl_burst"}, &one)
	assert.Equal(t, "answered", one.Status)

	assert.Equal(t, "INVALID_ARGUMENTS", e.orch.fail("clarification_ask", map[string]any{"questions": []map[string]any{{"text": "?"}}, "wait_seconds": 0}),
		"the orchestrator's session has no agent")
	assert.Equal(t, "INVALID_ARGUMENTS", e.wk.fail("clarification_ask", map[string]any{"questions": []map[string]any{{"text": "?"}}}),
		"waiting needs a checkpoint")
	assert.Equal(t, "CONFLICT", e.orch.fail("clarification_respond", map[string]any{"worker_id": e.worker, "id": "cl_burst",
		"responses": []map[string]any{{"question_id": "Q1", "answer": "No"}}}))
}

// TestPivotedWorkerLetsGo: once a graceful or immediate pivot is
// acknowledged, the old worker's session can neither checkpoint the
// paused task nor take it back out of the resume queue, and nothing is
// written; another worker claims and resumes it.
func TestPivotedWorkerLetsGo(t *testing.T) {
	for _, mode := range []string{"graceful", "immediate"} {
		t.Run(mode, func(t *testing.T) {
			e := setupPivot(t, 3)
			e.orch.ok("pivot_worker", map[string]any{"worker_id": e.worker, "mode": mode, "reason": "stop", "wait_seconds": 0}, nil)
			e.wk.ok("pivot_acknowledge", map[string]any{"checkpoint": map[string]any{
				"original_task": "rate limiting", "completed": []string{"half"}, "resume_instructions": "carry on",
			}}, nil)
			before := filetest.Snapshot(t, e.root)
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{"checkpoint_add", map[string]any{"task_id": e.rateLimiting, "type": "progress", "summary": "still here"}},
				{"task_update_status", map[string]any{"id": e.rateLimiting, "status": "in_progress"}},
				{"task_set_plan", map[string]any{"task_id": e.rateLimiting, "plan": "mine again"}},
				{"start_subagent_task", map[string]any{"document": e.rateLimiting}},
			} {
				code := e.wk.fail(c.tool, c.args)
				assert.Contains(t, []string{"STALE_CLAIM", "INVALID_TRANSITION"}, code, c.tool)
			}
			assert.Equal(t, before, filetest.Snapshot(t, e.root), "the paused task stays in the resume queue")

			other := e.others[0]
			id := other.register("worker-2")
			var claim claimJSON
			other.ok("task_claim", map[string]any{"task_id": e.rateLimiting, "agent_id": id}, &claim)
			require.True(t, claim.Success)
			other.ok("task_update_status", map[string]any{"id": e.rateLimiting, "status": "in_progress"}, nil)
		})
	}
}
