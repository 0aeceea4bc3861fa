package mcptools

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/worker"
)

// The worker checkpoint tools (the pivot and checkpoint-resume protocols) and the resume tools:
// a worker saves where its work stands (checkpoint_save), anyone reads it
// back (checkpoint_get, checkpoint_list with worker_id, checkpoint_diff),
// and paused tasks wait in the resume queue for a worker that resumes them
// from their checkpoints (resume_queue, resume_brief).

// Inputs.

type checkpointSaveInput struct {
	WorkerID        string `json:"worker_id,omitempty" jsonschema:"the worker whose checkpoint this is (default: this session's agent)"`
	TaskID          string `json:"task_id,omitempty" jsonschema:"the task it is about, e.g. /api/users.md#add-rate-limiting"`
	Status          string `json:"status,omitempty" jsonschema:"PARTIAL (stopped part way, resumable; the default), DONE or BLOCKED"`
	Phase           string `json:"phase,omitempty" jsonschema:"a lower_snake word: working, waiting_clarification, pivoted, ..."`
	PivotMode       string `json:"pivot_mode,omitempty" jsonschema:"graceful, immediate or hard, when the worker was pivoted"`
	PivotReason     string `json:"pivot_reason,omitempty" jsonschema:"why it was pivoted, one line"`
	ClarificationID string `json:"clarification_id,omitempty" jsonschema:"the clarification request the worker waits for"`
	workerSections
}

type checkpointGetInput struct {
	WorkerID string `json:"worker_id,omitempty" jsonschema:"the worker (default: this session's agent)"`
	Sequence int    `json:"sequence,omitempty" jsonschema:"which checkpoint, 1, 2, 3, ... (default: the current, newest one)"`
	Format   string `json:"format,omitempty" jsonschema:"markdown (default: the checkpoint document) or json (the checkpoint-resume protocol's JSON form)"`
}

type checkpointDiffInput struct {
	WorkerID string `json:"worker_id,omitempty" jsonschema:"the worker (default: this session's agent)"`
	From     int    `json:"from,omitempty" jsonschema:"the older checkpoint's sequence (default: the one before to)"`
	To       int    `json:"to,omitempty" jsonschema:"the newer checkpoint's sequence (default: the current one)"`
}

type resumeQueueInput struct{}

type resumeBriefInput struct {
	TaskID    string `json:"task_id" jsonschema:"the paused task, e.g. /api/users.md#add-rate-limiting"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"the budget of the task's context in the brief, in estimated tokens (default 8000)"`
	WorkerID  string `json:"worker_id,omitempty" jsonschema:"an agent id: claim the task for it and set it in_progress (default: the brief only)"`
}

// Results.

// workerCheckpoint is a worker checkpoint as the tools return it.
type workerCheckpoint struct {
	WorkerID        string    `json:"worker_id"`
	Sequence        int       `json:"sequence"`
	Path            string    `json:"path"` // checkpoints/workers/<worker>/000001.md
	Time            time.Time `json:"time"`
	TaskID          string    `json:"task_id,omitempty"`
	Status          string    `json:"status"`
	Phase           string    `json:"phase,omitempty"`
	PivotMode       string    `json:"pivot_mode,omitempty"`
	PivotReason     string    `json:"pivot_reason,omitempty"`
	ClarificationID string    `json:"clarification_id,omitempty"`
	workerSections
}

// checkpointGetResult is the result of checkpoint_get.
type checkpointGetResult struct {
	Checkpoint workerCheckpoint `json:"checkpoint"`
	Format     string           `json:"format"`  // markdown or json
	Content    string           `json:"content"` // the checkpoint in that format
}

// itemChange is an item added to or dropped from a section of a worker
// checkpoint: the library's own type, whose JSON names are the result's.
type itemChange = checkpoint.ItemChange

// checkpointDiffResult is the result of checkpoint_diff.
type checkpointDiffResult struct {
	WorkerID     string       `json:"worker_id"`
	From         int          `json:"from"`
	To           int          `json:"to"`
	Empty        bool         `json:"empty"`
	OldStatus    string       `json:"old_status"`
	NewStatus    string       `json:"new_status"`
	OldPhase     string       `json:"old_phase,omitempty"`
	NewPhase     string       `json:"new_phase,omitempty"`
	Finished     []string     `json:"finished"`
	Started      []string     `json:"started"`
	Added        []itemChange `json:"added"`
	Dropped      []itemChange `json:"dropped"`
	NewFiles     []fileChange `json:"new_files"`
	NewDecisions []string     `json:"new_decisions"`
}

