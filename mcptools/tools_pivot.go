package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// The pivot tools are the pivot protocol's pivot protocol on package worker: an
// orchestrator asks a worker to stop its task and go elsewhere
// (pivot_worker), the worker learns of it on its next call (every result
// for a session whose agent has a pending pivot carries pivot_request),
// saves its checkpoint and lets go (pivot_acknowledge), and the
// orchestrator, which waited without polling, gets the checkpoint.

// Inputs.

type pivotWorkerInput struct {
	WorkerID  string   `json:"worker_id,omitempty" jsonschema:"the worker to pivot: its agent id (agent_register's id). Give worker_id or worker_ids"`
	WorkerIDs []string `json:"worker_ids,omitempty" jsonschema:"a pivot chain: several workers pivoted at once, with the same mode, reason and new_task, each from its own current task"`
	Mode      string   `json:"mode,omitempty" jsonschema:"graceful (default): after its current call; immediate: at once; hard: take the task back now, no checkpoint"`
	Reason    string   `json:"reason" jsonschema:"why, one line: the worker and its checkpoint read it"`
	NewTask   string   `json:"new_task,omitempty" jsonschema:"the work to go to: a task address (claimed for the worker when it acknowledges) or free text"`
	TaskID    string   `json:"task_id,omitempty" jsonschema:"the task to pivot the worker from (default: the current_task_id of its last agent_heartbeat); only with worker_id"`
	Wait      *int     `json:"wait_seconds,omitempty" jsonschema:"seconds to wait for the acknowledgement (default 60); 0 returns at once; a hard pivot never waits"`
}

// workerSections are the sections of a worker checkpoint, as tools take
// and return them.
type workerSections struct {
	OriginalTask       string       `json:"original_task,omitempty" jsonschema:"the task as you were given it (Markdown)"`
	Completed          []string     `json:"completed,omitempty" jsonschema:"what is done, one line each"`
	InProgress         []string     `json:"in_progress,omitempty" jsonschema:"what was under way, with how far it got"`
	Remaining          []string     `json:"remaining,omitempty" jsonschema:"what is left to do"`
	Blocked            []string     `json:"blocked,omitempty" jsonschema:"what waits, and on what"`
	ParallelWork       []string     `json:"parallel_work_available,omitempty" jsonschema:"work that can go on meanwhile, independent of what is blocked"`
	FilesChanged       []fileChange `json:"files_changed,omitempty" jsonschema:"the files the work changed, usually uncommitted"`
	Decisions          []string     `json:"decisions,omitempty" jsonschema:"choices made, and why"`
	Notes              string       `json:"notes,omitempty" jsonschema:"anything else worth knowing (Markdown)"`
	ResumeInstructions string       `json:"resume_instructions,omitempty" jsonschema:"how to continue: the steps a new worker (or you, later) takes first (Markdown)"`
	Sections           []section    `json:"sections,omitempty" jsonschema:"sections of your own, kept in order after the others"`
}

// fileChange is a file a worker's work changed.
type fileChange struct {
	Path string `json:"path" jsonschema:"the file's path"`
	Note string `json:"note,omitempty" jsonschema:"new, modified, deleted, ..."`
}

// section is a section of a worker checkpoint that is none of the protocol's.
type section struct {
	Heading string `json:"heading" jsonschema:"one line"`
	Body    string `json:"body" jsonschema:"Markdown"`
}

type pivotAcknowledgeInput struct {
	Checkpoint *workerSections `json:"checkpoint,omitempty" jsonschema:"your checkpoint, the sections of checkpoint_save; required for a graceful or immediate pivot, ignored for a hard one"`
}

// Results.

// pivotRequest is a pivot request, as the orchestrator and the worker
// see it.
type pivotRequest struct {
	ID             string      `json:"id"`
	WorkerID       string      `json:"worker_id"`
	TaskID         string      `json:"task_id,omitempty"` // the task the worker is pivoted from
	Mode           string      `json:"mode"`
	Reason         string      `json:"reason"`
	NewTask        string      `json:"new_task,omitempty"`
	Requested      time.Time   `json:"requested"`
	State          string      `json:"state"` // pending or acknowledged
	Acknowledged   *time.Time  `json:"acknowledged,omitempty"`
	CheckpointPath string      `json:"checkpoint_path,omitempty"`
	Sequence       int         `json:"sequence,omitempty"`
	NewClaim       *plan.Claim `json:"new_claim,omitempty"`
	// Instructions tells the worker what to do: set in the pivot_request
	// its results carry.
	Instructions string `json:"instructions,omitempty"`
}

