package mcptools

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// The clarification tools are the checkpoint-resume protocol's checkpoint and resume pattern on
// package worker: a worker that cannot decide alone asks its parent
// (clarification_ask) and waits briefly for the answer inside the call,
// spending nothing; when none comes, its checkpoint is saved and it exits.
// The parent finds the open requests (clarification_check), answers
// (clarification_respond) and resumes the worker with the resume prompt.

// Inputs.

type questionInput struct {
	QuestionID string `json:"question_id,omitempty" jsonschema:"the question's id (default Q1, Q2, ...)"`
	Text       string `json:"text" jsonschema:"the question, one line"`
}

type clarificationAskInput struct {
	ID            string          `json:"id,omitempty" jsonschema:"optional: name the request yourself (lower-case letters, digits, _ and -) so that a repeated ask is a retry; default a new cl_... id"`
	Questions     []questionInput `json:"questions" jsonschema:"what you need answered, at least one"`
	BlockedAt     string          `json:"blocked_at,omitempty" jsonschema:"the step you are blocked at, one line"`
	Reason        string          `json:"reason,omitempty" jsonschema:"why you cannot decide alone (Markdown)"`
	WorkContinues bool            `json:"work_continues,omitempty" jsonschema:"true when you have other work to do meanwhile (parallel_work_available)"`
	ParallelWork  []string        `json:"parallel_work_available,omitempty" jsonschema:"that work, one line each"`
	Wait          *int            `json:"wait_seconds,omitempty" jsonschema:"the brief poll: how long this call waits for the answer, in seconds (default 60); then your checkpoint is saved and you exit. 0 records the request and returns at once"`
	TaskID        string          `json:"task_id,omitempty" jsonschema:"the task you work on, for the checkpoint"`
	Checkpoint    *workerSections `json:"checkpoint,omitempty" jsonschema:"the state to save if no answer comes in time: completed, in_progress, remaining, blocked, files_changed, decisions, resume_instructions. Required unless wait_seconds is 0"`
}

type clarificationCheckInput struct {
	WorkerID string `json:"worker_id,omitempty" jsonschema:"with id: the worker that asked (default: this session's agent)"`
	ID       string `json:"id,omitempty" jsonschema:"a request's id: that request and its answer. Without it: every open request and every suspended worker whose answer has arrived"`
}

type responseInput struct {
	QuestionID string `json:"question_id" jsonschema:"the question answered, e.g. Q1"`
	Answer     string `json:"answer" jsonschema:"the answer (Markdown)"`
}

type clarificationRespondInput struct {
	WorkerID           string          `json:"worker_id" jsonschema:"the worker that asked"`
	ID                 string          `json:"id" jsonschema:"the request's id"`
	Responses          []responseInput `json:"responses" jsonschema:"one per question"`
	ResumeSignal       *bool           `json:"resume_signal,omitempty" jsonschema:"true (default): the answer is final and the worker goes on; false: a draft, which a later respond may replace"`
	ResumeMethod       string          `json:"resume_method,omitempty" jsonschema:"how the worker is resumed, one line (default checkpoint)"`
	ResumeInstructions string          `json:"resume_instructions,omitempty" jsonschema:"what the resumed worker should do next (Markdown)"`
	CheckpointPath     string          `json:"checkpoint_path,omitempty" jsonschema:"the worker checkpoint to resume from, e.g. checkpoints/workers/w1/000004.md (default: the one the worker saved waiting for this answer)"`
}

// Results.

// clarificationAskResult is the result of clarification_ask.
type clarificationAskResult struct {
	// Status is asked (wait_seconds 0), answered (the answer came during
	// the brief poll) or suspended (your checkpoint is saved: exit now).
	Status        string               `json:"status"`
	Clarification worker.Clarification `json:"clarification"`
	Answer        *worker.Answer       `json:"answer,omitempty"`
	Checkpoint    *workerCheckpoint    `json:"checkpoint,omitempty"`
	Instructions  string               `json:"instructions"`
}

// answeredWorker is a worker suspended waiting for a clarification whose
// answer has arrived, with the prompt to resume it with.
type answeredWorker struct {
	WorkerID      string               `json:"worker_id"`
	Clarification worker.Clarification `json:"clarification"`
	Answer        worker.Answer        `json:"answer"`
	Checkpoint    workerCheckpoint     `json:"checkpoint"`
	ResumePrompt  string               `json:"resume_prompt"`
}

