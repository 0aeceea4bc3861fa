package mcptools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// The plan tools are the rest of the agent protocol on package
// plan: plans ("workflows") are documents under docs/, tasks their
// addresses. Every write on a task presents the session's claim (see
// sessions.go).

// Inputs.

type workflowCreateInput struct {
	Name        string `json:"name" jsonschema:"the plan's title, one line"`
	Description string `json:"description,omitempty" jsonschema:"what the plan is for: a paragraph under the title"`
	Path        string `json:"path,omitempty" jsonschema:"the plan's address under docs/, e.g. /api/auth.md (default: from the name, /<slug of name>.md)"`
}

type plannedTaskInput struct {
	Name        string            `json:"name" jsonschema:"the task's title, one line; its slug is the task's address in the plan"`
	Description string            `json:"description,omitempty" jsonschema:"what to do"`
	DependsOn   []string          `json:"depends_on,omitempty" jsonschema:"the tasks this one waits for: names of tasks of the plan (of this call or already there), #slug, or /other.md#slug"`
	Workflow    string            `json:"workflow,omitempty" jsonschema:"a workflow prompt (workflows/<name>.md) to follow for this task"`
	Fields      map[string]string `json:"fields,omitempty" jsonschema:"more fields of the task, e.g. {\"Complexity\": \"low\"}"`
}

type workflowSetPlanInput struct {
	WorkflowID string             `json:"workflow_id" jsonschema:"the plan's id, e.g. /api/auth.md"`
	Tasks      []plannedTaskInput `json:"tasks" jsonschema:"the tasks to add, in order: all are added or none"`
}

type workflowListInput struct {
	Status []string `json:"status,omitempty" jsonschema:"only plans with one of these statuses, e.g. [in_progress] (default: every plan)"`
}

type workflowInput struct {
	WorkflowID string `json:"workflow_id" jsonschema:"the plan's id, e.g. /api/auth.md"`
}

type taskClaimInput struct {
	TaskID  string `json:"task_id" jsonschema:"the task's id, e.g. /api/auth.md#implement-jwt-signing"`
	AgentID string `json:"agent_id" jsonschema:"this session's agent: the id agent_register returned"`
}

type taskReleaseInput struct {
	TaskID  string `json:"task_id" jsonschema:"the task's id, e.g. /api/auth.md#implement-jwt-signing"`
	AgentID string `json:"agent_id,omitempty" jsonschema:"this session's agent, as task_claim named it (optional)"`
}

type includeInput struct {
	WorkflowPlan       *bool `json:"workflow_plan,omitempty" jsonschema:"the plan's summary (default true)"`
	PriorTaskOutcomes  *bool `json:"prior_task_outcomes,omitempty" jsonschema:"the outcomes of the plan's other completed tasks (default true)"`
	DependencyOutcomes *bool `json:"dependency_outcomes,omitempty" jsonschema:"the outcomes of the tasks this one depends on (default true)"`
	RecentCheckpoints  *int  `json:"recent_checkpoints,omitempty" jsonschema:"the newest N checkpoints (default 5)"`
	AllCheckpoints     *bool `json:"all_checkpoints,omitempty" jsonschema:"every checkpoint, for recovery after a lost context (default false; recent_checkpoints is then ignored)"`
	WorkflowPrompt     *bool `json:"workflow_prompt,omitempty" jsonschema:"the workflow prompt the task's Workflow field names (default true)"`
	References         *bool `json:"references,omitempty" jsonschema:"the documents the task references with @/path.md (default true)"`
}

type loadContextInput struct {
	TaskID    string        `json:"task_id" jsonschema:"the task's id, e.g. /api/auth.md#implement-jwt-signing"`
	Include   *includeInput `json:"include,omitempty" jsonschema:"what to load; an omitted switch takes its default"`
	MaxTokens int           `json:"max_tokens,omitempty" jsonschema:"the answer's budget in estimated tokens (default 8000); cut says what it dropped"`
}