// pivotOutcome is what became of the pivot asked of one worker.
type pivotOutcome struct {
	WorkerID string       `json:"worker_id"`
	Request  pivotRequest `json:"request"`
	// Checkpoint is the checkpoint the worker acknowledged with, and
	// CheckpointJSON the same in the checkpoint-resume protocol's JSON form.
	Checkpoint     *workerCheckpoint `json:"checkpoint,omitempty"`
	CheckpointJSON string            `json:"checkpoint_json,omitempty"`
	// Error is why there is no acknowledgement: "NO_ACK: ...".
	Error string `json:"error,omitempty"`
}

// pivotWorkerResult is the result of pivot_worker.
type pivotWorkerResult struct {
	Pivots       []pivotOutcome `json:"pivots"`
	Acknowledged int            `json:"acknowledged"` // how many of them were acknowledged
}

// pivotAcknowledgeResult is the result of pivot_acknowledge.
type pivotAcknowledgeResult struct {
	Success    bool              `json:"success"`
	Request    pivotRequest      `json:"request"`
	Checkpoint *workerCheckpoint `json:"checkpoint,omitempty"`
}

// Descriptions.

const (
	pivotWorkerDescription = `Ask a worker (an agent id, or several with worker_ids) to stop its task and pivot, and wait for its acknowledgement; returns its checkpoint. mode graceful (default), immediate, or hard: take the task back at once, without checkpoint. NO_ACK: no answer within wait_seconds; pivot again with mode hard. AGENT_NOT_FOUND: not registered. How it works: prompt pivot-protocol.`

	pivotAcknowledgeDescription = `Answer the pivot_request your results carry, with your checkpoint: it is saved, your task is paused and your claim ends; a new_task that is a task address is claimed for you. A retry returns the same answer. INVALID_ARGUMENTS: no pivot was asked of you; STALE_CLAIM: on a new session, task_claim the task again first.`
)

// pivotTools serves the pivot tools.
type pivotTools struct {
	pivots   *worker.Pivots
	sessions *sessions
}

func addPivotTools(ts *toolBatch, pivots *worker.Pivots) error {
	p := pivotTools{pivots: pivots, sessions: ts.sessions}
	in, err := inputSchema[pivotWorkerInput](map[string]enum{"mode": {pivotModes, string(checkpoint.PivotGraceful)}})
	if err != nil {
		return err
	}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "pivot_worker", Description: pivotWorkerDescription, InputSchema: in, Annotations: destructiveIdempotent}, p.pivotWorker),
		addTool(ts, &mcp.Tool{Name: "pivot_acknowledge", Description: pivotAcknowledgeDescription, Annotations: additiveIdempotent}, p.acknowledge),
	)
}

