package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/workspace"
)

// The agent protocol through the SDK's client, in process: one
// server, and as many MCP sessions on it as the test has agents, each
// session's agent being its caller.

// lifecycleStart is when the tests' clocks start.
var lifecycleStart = time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)

// manualClock is a clock the test moves by hand.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func newManualClock() *manualClock { return &manualClock{now: lifecycleStart} }

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// mcpSession is one client session on an in-process server.
type mcpSession struct {
	t  *testing.T
	cs *mcp.ClientSession
}

// serveSessions serves root in this process on the clock now and connects
// n client sessions to that one server.
func serveSessions(t *testing.T, root string, now func() time.Time, n int) []*mcpSession {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server, err := NewServer(ws, WithClock(now))
	require.NoError(t, err)
	out := make([]*mcpSession, n)
	for i := range out {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { ss.Close() })
		cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("agent-%d", i), Version: "v0"}, nil).
			Connect(context.Background(), ct, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		out[i] = &mcpSession{t: t, cs: cs}
	}
	return out
}

// try calls a tool and returns its structured content, or the text of the
// tool error ("CODE: message"); err is a protocol error. Safe in any
// goroutine.
func (s *mcpSession) try(tool string, args any) (out map[string]any, toolErr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, "", err
	}
	if res.IsError {
		return nil, text(res) + " ", nil // never "", even for an empty text
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, "", err
	}
	out = map[string]any{}
	return out, "", json.Unmarshal(raw, &out)
}

// ok calls a tool that must succeed and decodes its result into out
// (a pointer to a struct or a map).
func (s *mcpSession) ok(tool string, args, out any) {
	s.t.Helper()
	res, toolErr, err := s.try(tool, args)
	require.NoError(s.t, err, tool)
	require.Empty(s.t, toolErr, "%s failed", tool)
	if out != nil {
		reflect.ValueOf(out).Elem().SetZero() // no field left from an earlier result
		raw, err := json.Marshal(res)
		require.NoError(s.t, err)
		require.NoError(s.t, json.Unmarshal(raw, out), "%s: %s", tool, raw)
	}
}

// fail calls a tool that must fail and returns the error's code.
func (s *mcpSession) fail(tool string, args any) string {
	s.t.Helper()
	_, toolErr, err := s.try(tool, args)
	require.NoError(s.t, err, tool)
	require.NotEmpty(s.t, toolErr, "%s succeeded", tool)
	code, _, _ := strings.Cut(toolErr, ":")
	return code
}

// register registers an agent on s and returns its id.
func (s *mcpSession) register(name string) string {
	s.t.Helper()
	var a registeredJSON
	s.ok("agent_register", map[string]any{"name": name, "runtime": "claude_code"}, &a)
	require.Regexp(s.t, `^ag_[0-9a-f]{12}$`, a.ID)
	return a.ID
}

// The tests' result types, written from the tool descriptions.

type registeredJSON struct {
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	Status        string            `json:"status"`
	Runtime       string            `json:"runtime"`
	Role          string            `json:"role"`
	Capabilities  []string          `json:"capabilities"`
	WorkspacePath string            `json:"workspace_path"`
	Metadata      map[string]string `json:"metadata"`
	Registered    time.Time         `json:"registered"`
	LastHeartbeat time.Time         `json:"last_heartbeat"`
}

type nextJSON struct {
	Tasks []struct {
		ID             string   `json:"id"`
		Title          string   `json:"title"`
		Status         string   `json:"status"`
		DependsOn      []string `json:"depends_on"`
		Stranded       bool     `json:"stranded"`
		PreviousHolder string   `json:"previous_holder"`
	} `json:"tasks"`
}

func (n nextJSON) ids() []string {
	out := []string{}
	for _, t := range n.Tasks {
		out = append(out, t.ID)
	}
	return out
}

type claimJSON struct {
	Success          bool   `json:"success"`
	AlreadyClaimedBy string `json:"already_claimed_by"`
	Claim            *struct {
		TaskID       string    `json:"task_id"`
		AgentID      string    `json:"agent_id"`
		Token        int64     `json:"token"`
		Claimed      time.Time `json:"claimed"`
		TookOverFrom string    `json:"took_over_from"`
	} `json:"claim"`
}

type planTaskJSON struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Status    string `json:"status"`
	DependsOn string `json:"depends_on"`
	Assignee  string `json:"assignee"`
	Plan      string `json:"plan"`
	Outcome   string `json:"outcome"`
	Error     string `json:"error"`
	Completed string `json:"completed"`
}

type checkpointJSON struct {
	TaskID       string    `json:"task_id"`
	Sequence     int       `json:"sequence"`
	Type         string    `json:"type"`
	Time         time.Time `json:"time"`
	Agent        string    `json:"agent"`
	Summary      string    `json:"summary"`
	Detail       string    `json:"detail"`
	FilesChanged []string  `json:"files_changed"`
	Key          string    `json:"key"`
}

type taskUpdateJSON struct {
	Success    bool            `json:"success"`
	Task       planTaskJSON    `json:"task"`
	Checkpoint *checkpointJSON `json:"checkpoint"`
}