type taskSetPlanInput struct {
	TaskID   string `json:"task_id" jsonschema:"the task's id, e.g. /api/auth.md#implement-jwt-signing"`
	Approach string `json:"plan" jsonschema:"the approach you will take, kept on one line in the task's Plan field"`
}

type checkpointAddInput struct {
	TaskID       string   `json:"task_id" jsonschema:"the task's id, e.g. /api/auth.md#implement-jwt-signing"`
	Type         string   `json:"type" jsonschema:"plan, progress, decision, error, recovery or complete"`
	Summary      string   `json:"summary" jsonschema:"what happened, one line"`
	Detail       any      `json:"detail,omitempty" jsonschema:"optional detail: text, or any JSON value (kept as JSON text)"`
	FilesChanged []string `json:"files_changed,omitempty" jsonschema:"the files the step changed"`
	Key          string   `json:"key,omitempty" jsonschema:"optional retry key: a checkpoint_add repeated with the same key and checkpoint adds nothing"`
}

type checkpointListInput struct {
	TaskID        string   `json:"task_id,omitempty" jsonschema:"a task's id, e.g. /api/auth.md#implement-jwt-signing: its journal"`
	WorkerID      string   `json:"worker_id,omitempty" jsonschema:"a worker's id instead of task_id: its worker checkpoints (checkpoint_save, pivot_acknowledge), newest first"`
	Limit         int      `json:"limit,omitempty" jsonschema:"at most this many, the newest (default all)"`
	Types         []string `json:"types,omitempty" jsonschema:"only these types (default all)"`
	SinceSequence int      `json:"since_sequence,omitempty" jsonschema:"only checkpoints with a sequence greater than this"`
}

type updateStatusInput struct {
	ID            string `json:"task_id" jsonschema:"the task's id, e.g. /api/auth.md#implement-jwt-signing"`
	Status        string `json:"status" jsonschema:"pending, planning, in_progress, paused, blocked, completed, failed or skipped"`
	Outcome       string `json:"outcome,omitempty" jsonschema:"with completed only (required): what was done, kept in the task's Note field"`
	OutcomeDetail any    `json:"outcome_detail,omitempty" jsonschema:"with completed only: any JSON value, recorded as a checkpoint of type complete"`
	Error         string `json:"error,omitempty" jsonschema:"what went wrong: required for failed; with blocked, why"`
}

// Results.

// workflowListResult is the result of workflow_list.
type workflowListResult struct {
	Workflows []plan.Summary `json:"workflows"`
}

// nextTasksResult is the result of workflow_next_tasks.
type nextTasksResult struct {
	WorkflowID string          `json:"workflow_id"`
	Tasks      []plan.NextTask `json:"tasks"`
}

// planTask is a task of a plan after a write.
type planTask struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Status    string `json:"status"`
	DependsOn string `json:"depends_on,omitempty"` // its Depends-On field
	Workflow  string `json:"workflow,omitempty"`
	Assignee  string `json:"assignee,omitempty"` // the agent that holds or held it
	Approach  string `json:"plan,omitempty"`     // its Plan field
	Note      string `json:"outcome,omitempty"`  // its Note field, once completed
	Error     string `json:"error,omitempty"`
	Completed string `json:"completed,omitempty"` // the completion date
}

// setPlanResult is the result of workflow_set_plan: the tasks written.
type setPlanResult struct {
	Success    bool       `json:"success"`
	WorkflowID string     `json:"workflow_id"`
	Tasks      []planTask `json:"tasks"`
}

// taskResult is the result of task_set_plan and task_update_status.
type taskResult struct {
	Success bool     `json:"success"`
	Task    planTask `json:"task"`
	// Checkpoint is the checkpoint of type complete that holds the
	// outcome_detail of a completion.
	Checkpoint *checkpointResult `json:"checkpoint,omitempty"`
}