func (p pivotTools) pivotWorker(ctx context.Context, _ *mcp.CallToolRequest, in pivotWorkerInput) (*mcp.CallToolResult, pivotWorkerResult, error) {
	ids := in.WorkerIDs
	switch {
	case in.WorkerID != "" && len(ids) > 0:
		return nil, pivotWorkerResult{}, newToolError(argumentError("give worker_id or worker_ids, not both"))
	case in.WorkerID != "":
		ids = []string{in.WorkerID}
	case len(ids) == 0:
		return nil, pivotWorkerResult{}, newToolError(argumentError("give the worker to pivot: worker_id (or worker_ids for a pivot chain)"))
	case in.TaskID != "" && len(ids) > 1:
		return nil, pivotWorkerResult{}, newToolError(argumentError("task_id goes with one worker_id: each worker of a chain is pivoted from its own current task"))
	}
	wait := worker.DefaultAckTimeout
	if in.Wait != nil {
		if *in.Wait < 0 {
			return nil, pivotWorkerResult{}, newToolError(argumentError("wait_seconds %d: give 0 (do not wait) or more", *in.Wait))
		}
		wait = time.Duration(*in.Wait) * time.Second
	}
	pv := worker.Pivot{Mode: checkpoint.PivotMode(in.Mode), Reason: in.Reason, NewTask: in.NewTask, Task: in.TaskID}
	var reqs []worker.Request
	if len(ids) == 1 {
		r, err := p.pivots.Request(ctx, ids[0], pv)
		if err != nil {
			return nil, pivotWorkerResult{}, newToolError(err)
		}
		reqs = []worker.Request{r}
	} else {
		all := make(map[string]worker.Pivot, len(ids))
		for _, id := range ids {
			if _, dup := all[id]; dup {
				return nil, pivotWorkerResult{}, newToolError(argumentError("worker %s is named twice", id))
			}
			all[id] = pv
		}
		var err error
		if reqs, err = p.pivots.RequestAll(ctx, all); err != nil {
			te := newToolError(err)
			if len(reqs) > 0 {
				te.hint = "the workers before it were asked to pivot: " + requestWorkers(reqs)
			}
			return nil, pivotWorkerResult{}, te
		}
	}
	out := pivotWorkerResult{Pivots: make([]pivotOutcome, len(reqs))}
	for i, r := range reqs {
		out.Pivots[i] = pivotOutcome{WorkerID: r.Worker, Request: toPivotRequestView(r)}
	}
	if wait == 0 || reqs[0].Mode == checkpoint.PivotHard {
		return nil, out, nil
	}
	var acks []worker.Request
	var errs []error
	if len(reqs) == 1 {
		ack, err := p.pivots.Wait(ctx, reqs[0].Worker, reqs[0].ID, wait)
		acks, errs = []worker.Request{ack}, []error{err}
	} else {
		acks, errs = p.pivots.WaitAll(ctx, reqs, wait)
	}
	var failed []*toolError
	for i := range reqs {
		o := &out.Pivots[i]
		if errs[i] != nil {
			te := newToolError(errs[i])
			o.Error = te.Error()
			failed = append(failed, te)
			continue
		}
		o.Request = toPivotRequestView(acks[i])
		out.Acknowledged++
		if acks[i].Sequence == 0 {
			continue
		}
		view, text, err := p.checkpointOf(ctx, acks[i].Worker, acks[i].Sequence)
		if err != nil {
			te := newToolError(err)
			te.hint = "the worker acknowledged, but its checkpoint does not read: checkpoint_get it later"
			o.Error = te.Error()
			failed = append(failed, te)
			continue
		}
		o.Checkpoint, o.CheckpointJSON = view, text
	}
	if len(failed) == 0 {
		return nil, out, nil
	}
	return failedPivots(out, failed)
}

// failedPivots is the tool error of a pivot_worker some of whose workers
// did not acknowledge: the first failure's code, a line per failure, and
// the structured content with every outcome.
func failedPivots(out pivotWorkerResult, failed []*toolError) (*mcp.CallToolResult, pivotWorkerResult, error) {
	first := failed[0]
	text := first.Error()
	if len(out.Pivots) > 1 {
		lines := []string{fmt.Sprintf("%s: %d of %d workers did not acknowledge; pivot them again with mode hard", first.code, len(failed), len(out.Pivots))}
		for _, te := range failed {
			lines = append(lines, te.Error())
		}
		text = strings.Join(lines, "\n")
	}
	body, err := json.Marshal(out)
	if err != nil {
		return nil, pivotWorkerResult{}, err
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}, &mcp.TextContent{Text: string(body)}}}
	res.SetError(&toolError{code: first.code, err: fmt.Errorf("%s", strings.TrimPrefix(text, string(first.code)+": "))})
	return res, out, nil
}

func requestWorkers(reqs []worker.Request) string {
	names := make([]string, len(reqs))
	for i, r := range reqs {
		names[i] = r.Worker
	}
	return strings.Join(names, ", ")
}

// checkpointOf reads a checkpoint of worker and renders it in the checkpoint-resume protocol's
// JSON form as well.
func (p pivotTools) checkpointOf(ctx context.Context, workerID string, sequence int) (*workerCheckpoint, string, error) {
	cp, err := p.pivots.Workers().Get(ctx, workerID, sequence)
	if err != nil {
		return nil, "", err
	}
	data, err := cp.JSON()
	if err != nil {
		return nil, "", err
	}
	view := toWorkerCheckpointView(cp)
	return &view, string(data), nil
}