// pausedTask is a paused task waiting for a worker, with the checkpoint
// it was paused with.
type pausedTask struct {
	TaskID         string            `json:"task_id"`
	Title          string            `json:"title"`
	CheckpointPath string            `json:"checkpoint_path,omitempty"`
	Checkpoint     *workerCheckpoint `json:"checkpoint,omitempty"`
	Problem        string            `json:"problem,omitempty"`
}

// resumeQueueResult is the result of resume_queue.
type resumeQueueResult struct {
	Count int          `json:"count"`
	Tasks []pausedTask `json:"tasks"` // oldest checkpoint first
}

// resumeBriefResult is the result of resume_brief.
type resumeBriefResult struct {
	TaskID string `json:"task_id"`
	Brief  string `json:"brief,omitempty"`
	// Claim and Task are set when worker_id was given: the claim (or who
	// holds the task) and the task back in progress.
	Claim *plan.ClaimResult `json:"claim,omitempty"`
	Task  *planTask         `json:"task,omitempty"`
}

// Descriptions.

const (
	checkpointSaveDescription = `Save your worker checkpoint, so that you, another worker or a person can resume your work: status, phase, task_id and the sections (completed, in_progress, remaining, files_changed, decisions, resume_instructions, ...). Each save is a new numbered checkpoint; saving the same one again writes nothing. When pivoted, use pivot_acknowledge instead. Guide: prompt resume-after-pause.`

	checkpointGetDescription = `Read a worker checkpoint, the current one or sequence N, as Markdown (default) or as the checkpoint-resume protocol's JSON. DOCUMENT_NOT_FOUND: the worker has no such checkpoint. Reads only.`

	checkpointDiffDescription = `What changed between two checkpoints of a worker (default the previous and the current): items finished, started, added and dropped, new files and decisions, status and phase. Cheaper than reading both. Reads only.`

	resumeQueueDescription = `The paused tasks of every plan that wait for a worker, oldest first, each with the checkpoint it was paused with. Hand one to a worker with resume_brief. Reads only.`

	resumeBriefDescription = `The brief to start a worker on a paused task: Markdown from its checkpoint (done, in progress, remaining, files, decisions, resume instructions) and the task's context, within max_tokens. With worker_id the task is also claimed for that worker and set in_progress; claim.success false: another agent holds it.`
)

// resumeTools serves the worker checkpoint and resume tools.
type resumeTools struct {
	pivots   *worker.Pivots
	sessions *sessions
}

func addCheckpointTools(ts *toolBatch, pivots *worker.Pivots) error {
	r := resumeTools{pivots: pivots, sessions: ts.sessions}
	get, err := inputSchema[checkpointGetInput](map[string]enum{"format": {checkpointFormats, "markdown"}})
	if err != nil {
		return err
	}
	save, err := inputSchema[checkpointSaveInput](map[string]enum{
		"status":     {workerStatuses, string(checkpoint.StatusPartial)},
		"pivot_mode": {values: pivotModes},
	})
	if err != nil {
		return err
	}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "checkpoint_save", Description: checkpointSaveDescription, InputSchema: save, Annotations: additiveIdempotent}, r.save),
		addTool(ts, &mcp.Tool{Name: "checkpoint_get", Description: checkpointGetDescription, InputSchema: get, Annotations: readOnly}, r.get),
		addTool(ts, &mcp.Tool{Name: "checkpoint_diff", Description: checkpointDiffDescription, Annotations: readOnly}, r.diff),
	)
}

func addResumeTools(ts *toolBatch, pivots *worker.Pivots) error {
	r := resumeTools{pivots: pivots, sessions: ts.sessions}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "resume_queue", Description: resumeQueueDescription, Annotations: readOnly}, r.queue),
		addTool(ts, &mcp.Tool{Name: "resume_brief", Description: resumeBriefDescription, Annotations: additiveIdempotent}, r.brief),
	)
}

// workerOf is the worker a call names, or the session's agent.
func (r resumeTools) workerOf(req *mcp.CallToolRequest, id string) (string, error) {
	if id != "" {
		return id, nil
	}
	if me := r.sessions.of(req).agentID(); me != "" {
		return me, nil
	}
	return "", newToolError(argumentError("give worker_id: this session has no agent to default to"))
}