type contextJSON struct {
	Workflow struct {
		ID      string `json:"id"`
		Title   string `json:"title"`
		Summary string `json:"summary"`
	} `json:"workflow"`
	CurrentTask struct {
		ID          string `json:"id"`
		Title       string `json:"title"`
		Status      string `json:"status"`
		Assignee    string `json:"assignee"`
		Plan        string `json:"plan"`
		Text        string `json:"text"`
		Checkpoints []struct {
			Sequence int    `json:"sequence"`
			Type     string `json:"type"`
			Agent    string `json:"agent"`
			Summary  string `json:"summary"`
			Detail   string `json:"detail"`
		} `json:"checkpoints"`
	} `json:"current_task"`
	PriorTasks         []struct{ ID, Text string } `json:"prior_tasks"`
	DependencyOutcomes []struct{ ID, Text string } `json:"dependency_outcomes"`
	Cut                []any                       `json:"cut"`
	Tokens             int                         `json:"tokens"`
	MaxTokens          int                         `json:"max_tokens"`
}

func (c contextJSON) checkpointSummaries() []string {
	out := []string{}
	for _, cp := range c.CurrentTask.Checkpoints {
		out = append(out, fmt.Sprintf("%d %s %s", cp.Sequence, cp.Type, cp.Summary))
	}
	return out
}

type progressJSON struct {
	WorkflowID   string         `json:"workflow_id"`
	Title        string         `json:"title"`
	Status       string         `json:"status"`
	Total        int            `json:"total"`
	Counts       map[string]int `json:"counts"`
	Percent      int            `json:"percent_complete"`
	CurrentTasks []struct {
		ID           string `json:"id"`
		Title        string `json:"title"`
		Status       string `json:"status"`
		Holder       string `json:"holder"`
		HolderOnline bool   `json:"holder_online"`
	} `json:"current_tasks"`
}

type workflowSummaryJSON struct {
	ID     string         `json:"id"`
	Title  string         `json:"title"`
	Status string         `json:"status"`
	Total  int            `json:"total"`
	Counts map[string]int `json:"counts"`
}