// acknowledge carries out the pivot asked of the session's agent, as the
// claimant of the pivoted task the session holds, and keeps the claim of
// the new task for the session.
func (p pivotTools) acknowledge(ctx context.Context, req *mcp.CallToolRequest, in pivotAcknowledgeInput) (*mcp.CallToolResult, pivotAcknowledgeResult, error) {
	s := p.sessions.of(req)
	me := s.agentID()
	if me == "" {
		return nil, pivotAcknowledgeResult{}, newToolError(argumentError("this session has no agent: a pivot is acknowledged by the worker it was asked of, on its session (agent_register first)"))
	}
	pending, err := p.pivots.Pending(ctx, me)
	if err != nil {
		return nil, pivotAcknowledgeResult{}, newToolError(err)
	}
	claim := plan.Claimant{Agent: me}
	if pending != nil {
		if pending.Task != "" {
			claim = s.claimant(pending.Task)
		}
		if pending.Mode != checkpoint.PivotHard && in.Checkpoint == nil {
			return nil, pivotAcknowledgeResult{}, newToolError(argumentError("a %s pivot is acknowledged with your checkpoint: give checkpoint {completed, in_progress, remaining, files_changed, resume_instructions, ...}", pending.Mode))
		}
	}
	var cp checkpoint.Checkpoint
	if in.Checkpoint != nil {
		in.Checkpoint.fill(&cp)
	}
	ack, err := p.pivots.Acknowledge(ctx, me, claim, cp)
	if err != nil {
		te := newToolError(err)
		if te.code == plan.CodeStaleClaim && pending != nil {
			te.hint = fmt.Sprintf("this session holds no current claim on %s: task_claim it again with your agent id (the agent holding it gets its claim back), then pivot_acknowledge again", pending.Task)
		}
		return nil, pivotAcknowledgeResult{}, te
	}
	if ack.Task != "" {
		s.ended(ack.Task)
	}
	if ack.NewClaim != nil {
		s.claimed(ack.NewClaim.Task, ack.NewClaim.Agent, ack.NewClaim.Token)
	}
	out := pivotAcknowledgeResult{Success: true, Request: toPivotRequestView(ack)}
	if ack.Sequence > 0 {
		view, _, err := p.checkpointOf(ctx, me, ack.Sequence)
		if err != nil {
			return nil, pivotAcknowledgeResult{}, newToolError(err)
		}
		out.Checkpoint = view
	}
	return nil, out, nil
}

// fill sets the sections of c from w.
func (w *workerSections) fill(c *checkpoint.Checkpoint) {
	c.OriginalTask = w.OriginalTask
	c.Completed = w.Completed
	c.InProgress = w.InProgress
	c.Remaining = w.Remaining
	c.Blocked = w.Blocked
	c.ParallelWork = w.ParallelWork
	c.Decisions = w.Decisions
	c.Notes = w.Notes
	c.Resumption = w.ResumeInstructions
	c.FilesChanged = nil
	for _, f := range w.FilesChanged {
		c.FilesChanged = append(c.FilesChanged, checkpoint.FileChange{Path: f.Path, Note: f.Note})
	}
	c.Extra = nil
	for _, s := range w.Sections {
		c.Extra = append(c.Extra, checkpoint.Section{Heading: s.Heading, Body: s.Body})
	}
}

func toWorkerSections(c checkpoint.Checkpoint) workerSections {
	w := workerSections{
		OriginalTask:       c.OriginalTask,
		Completed:          c.Completed,
		InProgress:         c.InProgress,
		Remaining:          c.Remaining,
		Blocked:            c.Blocked,
		ParallelWork:       c.ParallelWork,
		Decisions:          c.Decisions,
		Notes:              c.Notes,
		ResumeInstructions: c.Resumption,
	}
	for _, f := range c.FilesChanged {
		w.FilesChanged = append(w.FilesChanged, fileChange{Path: f.Path, Note: f.Note})
	}
	for _, s := range c.Extra {
		w.Sections = append(w.Sections, section{Heading: s.Heading, Body: s.Body})
	}
	return w
}

func toPivotRequestView(r worker.Request) pivotRequest {
	v := pivotRequest{
		ID:             r.ID,
		WorkerID:       r.Worker,
		TaskID:         r.Task,
		Mode:           string(r.Mode),
		Reason:         r.Reason,
		NewTask:        r.NewTask,
		Requested:      r.Requested,
		State:          r.State,
		CheckpointPath: r.Checkpoint,
		Sequence:       r.Sequence,
		NewClaim:       r.NewClaim,
	}
	if !r.Acknowledged.IsZero() {
		at := r.Acknowledged
		v.Acknowledged = &at
	}
	return v
}

