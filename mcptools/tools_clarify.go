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
	ID            string          `json:"id,omitempty" jsonschema:"optional id of your choice ([a-z0-9_-]) so that a repeated ask is a retry"`
	Questions     []questionInput `json:"questions" jsonschema:"what you need answered, at least one"`
	BlockedAt     string          `json:"blocked_at,omitempty" jsonschema:"the step you are blocked at, one line"`
	Reason        string          `json:"reason,omitempty" jsonschema:"why you cannot decide alone (Markdown)"`
	WorkContinues bool            `json:"work_continues,omitempty" jsonschema:"true when you have other work to do meanwhile (parallel_work_available)"`
	ParallelWork  []string        `json:"parallel_work_available,omitempty" jsonschema:"that work, one line each"`
	Wait          *int            `json:"wait_seconds,omitempty" jsonschema:"seconds to wait for the answer (default 60) before your checkpoint is saved; 0 returns at once"`
	TaskID        string          `json:"task_id,omitempty" jsonschema:"the task you work on, for the checkpoint"`
	Checkpoint    *workerSections `json:"checkpoint,omitempty" jsonschema:"your state (the sections of checkpoint_save), saved if no answer comes in time; required unless wait_seconds is 0"`
}

type clarificationCheckInput struct {
	WorkerID string `json:"worker_id,omitempty" jsonschema:"with id: the worker that asked (default: this session's agent)"`
	ID       string `json:"id,omitempty" jsonschema:"a request's id; without it, every open request and every suspended worker whose answer arrived"`
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
	CheckpointPath     string          `json:"checkpoint_path,omitempty" jsonschema:"the worker checkpoint to resume from (default: the one saved while waiting for this answer)"`
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

const (
	clarificationAskDescription = `Ask your parent (an orchestrator or a person) questions you cannot decide alone, with your checkpoint; the call waits up to wait_seconds (default 60). status answered: apply the answer. status suspended: your checkpoint is saved; exit now, you will be resumed with the answer. Give id to make a repeat a retry. How it works: prompt resume-after-pause.`

	clarificationCheckDescription = `With id: one clarification request and its answer. Without id (for the parent): the open requests, and the suspended workers whose answer arrived, each with the resume_prompt to restart it with. Reads only.`

	clarificationRespondDescription = `Answer a worker's clarification request, one response per question. The answer is final unless resume_signal is false (a draft); a waiting worker wakes at once, a suspended one is restarted with the returned resume_prompt. Repeating the same answer is a retry; another answer is CONFLICT.`
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