// checkpointResult is one checkpoint of a task's journal.
type checkpointResult struct {
	TaskID       string    `json:"task_id"`
	Sequence     int       `json:"sequence"`
	Type         string    `json:"type"`
	Time         time.Time `json:"time"`
	Agent        string    `json:"agent,omitempty"`
	Summary      string    `json:"summary"`
	Detail       string    `json:"detail,omitempty"`
	FilesChanged []string  `json:"files_changed,omitempty"`
	Key          string    `json:"key,omitempty"`
}

// checkpointListResult is the result of checkpoint_list: a task's journal,
// or with worker_id a worker's checkpoints.
type checkpointListResult struct {
	TaskID      string             `json:"task_id,omitempty"`
	Count       int                `json:"count"`
	Checkpoints []checkpointResult `json:"checkpoints"` // newest first
	// WorkerID and WorkerCheckpoints answer a call with worker_id: the
	// worker's checkpoints, newest first (Checkpoints is then empty).
	WorkerID          string             `json:"worker_id,omitempty"`
	WorkerCheckpoints []workerCheckpoint `json:"worker_checkpoints,omitempty"`
}

// Descriptions.

const (
	workflowCreateDescription = `Create a plan (a "workflow"): a document under docs/ with a title, a summary and an empty Tasks section. Returns its id (e.g. /api/auth.md), the workflow_id of the other tools. Add tasks with workflow_set_plan. Retrying with the same name returns the plan and writes nothing.`

	workflowSetPlanDescription = `Add tasks to a plan, in order, all or none, each pending with its description, depends_on and workflow prompt. Returns their ids (/api/auth.md#slug). TASK_NOT_FOUND: a dependency names no task; DEPENDENCY_CYCLE: the dependencies loop; DUPLICATE_TASK: the plan has that name already.`

	workflowListDescription = `List the workspace's plans with their status and task counts, optionally only some statuses. After a lost context, list status [in_progress] to find the plan you were on.`

	workflowProgressDescription = `Where a plan stands: counts per status, percent complete, and the tasks under way with their holder and whether it is online. After a lost context, find here the task you held.`

	workflowNextTasksDescription = `The tasks of a plan you may claim now, in plan order: pending tasks whose dependencies are done and that no online agent holds, and stranded ones (their holder went offline). Claim one with task_claim; when all are taken, poll again later.`

	taskClaimDescription = `Claim a task for this session's agent. Of agents claiming one task at once one gets success, the others already_claimed_by: try the next task. Claiming a task you hold again returns your claim; a task whose holder went offline is taken over. TASK_BLOCKED: dependencies not done; INVALID_TRANSITION: the task is finished; AGENT_NOT_FOUND: register first.`

	taskReleaseDescription = `Give up this session's claim on a task without finishing it; its status is unchanged and any agent may claim it. STALE_CLAIM: this session holds no current claim on it.`

	taskLoadContextDescription = `Load what you need for a claimed task, within max_tokens (default 8000): the task with its plan and checkpoints, the plan's summary, outcomes of completed tasks and dependencies, the workflow prompt and references. cut says what the budget dropped. After a lost context, pass include {all_checkpoints: true}.`

	taskSetPlanDescription = `Record the approach you will take on a task you claimed, on one line in its Plan field; a pending task moves to planning. Then set it in_progress with task_update_status. STALE_CLAIM: another agent holds the task; nothing was written.`

	taskUpdateStatusDescription = `Report a claimed task's status: in_progress when you start, completed with outcome (what was done, for the agents after you), failed with error, or planning, paused, blocked, skipped. Completing ends your claim; a repeated call writes nothing. TASK_BLOCKED: dependencies not done; INVALID_TRANSITION: a move the status machine refuses; STALE_CLAIM: another agent holds the task.`

	checkpointAddDescription = `Record a checkpoint in a claimed task's journal after each significant step: type, a one-line summary, optional detail and files_changed, so that work can resume after a lost context. Returns it with its sequence number. Give key to make a retry add nothing. STALE_CLAIM: another agent holds the task; nothing was written.`

	checkpointListDescription = `Read checkpoints, newest first: a task's journal (task_id; filter by types, since_sequence, limit), or a worker's checkpoints (worker_id), or with neither the newest of every worker's. Reads only.`
)