// pivotInstructions is what a worker with a pending pivot is told to do,
// after the pivot protocol's [PIVOT REQUEST] message.
func pivotInstructions(r worker.Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[PIVOT REQUEST] Mode: %s. Reason: %s. ", r.Mode, r.Reason)
	task := r.Task
	if task == "" {
		task = "your current work"
	}
	switch r.Mode {
	case checkpoint.PivotHard:
		fmt.Fprintf(&b, "The orchestrator took %s back: stop now and write nothing more on it. Call pivot_acknowledge (no checkpoint is saved).", task)
	case checkpoint.PivotImmediate:
		fmt.Fprintf(&b, "Stop %s now, abandoning the step you are in. Call pivot_acknowledge at once with your checkpoint (completed, in_progress, remaining, files_changed, decisions, resume_instructions).", task)
	default:
		fmt.Fprintf(&b, "Finish the tool call you are in, start nothing new on %s, then call pivot_acknowledge with your checkpoint (completed, in_progress, remaining, files_changed, decisions, resume_instructions).", task)
	}
	switch {
	case r.NewTask == "":
	case isTaskAddress(r.NewTask):
		fmt.Fprintf(&b, " New task: %s, claimed for you when you acknowledge: then task_load_context and task_update_status in_progress.", r.NewTask)
	default:
		fmt.Fprintf(&b, " New task: %s", r.NewTask)
	}
	return b.String()
}

// isTaskAddress reports whether s names a task of a plan, which
// Acknowledge claims, rather than free text.
func isTaskAddress(s string) bool {
	a, err := taskdoc.ParseAddress(s)
	return err == nil && a.Slug != "" && a.Folder() == taskdoc.FolderDocs
}

// Pivot notices: a worker learns of its pending pivot on its next call.

// pivotNotices adds the pending pivot of a session's agent to the results
// of its calls.
type pivotNotices struct {
	pivots   *worker.Pivots
	sessions *sessions
}

// pending returns the pending pivot of agent as a notice, or nil: one read
// of a small file. A request file that does not read is no notice here;
// pivot_acknowledge reports it.
func (n pivotNotices) pending(ctx context.Context, agentID string) *pivotRequest {
	if agentID == "" || checkpoint.CheckWorkerID(agentID) != nil {
		return nil
	}
	r, err := n.pivots.Pending(ctx, agentID)
	if err != nil || r == nil {
		return nil
	}
	v := toPivotRequestView(*r)
	v.Instructions = pivotInstructions(*r)
	return &v
}

func attachNotice(res *mcp.CallToolResult, notice *pivotRequest) {
	body, err := json.Marshal(notice)
	if err != nil {
		return
	}
	var old []byte
	switch sc := res.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		old = sc
	default:
		old, _ = json.Marshal(sc)
	}
	old = bytes.TrimSpace(old)
	if len(old) < 2 || old[0] != '{' || old[len(old)-1] != '}' {
		res.Content = append(res.Content, &mcp.TextContent{Text: `{"pivot_request":` + string(body) + `}`})
		return
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(old, &fields) != nil {
		return
	}
	if _, ok := fields["pivot_request"]; ok {
		return // the heartbeat's answer has it already
	}
	joined := append([]byte(nil), old[:len(old)-1]...)
	if len(fields) > 0 {
		joined = append(joined, ',')
	}
	joined = append(joined, `"pivot_request":`...)
	joined = append(joined, body...)
	joined = append(joined, '}')
	// The text that repeats the structured content may have been written
	// with its keys in another order (a failed batch's, marshalled from the
	// Go value, where the SDK's structured content is re-marshalled from a
	// map): it is found by its meaning, not its bytes.
	var want any
	if json.Unmarshal(old, &want) != nil {
		return
	}
	for i, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && sameJSON(t.Text, want) {
			res.Content[i] = &mcp.TextContent{Text: string(joined)}
		}
	}
	res.StructuredContent = json.RawMessage(joined)
}

// sameJSON reports whether text is a JSON object equal to want (decoded).
func sameJSON(text string, want any) bool {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "{") {
		return false
	}
	var got any
	return json.Unmarshal([]byte(text), &got) == nil && reflect.DeepEqual(got, want)
}

// agentID is the session's agent, "" for none.
func (s *session) agentID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agent
}