// The seven steps of the agent protocol, on a plan made with workflow_create and
// workflow_set_plan, twice: the second task depends on the first, so it
// is offered once the first is completed, and its context carries the
// first one's outcome.
func TestLifecycleSevenSteps(t *testing.T) {
	root := t.TempDir()
	clock := newManualClock()
	s := serveSessions(t, root, clock.Now, 1)[0]

	var created workflowSummaryJSON
	s.ok("workflow_create", map[string]any{"name": "Google OAuth", "description": "Sign in with Google accounts."}, &created)
	assert.Equal(t, "/google-oauth.md", created.ID)
	assert.Equal(t, "Google OAuth", created.Title)
	assert.Equal(t, "planning", created.Status)

	var set struct {
		Success    bool           `json:"success"`
		WorkflowID string         `json:"workflow_id"`
		Tasks      []planTaskJSON `json:"tasks"`
	}
	s.ok("workflow_set_plan", map[string]any{"workflow_id": "/google-oauth.md", "tasks": []map[string]any{
		{"name": "Setup OAuth", "description": "Install passport and write its config."},
		{"name": "Implement callback", "description": "Handle the redirect.", "depends_on": []string{"Setup OAuth"}},
	}}, &set)
	assert.True(t, set.Success)
	assert.Equal(t, "/google-oauth.md", set.WorkflowID)
	require.Len(t, set.Tasks, 2)
	assert.Equal(t, planTaskJSON{ID: "/google-oauth.md#setup-oauth", Title: "Setup OAuth", Status: "pending"}, set.Tasks[0])
	assert.Equal(t, planTaskJSON{ID: "/google-oauth.md#implement-callback", Title: "Implement callback", Status: "pending",
		DependsOn: "#setup-oauth"}, set.Tasks[1])

	// Step 1: register.
	var reg registeredJSON
	s.ok("agent_register", map[string]any{
		"name": "worker-1", "runtime": "claude_code", "capabilities": []string{"typescript", "testing"},
		"workspace_path": "/projects/myapp", "metadata": map[string]any{"model": "opus", "pid": 4242},
	}, &reg)
	me := reg.ID
	assert.Regexp(t, regexp.MustCompile(`^ag_[0-9a-f]{12}$`), me)
	assert.Equal(t, registeredJSON{ID: me, Name: "worker-1", Status: "online", Runtime: "claude_code", Role: "worker",
		Capabilities: []string{"typescript", "testing"}, WorkspacePath: "/projects/myapp",
		Metadata: map[string]string{"model": "opus", "pid": "4242"}, Registered: lifecycleStart, LastHeartbeat: lifecycleStart}, reg)

	for i, want := range []struct{ task, outcome string }{
		{"/google-oauth.md#setup-oauth", "OAuth infrastructure setup complete"},
		{"/google-oauth.md#implement-callback", "Callback stores the session"},
	} {
		// Step 2: find and claim.
		var next nextJSON
		s.ok("workflow_next_tasks", map[string]any{"workflow_id": "/google-oauth.md"}, &next)
		assert.Equal(t, []string{want.task}, next.ids(), "only the task whose dependencies are done is offered")
		var claim claimJSON
		s.ok("task_claim", map[string]any{"task_id": want.task, "agent_id": me}, &claim)
		require.True(t, claim.Success)
		require.NotNil(t, claim.Claim)
		assert.Equal(t, me, claim.Claim.AgentID)
		assert.Equal(t, want.task, claim.Claim.TaskID)
		assert.Equal(t, int64(i+1), claim.Claim.Token, "tokens grow across the tasks of a plan")

		// Step 3: load the context.
		var tc contextJSON
		s.ok("task_load_context", map[string]any{"task_id": want.task, "include": map[string]any{
			"workflow_plan": true, "prior_task_outcomes": true, "dependency_outcomes": true, "recent_checkpoints": 5,
		}, "max_tokens": 8000}, &tc)
		assert.Equal(t, "/google-oauth.md", tc.Workflow.ID)
		assert.Equal(t, "Google OAuth", tc.Workflow.Title)
		assert.Equal(t, "Sign in with Google accounts.", tc.Workflow.Summary)
		assert.Equal(t, want.task, tc.CurrentTask.ID)
		assert.Equal(t, "pending", tc.CurrentTask.Status)
		assert.Equal(t, me, tc.CurrentTask.Assignee)
		assert.Equal(t, 8000, tc.MaxTokens)
		assert.Positive(t, tc.Tokens)
		assert.LessOrEqual(t, tc.Tokens, 8000)
		assert.Empty(t, tc.Cut)
		if i == 1 {
			require.Len(t, tc.DependencyOutcomes, 1)
			assert.Equal(t, "/google-oauth.md#setup-oauth", tc.DependencyOutcomes[0].ID)
			assert.Contains(t, tc.DependencyOutcomes[0].Text, "OAuth infrastructure setup complete")
			assert.Empty(t, tc.PriorTasks, "a dependency's outcome is not repeated among the prior tasks")
		} else {
			assert.Empty(t, tc.DependencyOutcomes)
			assert.Empty(t, tc.PriorTasks)
		}

		// The approach, then in progress.
		var planned taskUpdateJSON
		s.ok("task_set_plan", map[string]any{"id": want.task, "plan": "passport with the Google strategy"}, &planned)
		assert.Equal(t, "planning", planned.Task.Status)
		assert.Equal(t, "passport with the Google strategy", planned.Task.Plan)
		var replanned contextJSON
		s.ok("task_load_context", map[string]any{"task_id": want.task}, &replanned)
		assert.Equal(t, "passport with the Google strategy", replanned.CurrentTask.Plan, "the approach keeps the protocol's name, plan")
		var started taskUpdateJSON
		s.ok("task_update_status", map[string]any{"id": want.task, "status": "in_progress"}, &started)
		assert.Equal(t, "in_progress", started.Task.Status)
		assert.Equal(t, me, started.Task.Assignee)

		// Step 4: checkpoints, with a detail as text and as JSON.
		var progress, decision checkpointJSON
		s.ok("checkpoint_add", map[string]any{"task_id": want.task, "type": "progress",
			"summary": "Installed OAuth dependencies", "files_changed": []string{"package.json", "src/auth/passport.ts"}}, &progress)
		assert.Equal(t, checkpointJSON{TaskID: want.task, Sequence: 1, Type: "progress", Time: lifecycleStart, Agent: me,
			Summary: "Installed OAuth dependencies", FilesChanged: []string{"package.json", "src/auth/passport.ts"}}, progress)
		s.ok("checkpoint_add", map[string]any{"task_id": want.task, "type": "decision",
			"summary": "Chose JWT over session cookies", "detail": map[string]any{"reason": "Better for API-first architecture"}}, &decision)
		assert.Equal(t, 2, decision.Sequence)
		assert.Equal(t, `{"reason":"Better for API-first architecture"}`, decision.Detail)

		// Step 5: heartbeat.
		var hb struct {
			Success         bool  `json:"success"`
			NextHeartbeatMS int64 `json:"next_heartbeat_ms"`
		}
		s.ok("agent_heartbeat", map[string]any{"agent_id": me, "current_task_id": want.task, "status": "busy"}, &hb)
		assert.True(t, hb.Success)
		assert.Equal(t, int64(30000), hb.NextHeartbeatMS)

		// Step 6: completed, with an outcome detail recorded as a
		// checkpoint of type complete; a retry changes nothing.
		args := map[string]any{"id": want.task, "status": "completed", "outcome": want.outcome,
			"outcome_detail": map[string]any{"files_created": []string{"src/auth/passport.ts"}, "packages_added": []string{"passport"}}}
		var done taskUpdateJSON
		s.ok("task_update_status", args, &done)
		assert.True(t, done.Success)
		assert.Equal(t, "completed", done.Task.Status)
		assert.Equal(t, want.outcome, done.Task.Outcome)
		assert.Equal(t, "2030-05-06", done.Task.Completed)
		require.NotNil(t, done.Checkpoint)
		assert.Equal(t, 3, done.Checkpoint.Sequence)
		assert.Equal(t, "complete", done.Checkpoint.Type)
		assert.Equal(t, want.outcome, done.Checkpoint.Summary)
		assert.Equal(t, `{"files_created":["src/auth/passport.ts"],"packages_added":["passport"]}`, done.Checkpoint.Detail)
		before := filetest.Snapshot(t, root)
		var again taskUpdateJSON
		s.ok("task_update_status", args, &again)
		assert.Equal(t, 3, again.Checkpoint.Sequence, "the retry is answered with the recorded checkpoint")
		assert.Equal(t, before, filetest.Snapshot(t, root), "a retried completion writes nothing")

		var list struct {
			TaskID      string           `json:"task_id"`
			Count       int              `json:"count"`
			Checkpoints []checkpointJSON `json:"checkpoints"`
		}
		s.ok("checkpoint_list", map[string]any{"task_id": want.task}, &list)
		assert.Equal(t, 3, list.Count)
		var seqs []string
		for _, cp := range list.Checkpoints {
			seqs = append(seqs, fmt.Sprintf("%d %s %s", cp.Sequence, cp.Type, cp.Agent))
		}
		assert.Equal(t, []string{"3 complete " + me, "2 decision " + me, "1 progress " + me}, seqs, "newest first")
		s.ok("checkpoint_list", map[string]any{"task_id": want.task, "types": []string{"decision"}, "limit": 5}, &list)
		assert.Equal(t, 1, list.Count)
		s.ok("checkpoint_list", map[string]any{"task_id": want.task, "since_sequence": 1, "limit": 1}, &list)
		require.Equal(t, 1, list.Count)
		assert.Equal(t, 3, list.Checkpoints[0].Sequence)
	}

	var progress progressJSON
	s.ok("workflow_progress", map[string]any{"workflow_id": "/google-oauth.md"}, &progress)
	assert.Equal(t, "completed", progress.Status)
	assert.Equal(t, 100, progress.Percent)
	assert.Equal(t, 2, progress.Counts["completed"])
	var next nextJSON
	s.ok("workflow_next_tasks", map[string]any{"workflow_id": "/google-oauth.md"}, &next)
	assert.Empty(t, next.Tasks)

	// Step 7: unregister; a second unregister finds no agent.
	var bye struct {
		Success bool `json:"success"`
	}
	s.ok("agent_unregister", map[string]any{"id": me}, &bye)
	assert.True(t, bye.Success)
	assert.Equal(t, "AGENT_NOT_FOUND", s.fail("agent_unregister", map[string]any{"id": me}))
	assert.Equal(t, "AGENT_NOT_FOUND", s.fail("agent_heartbeat", map[string]any{"agent_id": me}))

	doc := filetest.Read(t, root, "docs/google-oauth.md")
	assert.Contains(t, doc, "# Google OAuth\n\nSign in with Google accounts.\n\n## Tasks\n")
	assert.Contains(t, doc, "- Assignee: "+me+"\n")
	assert.Contains(t, doc, "- Plan: passport with the Google strategy\n")
	assert.Contains(t, doc, "- Note: OAuth infrastructure setup complete\n")
	assert.Contains(t, doc, "- Note: Callback stores the session\n")
	assert.Contains(t, doc, "- Depends-On: #setup-oauth\n")
	journal := filetest.Read(t, root, "checkpoints/tasks/google-oauth.md/setup-oauth.md")
	assert.Contains(t, journal, "## 1 · progress · 2030-05-06T07:08:09Z · "+me+"\n")
	assert.Contains(t, journal, "## 3 · complete · 2030-05-06T07:08:09Z · "+me+"\n")
}