// planTools serves the plan tools.
type planTools struct {
	plans    *plan.Plans
	workers  *checkpoint.Store // for checkpoint_list with worker_id
	sessions *sessions
}

func addPlanTools(ts *toolBatch, plans *plan.Plans, workers *checkpoint.Store) error {
	p := planTools{plans: plans, workers: workers, sessions: ts.sessions}
	list, err := inputSchema[workflowListInput](map[string]enum{"status": {values: taskStatuses}})
	if err != nil {
		return err
	}
	update, err := inputSchema[updateStatusInput](map[string]enum{"status": {values: taskStatuses}})
	if err != nil {
		return err
	}
	add, err := inputSchema[checkpointAddInput](map[string]enum{"type": {values: checkpointTypes}})
	if err != nil {
		return err
	}
	journal, err := inputSchema[checkpointListInput](map[string]enum{"types": {values: checkpointTypes}})
	if err != nil {
		return err
	}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "workflow_create", Description: workflowCreateDescription, Annotations: additiveIdempotent}, p.create),
		addTool(ts, &mcp.Tool{Name: "workflow_set_plan", Description: workflowSetPlanDescription, Annotations: additiveIdempotent}, p.setPlan),
		addTool(ts, &mcp.Tool{Name: "workflow_list", Description: workflowListDescription, InputSchema: list, Annotations: readOnly}, p.list),
		addTool(ts, &mcp.Tool{Name: "workflow_progress", Description: workflowProgressDescription, Annotations: readOnly}, p.progress),
		addTool(ts, &mcp.Tool{Name: "workflow_next_tasks", Description: workflowNextTasksDescription, Annotations: readOnly}, p.nextTasks),
		addTool(ts, &mcp.Tool{Name: "task_claim", Description: taskClaimDescription, Annotations: additiveIdempotent}, p.claim),
		addTool(ts, &mcp.Tool{Name: "task_release", Description: taskReleaseDescription, Annotations: additiveIdempotent}, p.release),
		addTool(ts, &mcp.Tool{Name: "task_load_context", Description: taskLoadContextDescription, Annotations: readOnly}, p.loadContext),
		addTool(ts, &mcp.Tool{Name: "task_set_plan", Description: taskSetPlanDescription, Annotations: destructiveIdempotent}, p.setTaskPlan),
		addTool(ts, &mcp.Tool{Name: "task_update_status", Description: taskUpdateStatusDescription, InputSchema: update, Annotations: additiveIdempotent}, p.updateStatus),
		addTool(ts, &mcp.Tool{Name: "checkpoint_add", Description: checkpointAddDescription, InputSchema: add, Annotations: additive}, p.addCheckpoint),
		addTool(ts, &mcp.Tool{Name: "checkpoint_list", Description: checkpointListDescription, InputSchema: journal, Annotations: readOnly}, p.listCheckpoints),
	)
}

func (p planTools) create(ctx context.Context, _ *mcp.CallToolRequest, in workflowCreateInput) (*mcp.CallToolResult, plan.Summary, error) {
	s, err := p.plans.Create(ctx, plan.NewPlan{Path: in.Path, Name: in.Name, Summary: in.Description})
	if err != nil {
		return nil, plan.Summary{}, addressError(in.Path, err)
	}
	return nil, s, nil
}