// clarificationCheckResult is the result of clarification_check.
type clarificationCheckResult struct {
	// With id: the request, its final answer (none while open) and
	// whether it is open or answered.
	Status        string                `json:"status,omitempty"`
	Clarification *worker.Clarification `json:"clarification,omitempty"`
	Answer        *worker.Answer        `json:"answer,omitempty"`
	// Without id: the open requests, oldest first, and the suspended
	// workers whose answers have arrived, with their resume prompts.
	Open     []worker.Clarification `json:"open,omitempty"`
	Answered []answeredWorker       `json:"answered,omitempty"`
}

// clarificationRespondResult is the result of clarification_respond.
type clarificationRespondResult struct {
	Answer worker.Answer `json:"answer"`
	// ResumePrompt is the prompt to resume the worker with, when it is
	// suspended waiting for this answer (and the answer is final).
	ResumePrompt string `json:"resume_prompt,omitempty"`
}

// Descriptions.

const clarificationProtocol = `Clarifications (the checkpoint-resume protocol). Worker: clarification_ask with your questions and your checkpoint; the call itself is the brief poll (wait_seconds, default 60): status answered — apply the answer and go on; status suspended — your checkpoint is saved, stop and exit at once, spending nothing more: your parent resumes you with the answer. Parent: clarification_check (no id) lists the open requests and the suspended workers whose answers arrived, with their resume prompts; clarification_respond answers; resume the worker with the resume_prompt.`

const (
	clarificationAskDescription = `Ask your parent (the orchestrator, a person) what you cannot decide alone, and wait briefly for the answer without spending tokens: questions [{question_id, text}], blocked_at, reason, parallel_work_available, and checkpoint (your state, saved if no answer comes within wait_seconds, default 60). Returns {status: answered, answer: {responses: [{question_id, answer}], resume_instructions}} or {status: suspended, checkpoint}: then exit now. wait_seconds 0 only records the request (status asked); clarification_check {id} reads the answer later. Give id to make a repeated ask a retry.

` + clarificationProtocol

	clarificationCheckDescription = `With id: a clarification request and its answer ({status: open|answered, clarification, answer}), for the worker that asked (worker_id, default this session's agent) or its parent. Without id, for the parent: open (every request without a final answer, oldest first) and answered (suspended workers whose answer arrived, each with its checkpoint and the resume_prompt to resume it with). Reads only.

` + clarificationProtocol

	clarificationRespondDescription = `Answer a worker's clarification request: responses [{question_id, answer}], one per question; resume_signal true (default) makes the answer final and wakes the worker if it still waits in clarification_ask; false records a draft. Returns {answer, resume_prompt}: resume_prompt (set when the worker is suspended waiting for this answer) is the prompt to resume it with. Repeating the same final answer is a retry; another one is CONFLICT.

` + clarificationProtocol
)

// clarifyTools serves the clarification tools.
type clarifyTools struct {
	clar     *worker.Clarifications
	sessions *sessions
}

func addClarificationTools(ts *toolBatch, clar *worker.Clarifications) error {
	c := clarifyTools{clar: clar, sessions: ts.sessions}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "clarification_ask", Description: clarificationAskDescription, Annotations: additive}, c.ask),
		addTool(ts, &mcp.Tool{Name: "clarification_check", Description: clarificationCheckDescription, Annotations: readOnly}, c.check),
		addTool(ts, &mcp.Tool{Name: "clarification_respond", Description: clarificationRespondDescription, Annotations: additiveIdempotent}, c.respond),
	)
}

func (c clarifyTools) ask(ctx context.Context, req *mcp.CallToolRequest, in clarificationAskInput) (*mcp.CallToolResult, clarificationAskResult, error) {
	me := c.sessions.of(req).agentID()
	if me == "" {
		return nil, clarificationAskResult{}, newToolError(argumentError("this session has no agent: a clarification is asked by a worker (agent_register first)"))
	}
	wait := worker.DefaultPollDuration
	if in.Wait != nil {
		if *in.Wait < 0 {
			return nil, clarificationAskResult{}, newToolError(argumentError("wait_seconds %d: give 0 (do not wait) or more", *in.Wait))
		}
		wait = time.Duration(*in.Wait) * time.Second
	}
	if wait > 0 && in.Checkpoint == nil {
		return nil, clarificationAskResult{}, newToolError(argumentError("give checkpoint, the state saved if no answer comes within wait_seconds (or wait_seconds 0 to ask only)"))
	}
	n := worker.Needed{ID: in.ID, BlockedAt: in.BlockedAt, Reason: in.Reason, WorkContinues: in.WorkContinues,
		ParallelWork: in.ParallelWork, PollDuration: wait}
	for _, q := range in.Questions {
		n.Questions = append(n.Questions, worker.Question{ID: q.QuestionID, Text: q.Text})
	}
	out := clarificationAskResult{Status: "asked",
		Instructions: "Asked. Go on with other work if you have some; read the answer later with clarification_check {id}."}
	if wait == 0 {
		asked, err := c.clar.Ask(ctx, me, n)
		if err != nil {
			return nil, clarificationAskResult{}, newToolError(err)
		}
		out.Clarification = asked
		return nil, out, nil
	}
	cp := checkpoint.Checkpoint{Task: in.TaskID}
	in.Checkpoint.fill(&cp)
	asked, answer, err := c.clar.AskAndAwait(ctx, me, n, cp, worker.PollOptions{Duration: wait, Interval: min(wait, worker.DefaultPollInterval)})
	switch {
	case errors.Is(err, worker.ErrSuspended):
		out.Status, out.Clarification = "suspended", asked
		out.Instructions = "No answer yet: your checkpoint is saved. Stop now and exit, spending nothing more: your parent resumes you with the answer."
		if saved, err := c.clar.Workers().Get(ctx, me, 0); err == nil {
			v := toWorkerCheckpointView(saved)
			out.Checkpoint = &v
		}
		return nil, out, nil
	case err != nil:
		return nil, clarificationAskResult{}, newToolError(err)
	}
	out.Clarification = asked
	out.Status, out.Answer = "answered", &answer
	out.Instructions = "Answered: apply the responses and go on with your work."
	return nil, out, nil
}