func (r resumeTools) save(ctx context.Context, req *mcp.CallToolRequest, in checkpointSaveInput) (*mcp.CallToolResult, workerCheckpoint, error) {
	id, err := r.workerOf(req, in.WorkerID)
	if err != nil {
		return nil, workerCheckpoint{}, err
	}
	// An agent's session saves its own checkpoints only; a session with no
	// agent (a person's, an orchestrator's) saves any worker's.
	if s := r.sessions.of(req); s.agentID() != "" {
		if err := s.actsAs("checkpoint_save", id); err != nil {
			return nil, workerCheckpoint{}, newToolError(err)
		}
	}
	status, err := checkpoint.ParseStatus(in.Status)
	if err != nil {
		return nil, workerCheckpoint{}, newToolError(err)
	}
	mode, err := checkpoint.ParsePivotMode(in.PivotMode)
	if err != nil {
		return nil, workerCheckpoint{}, newToolError(err)
	}
	cp := checkpoint.Checkpoint{Worker: id, Task: in.TaskID, Status: status, Phase: in.Phase,
		PivotMode: mode, PivotReason: in.PivotReason, Clarification: in.ClarificationID}
	in.fill(&cp)
	saved, err := r.pivots.Workers().Save(ctx, cp)
	if err != nil {
		return nil, workerCheckpoint{}, newToolError(err)
	}
	return nil, toWorkerCheckpointView(saved), nil
}

func (r resumeTools) get(ctx context.Context, req *mcp.CallToolRequest, in checkpointGetInput) (*mcp.CallToolResult, checkpointGetResult, error) {
	id, err := r.workerOf(req, in.WorkerID)
	if err != nil {
		return nil, checkpointGetResult{}, err
	}
	if in.Sequence < 0 {
		return nil, checkpointGetResult{}, newToolError(argumentError("sequence %d: checkpoints are numbered from 1", in.Sequence))
	}
	cp, err := r.pivots.Workers().Get(ctx, id, in.Sequence)
	if err != nil {
		return nil, checkpointGetResult{}, newToolError(err)
	}
	var content []byte
	format := in.Format
	switch format {
	case "", "markdown":
		format = "markdown"
		content, err = cp.Render()
	case "json":
		content, err = cp.JSON()
	default:
		return nil, checkpointGetResult{}, newToolError(argumentError("format %q: use markdown or json", in.Format))
	}
	if err != nil {
		return nil, checkpointGetResult{}, newToolError(err)
	}
	return nil, checkpointGetResult{Checkpoint: toWorkerCheckpointView(cp), Format: format, Content: string(content)}, nil
}

func (r resumeTools) diff(ctx context.Context, req *mcp.CallToolRequest, in checkpointDiffInput) (*mcp.CallToolResult, checkpointDiffResult, error) {
	id, err := r.workerOf(req, in.WorkerID)
	if err != nil {
		return nil, checkpointDiffResult{}, err
	}
	if in.From < 0 || in.To < 0 {
		return nil, checkpointDiffResult{}, newToolError(argumentError("from %d, to %d: checkpoints are numbered from 1", in.From, in.To))
	}
	to, err := r.pivots.Workers().Get(ctx, id, in.To)
	if err != nil {
		return nil, checkpointDiffResult{}, newToolError(err)
	}
	from := in.From
	if from == 0 {
		from = to.Sequence - 1
		if from < 1 {
			return nil, checkpointDiffResult{}, newToolError(argumentError("worker %s has no checkpoint before %d to compare it with", id, to.Sequence))
		}
	}
	old, err := r.pivots.Workers().Get(ctx, id, from)
	if err != nil {
		return nil, checkpointDiffResult{}, newToolError(err)
	}
	d := checkpoint.Diff(old, to)
	out := checkpointDiffResult{
		WorkerID: id, From: d.FromSequence, To: d.ToSequence, Empty: d.Empty(),
		OldStatus: string(d.OldStatus), NewStatus: string(d.NewStatus), OldPhase: d.OldPhase, NewPhase: d.NewPhase,
		Finished: nonNil(d.Finished), Started: nonNil(d.Started), NewDecisions: nonNil(d.NewDecisions),
		Added: nonNil(d.Added), Dropped: nonNil(d.Dropped), NewFiles: []fileChange{},
	}
	for _, f := range d.NewFiles {
		out.NewFiles = append(out.NewFiles, fileChange{Path: f.Path, Note: f.Note})
	}
	return nil, out, nil
}