// After a lost context an agent finds its work again: workflow_list with
// status in_progress, workflow_progress, task_load_context with
// all_checkpoints (every checkpoint, not the 5 newest), then claims the
// task back with its claim's token and finishes it.
func TestLifecycleRecovery(t *testing.T) {
	root := newRoot(t, map[string]string{
		"docs/other.md": "# Other\n\n## Tasks\n\n### Idle\n\n- Status: pending\n",
	})
	clock := newManualClock()
	sessions := serveSessions(t, root, clock.Now, 2)
	before, after := sessions[0], sessions[1]

	before.ok("workflow_create", map[string]any{"name": "Billing", "path": "/billing.md"}, nil)
	before.ok("workflow_set_plan", map[string]any{"workflow_id": "/billing.md", "tasks": []map[string]any{
		{"name": "Invoice model"}, {"name": "Invoice emails", "depends_on": []string{"#invoice-model"}},
	}}, nil)
	// The agent chooses its id, so that it can register again after
	// losing its context.
	register := map[string]any{"id": "worker-7", "name": "worker-7", "runtime": "claude_code"}
	before.ok("agent_register", register, nil)
	const me = "worker-7"
	const task = "/billing.md#invoice-model"
	var claim claimJSON
	before.ok("task_claim", map[string]any{"task_id": task, "agent_id": me}, &claim)
	require.True(t, claim.Success)
	before.ok("task_update_status", map[string]any{"id": task, "status": "in_progress"}, nil)
	for i := 1; i <= 7; i++ {
		clock.Add(time.Second)
		before.ok("checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": fmt.Sprintf("step %d", i)}, nil)
	}
	before.ok("agent_heartbeat", map[string]any{"agent_id": me, "current_task_id": task, "status": "busy"}, nil)

	// The context is lost: a new session knows nothing but the agent's id.
	var list struct {
		Workflows []workflowSummaryJSON `json:"workflows"`
	}
	after.ok("workflow_list", map[string]any{"status": []string{"in_progress"}}, &list)
	require.Len(t, list.Workflows, 1, "the pending plan is not listed")
	assert.Equal(t, workflowSummaryJSON{ID: "/billing.md", Title: "Billing", Status: "in_progress", Total: 2,
		Counts: map[string]int{"pending": 1, "planning": 0, "in_progress": 1, "paused": 0, "blocked": 0, "completed": 0, "failed": 0, "skipped": 0}},
		list.Workflows[0])
	after.ok("workflow_list", map[string]any{}, &list)
	assert.Len(t, list.Workflows, 2)

	var progress progressJSON
	after.ok("workflow_progress", map[string]any{"workflow_id": list.Workflows[0].ID}, &progress)
	require.Len(t, progress.CurrentTasks, 1)
	assert.Equal(t, task, progress.CurrentTasks[0].ID)
	assert.Equal(t, "in_progress", progress.CurrentTasks[0].Status)
	assert.Equal(t, me, progress.CurrentTasks[0].Holder)
	assert.True(t, progress.CurrentTasks[0].HolderOnline)

	var full contextJSON
	after.ok("task_load_context", map[string]any{"task_id": task, "include": map[string]any{
		"workflow_plan": true, "prior_task_outcomes": true, "all_checkpoints": true}}, &full)
	assert.Equal(t, []string{"7 progress step 7", "6 progress step 6", "5 progress step 5", "4 progress step 4",
		"3 progress step 3", "2 progress step 2", "1 progress step 1"}, full.checkpointSummaries())
	var recent contextJSON
	after.ok("task_load_context", map[string]any{"task_id": task}, &recent)
	assert.Equal(t, []string{"7 progress step 7", "6 progress step 6", "5 progress step 5", "4 progress step 4",
		"3 progress step 3"}, recent.checkpointSummaries(), "without all_checkpoints, the 5 newest")

	// The new session registers as the same agent, and cannot write
	// before it takes the claim back: its writes present no claim, and the
	// agent holds the task.
	var again registeredJSON
	after.ok("agent_register", register, &again)
	assert.Equal(t, me, again.ID)
	assert.Equal(t, lifecycleStart, again.Registered, "the agent as first registered")
	snap := filetest.Snapshot(t, root)
	assert.Equal(t, "STALE_CLAIM", after.fail("checkpoint_add", map[string]any{"task_id": task, "type": "recovery", "summary": "resumed"}))
	assert.Equal(t, snap, filetest.Snapshot(t, root))

	var back claimJSON
	after.ok("task_claim", map[string]any{"task_id": task, "agent_id": me}, &back)
	require.True(t, back.Success)
	assert.Equal(t, int64(1), back.Claim.Token, "the holder gets its claim back")
	var cp checkpointJSON
	after.ok("checkpoint_add", map[string]any{"task_id": task, "type": "recovery", "summary": "resumed after a lost context"}, &cp)
	assert.Equal(t, 8, cp.Sequence)
	var done taskUpdateJSON
	after.ok("task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "Invoice model in place"}, &done)
	assert.Equal(t, "completed", done.Task.Status)
	assert.Nil(t, done.Checkpoint, "no outcome_detail, no checkpoint")
}