func (c clarifyTools) check(ctx context.Context, req *mcp.CallToolRequest, in clarificationCheckInput) (*mcp.CallToolResult, clarificationCheckResult, error) {
	if in.ID != "" {
		id := in.WorkerID
		if id == "" {
			if id = c.sessions.of(req).agentID(); id == "" {
				return nil, clarificationCheckResult{}, newToolError(argumentError("give worker_id: this session has no agent to default to"))
			}
		}
		cl, answer, err := c.clar.Get(ctx, id, in.ID)
		if err != nil {
			return nil, clarificationCheckResult{}, newToolError(err)
		}
		out := clarificationCheckResult{Status: "open", Clarification: &cl, Answer: answer}
		if answer != nil {
			out.Status = "answered"
		}
		return nil, out, nil
	}
	if in.WorkerID != "" {
		return nil, clarificationCheckResult{}, newToolError(argumentError("worker_id goes with id; without id every worker's requests are listed"))
	}
	open, err := c.clar.Open(ctx)
	if err != nil {
		return nil, clarificationCheckResult{}, newToolError(err)
	}
	suspended, err := c.clar.Answered(ctx)
	if err != nil {
		return nil, clarificationCheckResult{}, newToolError(err)
	}
	out := clarificationCheckResult{Open: open, Answered: []answeredWorker{}}
	if out.Open == nil {
		out.Open = []worker.Clarification{}
	}
	for _, s := range suspended {
		prompt, err := c.clar.ResumePrompt(ctx, s.Worker)
		if err != nil && taskdoc.CodeOf(err) != taskdoc.CodeInvalidArguments {
			return nil, clarificationCheckResult{}, newToolError(err)
		}
		out.Answered = append(out.Answered, answeredWorker{WorkerID: s.Worker, Clarification: s.Clarification,
			Answer: s.Answer, Checkpoint: toWorkerCheckpointView(s.Checkpoint), ResumePrompt: prompt})
	}
	return nil, out, nil
}

func (c clarifyTools) respond(ctx context.Context, _ *mcp.CallToolRequest, in clarificationRespondInput) (*mcp.CallToolResult, clarificationRespondResult, error) {
	a := worker.Answer{ResumeSignal: in.ResumeSignal == nil || *in.ResumeSignal, ResumeMethod: in.ResumeMethod,
		ResumeInstructions: worker.ResumeInstructions{Text: in.ResumeInstructions, CheckpointPath: in.CheckpointPath}}
	for _, r := range in.Responses {
		a.Responses = append(a.Responses, worker.Response{QuestionID: r.QuestionID, Answer: r.Answer})
	}
	got, err := c.clar.Respond(ctx, in.WorkerID, in.ID, a)
	if err != nil {
		return nil, clarificationRespondResult{}, newToolError(err)
	}
	out := clarificationRespondResult{Answer: got}
	if got.ResumeSignal {
		// The prompt exists once the worker suspended waiting for this
		// request; a worker still polling (or one that went on) has none.
		if cp, err := c.clar.Workers().Get(ctx, in.WorkerID, 0); err == nil && cp.Clarification == in.ID &&
			cp.Phase == worker.PhaseWaitingClarification {
			prompt, err := c.clar.ResumePrompt(ctx, in.WorkerID)
			if err != nil {
				return nil, clarificationRespondResult{}, newToolError(err)
			}
			out.ResumePrompt = prompt
		}
	}
	return nil, out, nil
}