func (p planTools) setPlan(ctx context.Context, _ *mcp.CallToolRequest, in workflowSetPlanInput) (*mcp.CallToolResult, setPlanResult, error) {
	tasks := make([]plan.PlannedTask, 0, len(in.Tasks))
	for _, t := range in.Tasks {
		pt := plan.PlannedTask{Title: t.Name, Description: t.Description, DependsOn: t.DependsOn, Workflow: t.Workflow}
		for _, key := range slices.Sorted(maps.Keys(t.Fields)) {
			pt.Fields = append(pt.Fields, taskdoc.Field{Key: key, Value: t.Fields[key]})
		}
		tasks = append(tasks, pt)
	}
	written, err := p.plans.SetPlan(ctx, in.WorkflowID, tasks)
	if err != nil {
		return nil, setPlanResult{}, addressError(in.WorkflowID, err)
	}
	doc := documentOf(in.WorkflowID)
	out := setPlanResult{Success: true, WorkflowID: doc, Tasks: make([]planTask, 0, len(written))}
	for _, t := range written {
		out.Tasks = append(out.Tasks, toPlanTask(doc, t))
	}
	return nil, out, nil
}

func (p planTools) list(ctx context.Context, _ *mcp.CallToolRequest, in workflowListInput) (*mcp.CallToolResult, workflowListResult, error) {
	statuses := make([]taskdoc.Status, 0, len(in.Status))
	for _, s := range in.Status {
		statuses = append(statuses, taskdoc.Status(s))
	}
	plans, err := p.plans.List(ctx, statuses...)
	if err != nil {
		return nil, workflowListResult{}, newToolError(err)
	}
	if plans == nil {
		plans = []plan.Summary{}
	}
	return nil, workflowListResult{Workflows: plans}, nil
}

func (p planTools) progress(ctx context.Context, _ *mcp.CallToolRequest, in workflowInput) (*mcp.CallToolResult, plan.Progress, error) {
	pr, err := p.plans.Progress(ctx, in.WorkflowID)
	if err != nil {
		return nil, plan.Progress{}, addressError(in.WorkflowID, err)
	}
	if pr.Current == nil {
		pr.Current = []plan.TaskState{}
	}
	return nil, pr, nil
}

func (p planTools) nextTasks(ctx context.Context, _ *mcp.CallToolRequest, in workflowInput) (*mcp.CallToolResult, nextTasksResult, error) {
	next, err := p.plans.NextTasks(ctx, in.WorkflowID)
	if err != nil {
		return nil, nextTasksResult{}, addressError(in.WorkflowID, err)
	}
	if next == nil {
		next = []plan.NextTask{}
	}
	return nil, nextTasksResult{WorkflowID: documentOf(in.WorkflowID), Tasks: next}, nil
}

// claim claims a task for the session's agent and keeps the claim for the
// session. A claim for another agent is refused before anything is
// written: plan would hand a holder's re-claim its own token.
func (p planTools) claim(ctx context.Context, req *mcp.CallToolRequest, in taskClaimInput) (*mcp.CallToolResult, plan.ClaimResult, error) {
	s := p.sessions.of(req)
	if err := p.sessions.adopt(s, "task_claim", in.AgentID); err != nil {
		return nil, plan.ClaimResult{}, newToolError(err)
	}
	res, err := p.plans.Claim(ctx, in.TaskID, in.AgentID)
	if err != nil {
		return nil, plan.ClaimResult{}, addressError(in.TaskID, err)
	}
	if s.agentID() == "" {
		p.sessions.bind(s, in.AgentID) // the agent exists: the session is it now
	}
	if res.Success && res.Claim != nil {
		s.claimed(res.Claim.Task, res.Claim.Agent, res.Claim.Token)
	}
	return nil, res, nil
}

// release gives up the session's claim on a task. The claim stays known
// to the session, so that a retried release succeeds and a later write
// is told the claim was released.
func (p planTools) release(ctx context.Context, req *mcp.CallToolRequest, in taskReleaseInput) (*mcp.CallToolResult, successResult, error) {
	s := p.sessions.of(req)
	if in.AgentID != "" {
		if err := s.actsAs("task_release", in.AgentID); err != nil {
			return nil, successResult{}, newToolError(err)
		}
	}
	c := s.claimant(in.TaskID)
	if c.Token == 0 {
		return nil, successResult{}, newToolError(&taskdoc.Error{Code: plan.CodeStaleClaim,
			Msg: fmt.Sprintf("this session holds no claim on %s: only the agent that claimed a task (task_claim, in this session) may release it; nothing was written", in.TaskID)})
	}
	if err := p.plans.Release(ctx, in.TaskID, c); err != nil {
		return nil, successResult{}, addressError(in.TaskID, err)
	}
	return nil, successResult{Success: true}, nil
}