// Two agents on two sessions work one plan with the protocol's claim-conflict
// loop until every task is completed: each task is completed exactly once,
// by the agent that claimed it, after its dependencies.
func TestLifecycleTwoAgentsClaimConflictLoop(t *testing.T) {
	root := t.TempDir()
	clock := newManualClock() // never moves: both agents stay online
	sessions := serveSessions(t, root, clock.Now, 2)
	const wf = "/shop.md"
	sessions[0].ok("workflow_create", map[string]any{"name": "Shop", "path": wf}, nil)
	deps := map[string][]string{
		"catalog": nil, "cart": nil, "accounts": nil, "search": nil,
		"checkout": {"cart", "accounts"}, "reviews": {"catalog", "accounts"},
		"orders": {"checkout"}, "launch": {"orders", "reviews", "search"},
	}
	order := []string{"catalog", "cart", "accounts", "search", "checkout", "reviews", "orders", "launch"}
	var tasks []map[string]any
	for _, name := range order {
		tasks = append(tasks, map[string]any{"name": name, "depends_on": deps[name]})
	}
	sessions[0].ok("workflow_set_plan", map[string]any{"workflow_id": wf, "tasks": tasks}, nil)
	agents := []string{sessions[0].register("worker-a"), sessions[1].register("worker-b")}

	// The protocol's diagram: both see the same tasks, a claims the first, b
	// is told a holds it and claims the next.
	var nextA, nextB nextJSON
	sessions[0].ok("workflow_next_tasks", map[string]any{"workflow_id": wf}, &nextA)
	sessions[1].ok("workflow_next_tasks", map[string]any{"workflow_id": wf}, &nextB)
	want := []string{"/shop.md#catalog", "/shop.md#cart", "/shop.md#accounts", "/shop.md#search"}
	assert.Equal(t, want, nextA.ids())
	assert.Equal(t, want, nextB.ids())
	var c claimJSON
	sessions[0].ok("task_claim", map[string]any{"task_id": "/shop.md#catalog", "agent_id": agents[0]}, &c)
	require.True(t, c.Success)
	sessions[1].ok("task_claim", map[string]any{"task_id": "/shop.md#catalog", "agent_id": agents[1]}, &c)
	assert.Equal(t, claimJSON{AlreadyClaimedBy: agents[0]}, c)
	sessions[1].ok("task_claim", map[string]any{"task_id": "/shop.md#cart", "agent_id": agents[1]}, &c)
	require.True(t, c.Success)
	held := []string{"/shop.md#catalog", "/shop.md#cart"}

	type completion struct{ task, by, claimedBy string }
	var (
		mu          sync.Mutex
		completions []completion
		conflicts   int
	)
	work := func(i int) error {
		s, me := sessions[i], agents[i]
		finish := func(task string) error {
			var tc contextJSON
			if err := call(s, "task_load_context", map[string]any{"task_id": task}, &tc); err != nil {
				return err
			}
			name := strings.TrimPrefix(task, wf+"#")
			if len(tc.DependencyOutcomes) != len(deps[name]) {
				return fmt.Errorf("%s started with %d dependency outcomes, want %d", task, len(tc.DependencyOutcomes), len(deps[name]))
			}
			steps := []struct {
				tool string
				args map[string]any
			}{
				{"task_set_plan", map[string]any{"task_id": task, "plan": "by " + me}},
				{"task_update_status", map[string]any{"id": task, "status": "in_progress"}},
				{"checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "worked by " + me}},
				{"agent_heartbeat", map[string]any{"agent_id": me, "current_task_id": task, "status": "busy"}},
			}
			for _, step := range steps {
				if err := call(s, step.tool, step.args, nil); err != nil {
					return err
				}
			}
			var done taskUpdateJSON
			if err := call(s, "task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "done by " + me}, &done); err != nil {
				return err
			}
			mu.Lock()
			completions = append(completions, completion{task: task, by: me, claimedBy: done.Task.Assignee})
			mu.Unlock()
			return nil
		}
		if err := finish(held[i]); err != nil {
			return err
		}
		for range 1000 {
			var next nextJSON
			if err := call(s, "workflow_next_tasks", map[string]any{"workflow_id": wf}, &next); err != nil {
				return err
			}
			if len(next.Tasks) == 0 {
				var p progressJSON
				if err := call(s, "workflow_progress", map[string]any{"workflow_id": wf}, &p); err != nil {
					return err
				}
				if p.Status == "completed" {
					return nil
				}
				time.Sleep(time.Millisecond) // the other agent holds the rest: poll again
				continue
			}
			for _, task := range next.Tasks {
				var claim claimJSON
				err := call(s, "task_claim", map[string]any{"task_id": task.ID, "agent_id": me}, &claim)
				if err != nil && strings.Contains(err.Error(), "task_claim: INVALID_TRANSITION: ") {
					// The list is advice: the other agent completed the
					// task since. Try the next.
					continue
				}
				if err != nil {
					return err
				}
				if !claim.Success {
					if claim.AlreadyClaimedBy != agents[1-i] {
						return fmt.Errorf("%s claimed by %q, not by the other agent", task.ID, claim.AlreadyClaimedBy)
					}
					mu.Lock()
					conflicts++
					mu.Unlock()
					continue // already claimed: try the next
				}
				if err := finish(task.ID); err != nil {
					return err
				}
				break
			}
		}
		return fmt.Errorf("agent %d: the plan was not completed", i)
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { errs[i] = work(i) })
	}
	wg.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])

	var tasksDone []string
	for _, c := range completions {
		tasksDone = append(tasksDone, c.task)
		assert.Equal(t, c.by, c.claimedBy, "%s completed by %s, held by %s", c.task, c.by, c.claimedBy)
	}
	sort.Strings(tasksDone)
	var all []string
	for _, name := range order {
		all = append(all, wf+"#"+name)
	}
	assert.Equal(t, slices.Sorted(slices.Values(all)), tasksDone, "every task completed exactly once")

	// The plan says who did each task, and its journal agrees.
	doc := filetest.Read(t, root, "docs/shop.md")
	for _, c := range completions {
		name := strings.TrimPrefix(c.task, wf+"#")
		assert.Contains(t, doc, "### "+name+"\n\n- Status: completed\n", name)
		section := doc[strings.Index(doc, "### "+name+"\n"):]
		if next := strings.Index(section[1:], "\n### "); next >= 0 {
			section = section[:next+1]
		}
		assert.Contains(t, section, "- Assignee: "+c.by+"\n", name)
		assert.Contains(t, section, "- Note: done by "+c.by+"\n", name)
		journal := filetest.Read(t, root, "checkpoints/tasks/shop.md/"+name+".md")
		assert.Equal(t, 1, strings.Count(journal, "\n## "), name)
		assert.Contains(t, journal, "## 1 · progress · 2030-05-06T07:08:09Z · "+c.by+"\n\nworked by "+c.by+"\n", name)
	}
	var p progressJSON
	sessions[1].ok("workflow_progress", map[string]any{"workflow_id": wf}, &p)
	assert.Equal(t, 8, p.Counts["completed"])
	t.Logf("claim conflicts in the loop: %d", conflicts)
}