func (r resumeTools) queue(ctx context.Context, _ *mcp.CallToolRequest, _ resumeQueueInput) (*mcp.CallToolResult, resumeQueueResult, error) {
	paused, err := r.pivots.ResumeQueue(ctx)
	if err != nil {
		return nil, resumeQueueResult{}, newToolError(err)
	}
	out := resumeQueueResult{Count: len(paused), Tasks: make([]pausedTask, 0, len(paused))}
	for _, p := range paused {
		v := pausedTask{TaskID: p.Task, Title: p.Title, CheckpointPath: p.CheckpointPath, Problem: p.Problem}
		if p.Checkpoint != nil {
			cp := toWorkerCheckpointView(*p.Checkpoint)
			v.Checkpoint = &cp
		}
		out.Tasks = append(out.Tasks, v)
	}
	return nil, out, nil
}

// brief renders a paused task's resume brief, or resumes it for a worker;
// the claim is kept for the session when the worker is its agent.
func (r resumeTools) brief(ctx context.Context, req *mcp.CallToolRequest, in resumeBriefInput) (*mcp.CallToolResult, resumeBriefResult, error) {
	out := resumeBriefResult{TaskID: taskKey(in.TaskID)}
	if in.WorkerID == "" {
		brief, err := r.pivots.Brief(ctx, in.TaskID, in.MaxTokens)
		if err != nil {
			return nil, resumeBriefResult{}, addressError(in.TaskID, err)
		}
		out.Brief = brief
		return nil, out, nil
	}
	res, err := r.pivots.Resume(ctx, in.TaskID, in.WorkerID, in.MaxTokens)
	if err != nil {
		return nil, resumeBriefResult{}, addressError(in.TaskID, err)
	}
	out.Claim = &res.Claim
	if !res.Claim.Success || res.Claim.Claim == nil {
		return nil, out, nil
	}
	if s := r.sessions.of(req); s.agentID() == in.WorkerID {
		s.claimed(res.Claim.Claim.Task, res.Claim.Claim.Agent, res.Claim.Claim.Token)
	}
	t := toPlanTask(documentOf(in.TaskID), res.Task)
	out.Task, out.Brief = &t, res.Brief
	return nil, out, nil
}

// listWorkerCheckpoints is checkpoint_list without task_id: the
// checkpoints of worker_id, newest first, or without it every worker's.
func (p planTools) listWorkerCheckpoints(ctx context.Context, in checkpointListInput) (*mcp.CallToolResult, checkpointListResult, error) {
	if len(in.Types) > 0 || in.SinceSequence != 0 {
		return nil, checkpointListResult{}, newToolError(argumentError("types and since_sequence are for a task's journal (task_id); a worker's checkpoints take limit only"))
	}
	var list []checkpoint.Checkpoint
	var err error
	if in.WorkerID != "" {
		list, err = p.workers.List(ctx, in.WorkerID, in.Limit)
	} else {
		list, err = p.workers.ListAll(ctx, in.Limit)
	}
	if err != nil {
		return nil, checkpointListResult{}, newToolError(err)
	}
	out := checkpointListResult{WorkerID: in.WorkerID, Count: len(list), Checkpoints: []checkpointResult{},
		WorkerCheckpoints: make([]workerCheckpoint, 0, len(list))}
	for _, cp := range list {
		out.WorkerCheckpoints = append(out.WorkerCheckpoints, toWorkerCheckpointView(cp))
	}
	return nil, out, nil
}

func toWorkerCheckpointView(c checkpoint.Checkpoint) workerCheckpoint {
	return workerCheckpoint{
		WorkerID:        c.Worker,
		Sequence:        c.Sequence,
		Path:            checkpoint.WorkerFile(c.Worker, c.Sequence),
		Time:            c.Time,
		TaskID:          c.Task,
		Status:          string(c.Status),
		Phase:           c.Phase,
		PivotMode:       string(c.PivotMode),
		PivotReason:     c.PivotReason,
		ClarificationID: c.Clarification,
		workerSections:  toWorkerSections(c),
	}
}

// nonNil is s, or an empty slice for nil, so that a list is [] in JSON
// rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