func (p planTools) loadContext(ctx context.Context, _ *mcp.CallToolRequest, in loadContextInput) (*mcp.CallToolResult, plan.TaskContext, error) {
	inc := plan.DefaultInclude()
	if i := in.Include; i != nil {
		setBool(&inc.PlanSummary, i.WorkflowPlan)
		setBool(&inc.PriorTaskOutcomes, i.PriorTaskOutcomes)
		setBool(&inc.DependencyOutcomes, i.DependencyOutcomes)
		setBool(&inc.AllCheckpoints, i.AllCheckpoints)
		setBool(&inc.WorkflowPrompt, i.WorkflowPrompt)
		setBool(&inc.References, i.References)
		if i.RecentCheckpoints != nil {
			inc.RecentCheckpoints = *i.RecentCheckpoints
		}
	}
	tc, err := p.plans.LoadContext(ctx, in.TaskID, plan.ContextOptions{Include: &inc, MaxTokens: in.MaxTokens})
	if err != nil {
		return nil, plan.TaskContext{}, addressError(in.TaskID, err)
	}
	return nil, *tc, nil
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

func (p planTools) setTaskPlan(ctx context.Context, req *mcp.CallToolRequest, in taskSetPlanInput) (*mcp.CallToolResult, taskResult, error) {
	id := in.TaskID
	t, err := p.plans.SetApproach(ctx, id, p.sessions.of(req).claimant(id), in.Approach)
	if err != nil {
		return nil, taskResult{}, addressError(id, err)
	}
	return nil, taskResult{Success: true, Task: toPlanTask(documentOf(id), t)}, nil
}

// updateStatus reports a task's status as the session's claimant. A
// completion's outcome_detail is recorded, once the task is completed, as
// a checkpoint of type complete whose key is derived from the call, so that
// a retried completion adds it once; if that write fails the status stays
// recorded and the error says so: the call may be retried as it is.
func (p planTools) updateStatus(ctx context.Context, req *mcp.CallToolRequest, in updateStatusInput) (*mcp.CallToolResult, taskResult, error) {
	status, err := taskdoc.ParseStatus(in.Status)
	if err != nil {
		return nil, taskResult{}, newToolError(err)
	}
	detail, err := jsonText(in.OutcomeDetail)
	if err != nil {
		return nil, taskResult{}, newToolError(argumentError("outcome_detail: %v", err))
	}
	if detail != "" && status != taskdoc.StatusCompleted {
		return nil, taskResult{}, newToolError(argumentError("outcome_detail goes with status completed, not %s: record it with checkpoint_add", status))
	}
	s := p.sessions.of(req)
	c := s.claimant(in.ID)
	t, err := p.plans.UpdateStatus(ctx, in.ID, c, plan.StatusUpdate{Status: status, Note: in.Outcome, Error: in.Error})
	if err != nil {
		return nil, taskResult{}, addressError(in.ID, err)
	}
	if t.Status.Final() {
		s.ended(in.ID)
	}
	out := taskResult{Success: true, Task: toPlanTask(documentOf(in.ID), t)}
	if detail == "" {
		return nil, out, nil
	}
	// The completion ended the claim: the checkpoint presents no token,
	// which the fence lets through while no agent holds the task.
	e, err := p.plans.AddEntry(ctx, in.ID, plan.Claimant{Agent: c.Agent}, journal.Entry{
		Type:    journal.TypeComplete,
		Summary: in.Outcome,
		Detail:  detail,
		Key:     outcomeKey(taskKey(in.ID), in.Outcome, detail),
	})
	if err != nil {
		te := addressError(in.ID, err)
		te.hint = "the task is completed, but its outcome_detail was not recorded: repeat the call to record it"
		return nil, taskResult{}, te
	}
	cp := toCheckpointResult(out.Task.ID, e)
	out.Checkpoint = &cp
	return nil, out, nil
}

// outcomeKey is the retry key of the checkpoint that records a
// completion's outcome_detail.
func outcomeKey(task, outcome, detail string) string {
	sum := sha256.Sum256([]byte(task + "\x00" + outcome + "\x00" + detail))
	return "outcome-" + hex.EncodeToString(sum[:8])
}

func (p planTools) addCheckpoint(ctx context.Context, req *mcp.CallToolRequest, in checkpointAddInput) (*mcp.CallToolResult, checkpointResult, error) {
	typ, err := journal.ParseType(in.Type)
	if err != nil {
		return nil, checkpointResult{}, newToolError(err)
	}
	detail, err := jsonText(in.Detail)
	if err != nil {
		return nil, checkpointResult{}, newToolError(argumentError("detail: %v", err))
	}
	e, err := p.plans.AddEntry(ctx, in.TaskID, p.sessions.of(req).claimant(in.TaskID), journal.Entry{
		Type:         typ,
		Summary:      in.Summary,
		Detail:       detail,
		FilesChanged: in.FilesChanged,
		Key:          in.Key,
	})
	if err != nil {
		return nil, checkpointResult{}, addressError(in.TaskID, err)
	}
	return nil, toCheckpointResult(taskKey(in.TaskID), e), nil
}

func (p planTools) listCheckpoints(ctx context.Context, _ *mcp.CallToolRequest, in checkpointListInput) (*mcp.CallToolResult, checkpointListResult, error) {
	switch {
	case in.TaskID == "":
		return p.listWorkerCheckpoints(ctx, in)
	case in.WorkerID != "":
		return nil, checkpointListResult{}, newToolError(argumentError("give task_id (a task's journal) or worker_id (a worker's checkpoints), not both"))
	}
	q := journal.Query{Limit: in.Limit, SinceSequence: in.SinceSequence}
	for _, t := range in.Types {
		q.Types = append(q.Types, journal.Type(t))
	}
	entries, err := p.plans.Journal().List(ctx, in.TaskID, q)
	if err != nil {
		return nil, checkpointListResult{}, addressError(in.TaskID, err)
	}
	task := taskKey(in.TaskID)
	out := checkpointListResult{TaskID: task, Count: len(entries), Checkpoints: make([]checkpointResult, 0, len(entries))}
	for _, e := range entries {
		out.Checkpoints = append(out.Checkpoints, toCheckpointResult(task, e))
	}
	return nil, out, nil
}

func toCheckpointResult(task string, e journal.Entry) checkpointResult {
	return checkpointResult{
		TaskID:       task,
		Sequence:     e.Sequence,
		Type:         string(e.Type),
		Time:         e.Time,
		Agent:        e.Agent,
		Summary:      e.Summary,
		Detail:       e.Detail,
		FilesChanged: e.FilesChanged,
		Key:          e.Key,
	}
}

func toPlanTask(document string, t taskdoc.Task) planTask {
	field := func(key string) string {
		v, _ := t.Field(key)
		return v
	}
	return planTask{
		ID:        fullPath(document, t.Slug),
		Title:     t.Title,
		Status:    string(t.Status),
		DependsOn: field(taskdoc.KeyDependsOn),
		Workflow:  field(taskdoc.KeyWorkflow),
		Assignee:  field(taskdoc.KeyAssignee),
		Approach:  field(taskdoc.KeyApproach),
		Note:      field(taskdoc.KeyNote),
		Error:     field(taskdoc.KeyError),
		Completed: field(taskdoc.KeyCompleted),
	}
}

// documentOf is the plan of an address, as results name it: "/api/auth.md"
// for "api/auth.md" or "/api/auth.md#slug".
func documentOf(task string) string {
	a, err := taskdoc.ParseAddress(task)
	if err != nil {
		return task
	}
	return a.Path
}