// call is mcpSession.ok for goroutines: it returns what went wrong.
func call(s *mcpSession, tool string, args map[string]any, out any) error {
	res, toolErr, err := s.try(tool, args)
	if err != nil {
		return fmt.Errorf("%s: %w", tool, err)
	}
	if toolErr != "" {
		return fmt.Errorf("%s: %s", tool, toolErr)
	}
	if out == nil {
		return nil
	}
	reflect.ValueOf(out).Elem().SetZero()
	raw, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

// An agent whose heartbeats stop loses its task after the timeout to the
// next agent that claims it; its own writes are then STALE_CLAIM and
// change neither the plan nor the journal.
func TestLifecycleStoppedHeartbeatsLoseTheTask(t *testing.T) {
	root := t.TempDir()
	clock := newManualClock()
	sessions := serveSessions(t, root, clock.Now, 2)
	slow, fast := sessions[0], sessions[1]
	slow.ok("workflow_set_plan", map[string]any{"workflow_id": "/api.md", "tasks": []map[string]any{{"name": "Rate limits"}}}, nil)
	const task = "/api.md#rate-limits"
	a := slow.register("slow")
	b := fast.register("fast")
	var claim claimJSON
	slow.ok("task_claim", map[string]any{"task_id": task, "agent_id": a}, &claim)
	require.True(t, claim.Success)
	slow.ok("task_update_status", map[string]any{"id": task, "status": "in_progress"}, nil)
	slow.ok("checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "token bucket drafted"}, nil)

	// Within the lease the task is a's.
	clock.Add(45 * time.Second)
	fast.ok("agent_heartbeat", map[string]any{"agent_id": b, "status": "idle"}, nil)
	fast.ok("task_claim", map[string]any{"task_id": task, "agent_id": b}, &claim)
	assert.Equal(t, claimJSON{AlreadyClaimedBy: a}, claim)

	// a's last sign of life is 65 seconds old: b takes the task over.
	clock.Add(20 * time.Second)
	var next nextJSON
	fast.ok("workflow_next_tasks", map[string]any{"workflow_id": "/api.md"}, &next)
	require.Len(t, next.Tasks, 1)
	assert.Equal(t, task, next.Tasks[0].ID)
	assert.True(t, next.Tasks[0].Stranded)
	assert.Equal(t, a, next.Tasks[0].PreviousHolder)
	fast.ok("task_claim", map[string]any{"task_id": task, "agent_id": b}, &claim)
	require.True(t, claim.Success)
	assert.Equal(t, int64(2), claim.Claim.Token)
	assert.Equal(t, a, claim.Claim.TookOverFrom)

	document := filetest.Read(t, root, "docs/api.md")
	journal := filetest.Read(t, root, "checkpoints/tasks/api.md/rate-limits.md")
	assert.Contains(t, document, "- Assignee: "+b+"\n")

	// a comes back, even with a fresh heartbeat: every write is refused.
	for _, heartbeat := range []bool{false, true} {
		if heartbeat {
			slow.ok("agent_heartbeat", map[string]any{"agent_id": a, "current_task_id": task, "status": "busy"}, nil)
		}
		assert.Equal(t, "STALE_CLAIM", slow.fail("task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "limits done"}))
		assert.Equal(t, "STALE_CLAIM", slow.fail("task_update_status", map[string]any{"id": task, "status": "failed", "error": "gave up"}))
		assert.Equal(t, "STALE_CLAIM", slow.fail("checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "more limits"}))
		assert.Equal(t, "STALE_CLAIM", slow.fail("task_set_plan", map[string]any{"id": task, "plan": "my way"}))
		assert.Equal(t, "STALE_CLAIM", slow.fail("task_release", map[string]any{"task_id": task}))
		assert.Equal(t, document, filetest.Read(t, root, "docs/api.md"), "the plan is unchanged")
		assert.Equal(t, journal, filetest.Read(t, root, "checkpoints/tasks/api.md/rate-limits.md"), "the journal is unchanged")
	}

	// b picks the work up from the journal and finishes it.
	var tc contextJSON
	fast.ok("task_load_context", map[string]any{"task_id": task, "include": map[string]any{"all_checkpoints": true}}, &tc)
	assert.Equal(t, []string{"1 progress token bucket drafted"}, tc.checkpointSummaries())
	var cp checkpointJSON
	fast.ok("checkpoint_add", map[string]any{"task_id": task, "type": "recovery", "summary": "took over from " + a}, &cp)
	assert.Equal(t, b, cp.Agent)
	var done taskUpdateJSON
	fast.ok("task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "limits in place"}, &done)
	assert.Equal(t, "completed", done.Task.Status)
	assert.Equal(t, b, done.Task.Assignee)
}

// A session that did not claim a task cannot update, plan, checkpoint or
// release it while another agent holds it: nothing is written. Once the
// holder released it, the other session's agent may claim it and write.
func TestLifecycleNoWritesWithoutTheClaim(t *testing.T) {
	root := t.TempDir()
	clock := newManualClock()
	sessions := serveSessions(t, root, clock.Now, 2)
	holder, other := sessions[0], sessions[1]
	holder.ok("workflow_set_plan", map[string]any{"workflow_id": "/ops.md", "tasks": []map[string]any{{"name": "Backups"}}}, nil)
	const task = "/ops.md#backups"
	a := holder.register("holder")
	b := other.register("other")
	var claim claimJSON
	holder.ok("task_claim", map[string]any{"task_id": task, "agent_id": a}, &claim)
	require.True(t, claim.Success)
	holder.ok("task_update_status", map[string]any{"id": task, "status": "in_progress"}, nil)
	holder.ok("checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "cron written"}, nil)

	before := filetest.Snapshot(t, root)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "backups done"}},
		{"task_update_status", map[string]any{"id": task, "status": "paused"}},
		{"task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "backups done", "outcome_detail": map[string]any{"x": 1}}},
		{"task_set_plan", map[string]any{"task_id": task, "plan": "rsync"}},
		{"checkpoint_add", map[string]any{"task_id": task, "type": "decision", "summary": "use rsync", "detail": "cheaper"}},
		{"task_release", map[string]any{"task_id": task}},
	} {
		assert.Equal(t, "STALE_CLAIM", other.fail(c.tool, c.args), c.tool)
	}
	assert.Equal(t, before, filetest.Snapshot(t, root), "nothing was written")
	var list struct {
		Count int `json:"count"`
	}
	other.ok("checkpoint_list", map[string]any{"task_id": task}, &list)
	assert.Equal(t, 1, list.Count)

	// The holder lets go; now the other agent may take the task and write.
	holder.ok("task_release", map[string]any{"task_id": task}, nil)
	holder.ok("task_release", map[string]any{"task_id": task}, nil) // a retry
	assert.Equal(t, "STALE_CLAIM", holder.fail("checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "late"}),
		"the released claim is no longer the holder's")
	other.ok("task_claim", map[string]any{"task_id": task, "agent_id": b}, &claim)
	require.True(t, claim.Success)
	assert.Equal(t, int64(2), claim.Claim.Token)
	var planned taskUpdateJSON
	other.ok("task_set_plan", map[string]any{"task_id": task, "plan": "rsync"}, &planned)
	assert.Equal(t, "rsync", planned.Task.Plan)
	assert.Equal(t, "in_progress", planned.Task.Status)
	assert.Equal(t, "STALE_CLAIM", holder.fail("task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "mine"}))
}

// TestSessionWithoutAgentLeavesHeldTasksAlone: a session that never
// registered is a caller that is not an agent: on a task another
// session's agent holds, no tool of any group writes — not the plan's
// status, plan or checkpoints, not the task systems' start, complete,
// status or edit — and every file stays as it was. On a task no agent
// holds it may, and the holder's own session writes through the task
// systems' tools with its claim.
func TestSessionWithoutAgentLeavesHeldTasksAlone(t *testing.T) {
	root := t.TempDir()
	clock := newManualClock()
	sessions := serveSessions(t, root, clock.Now, 2)
	holder, anon := sessions[0], sessions[1]
	holder.ok("workflow_set_plan", map[string]any{"workflow_id": "/anon.md", "tasks": []map[string]any{{"name": "Held"}, {"name": "Free"}}}, nil)
	const task = "/anon.md#held"
	a := holder.register("holder")
	var claim claimJSON
	holder.ok("task_claim", map[string]any{"task_id": task, "agent_id": a}, &claim)
	require.True(t, claim.Success)

	before := filetest.Snapshot(t, root)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "x"}},
		{"task_update_status", map[string]any{"id": task, "status": "in_progress"}},
		{"task_set_plan", map[string]any{"task_id": task, "plan": "mine"}},
		{"checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "mine"}},
		{"start_subagent_task", map[string]any{"document": task}},
		{"complete_subagent_task", map[string]any{"document": task, "note": "x"}},
		{"task_set_status", map[string]any{"task": task, "status": "blocked", "reason": "mine"}},
		{"subagent_task", map[string]any{"document": "/anon.md", "operations": []map[string]any{{"operation": "edit", "task": "held", "content": "- Status: blocked\n"}}}},
	} {
		assert.Equal(t, "STALE_CLAIM", anon.fail(c.tool, c.args), "%s %v", c.tool, c.args)
	}
	assert.Equal(t, before, filetest.Snapshot(t, root), "nothing was written")

	// The holder writes through the task systems' tools with its claim.
	holder.ok("start_subagent_task", map[string]any{"document": task}, nil)
	holder.ok("complete_subagent_task", map[string]any{"document": task, "note": "done"}, nil)
	assert.Contains(t, filetest.Read(t, root, "docs/anon.md"), "- Assignee: "+a+"\n")
	// A task no agent holds is anyone's.
	anon.ok("complete_subagent_task", map[string]any{"document": "/anon.md#free", "note": "by hand"}, nil)
}
