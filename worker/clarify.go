package worker

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/internal/watch"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// The brief poll of the checkpoint-resume protocol: a worker waits this long for an answer,
// re-checking at least every interval, before it checkpoints and exits.
const (
	DefaultPollDuration = 60 * time.Second
	DefaultPollInterval = 5 * time.Second
)

// PhaseWaitingClarification is the phase of the checkpoint a worker saves
// when it suspends for a clarification.
const PhaseWaitingClarification = "waiting_clarification"

// resumeCheckpoint is the resume method Respond records unless told
// otherwise: the worker checkpointed (or will) and is resumed from it.
const resumeCheckpoint = "checkpoint"

// Question is one question of a clarification request.
type Question struct {
	ID   string `json:"question_id"` // "Q1", "Q2", ... unless the worker names it; unique in its request
	Text string `json:"text"`        // one line
}

// Needed is what a worker asks (the checkpoint-resume protocol's CLARIFICATION_NEEDED).
type Needed struct {
	// ID names the request: a lower-case word (letters, digits, '_', '-';
	// at most 64) that makes Ask a retry; "" is "cl_" and 12 random hex
	// digits.
	ID        string     `json:"id,omitempty"`
	BlockedAt string     `json:"blocked_at,omitempty"` // one line: the step the worker is blocked at
	Reason    string     `json:"reason,omitempty"`     // Markdown text: why it cannot decide alone
	Questions []Question `json:"questions"`            // at least one
	// WorkContinues tells the parent the worker has other work it can do
	// meanwhile; ParallelWork lists it (one line each).
	WorkContinues bool     `json:"work_continues"`
	ParallelWork  []string `json:"parallel_work_available,omitempty"`
	// PollDuration is recorded as the brief poll the worker will wait
	// (checkpoint_info.brief_poll_duration); 0 is DefaultPollDuration. In
	// JSON it is in nanoseconds, as encoding/json writes a time.Duration.
	PollDuration time.Duration `json:"poll_duration_ns,omitempty"`
}

// CheckpointInfo is a request's checkpoint_info: how the worker waits.
type CheckpointInfo struct {
	BriefPollDuration string `json:"brief_poll_duration"` // "60s"
	// CheckpointPath is the checkpoint the worker saved when it suspended
	// ("checkpoints/workers/w1/000004.md"); "" until then.
	CheckpointPath    string `json:"checkpoint_path,omitempty"`
	WillExitAfterPoll bool   `json:"agent_will_exit_after_poll"` // always true
	ResumeRequired    bool   `json:"resume_required"`            // always true
}

// Clarification is a recorded clarification request, the file
// checkpoints/workers/<worker>/clarifications/<id>.json, in the checkpoint-resume protocol's
// names.
type Clarification struct {
	ID                    string         `json:"id"`
	AgentID               string         `json:"agent_id"` // the worker
	Timestamp             time.Time      `json:"timestamp"`
	BlockedAt             string         `json:"blocked_at,omitempty"`
	Reason                string         `json:"reason,omitempty"`
	Questions             []Question     `json:"questions"`
	CheckpointInfo        CheckpointInfo `json:"checkpoint_info"`
	WorkContinues         bool           `json:"work_continues"`
	ParallelWorkAvailable []string       `json:"parallel_work_available,omitempty"`
	// Suspended is when the worker checkpointed and exited; zero while it
	// polls, and when an answer came in time.
	Suspended time.Time `json:"suspended,omitzero"`
}

// Response is the answer to one question.
type Response struct {
	QuestionID string `json:"question_id"`
	Answer     string `json:"answer"` // Markdown text
}

// ResumeInstructions tells the parent, and the resumed worker, how to
// resume (the checkpoint-resume protocol's resume_instructions).
type ResumeInstructions struct {
	// CheckpointPath is the checkpoint the worker resumes from
	// ("checkpoints/workers/w1/000004.md"); see Respond.
	CheckpointPath string `json:"checkpoint_path,omitempty"`
	UseTaskResume  bool   `json:"use_task_resume"`
	// ResumePromptIncludes is one line; "" is "clarification_responses".
	ResumePromptIncludes string `json:"resume_prompt_includes,omitempty"`
	// Text is Markdown for the resume prompt's Resume Instructions.
	Text string `json:"text,omitempty"`
}

// Answer is the parent's answer to a request (the checkpoint-resume protocol's
// CLARIFICATION_RESPONSE), the file
// checkpoints/workers/<worker>/clarifications/<id>.answer.json.
type Answer struct {
	RequestID string     `json:"request_id"` // set by Respond
	AgentID   string     `json:"agent_id"`   // the worker; set by Respond
	Timestamp time.Time  `json:"timestamp"`  // set by Respond
	Responses []Response `json:"responses"`
	// ResumeSignal lets the worker go on. An answer without it is a draft:
	// the worker keeps waiting, and a later Respond may replace it.
	ResumeSignal       bool               `json:"resume_signal"`
	ResumeMethod       string             `json:"resume_method,omitempty"` // one line; "" is "checkpoint"
	ResumeInstructions ResumeInstructions `json:"resume_instructions"`
}

// PollOptions is the brief poll of Await.
type PollOptions struct {
	// Duration is how long the worker waits before it checkpoints; 0 is
	// the duration its request recorded.
	Duration time.Duration
	// Interval is how often it re-checks the answer file besides the file
	// notifications that wake it at once (a safety net, never a busy
	// loop); 0 is DefaultPollInterval.
	Interval time.Duration
}

// Suspended is a suspended worker whose answer has arrived: the parent
// resumes it (ResumePrompt).
type Suspended struct {
	Worker        string                `json:"worker"`
	Checkpoint    checkpoint.Checkpoint `json:"checkpoint"` // its current checkpoint, waiting for the request (the checkpoint-resume protocol's JSON form)
	Clarification Clarification         `json:"clarification"`
	Answer        Answer                `json:"answer"`
}

// Clarifications gives workers and their parents the clarification
// requests of one workspace (see the package doc). It keeps no state of
// its own.
type Clarifications struct {
	ws      *workspace.Workspace
	workers *checkpoint.Store
	cfg     taskflow.Config
	timer   watch.Clock
}

// NewClarifications returns the clarifications of ws, on the worker
// checkpoints of ws with the same clock.
func NewClarifications(ws *workspace.Workspace, opts ...Option) *Clarifications {
	cfg := config(opts)
	return &Clarifications{ws: ws, workers: checkpoint.New(ws, checkpoint.WithClock(cfg.Now)),
		cfg: cfg, timer: watch.RealClock{}}
}

// WithTimer returns c with the timer of its waits set to t.
func (c *Clarifications) WithTimer(t Timer) *Clarifications {
	d := *c
	d.timer = t
	return &d
}

// Workers is the worker checkpoint store the clarifications use.
func (c *Clarifications) Workers() *checkpoint.Store { return c.workers }

// clarificationsDir is the workspace folder of a worker's clarification
// requests and answers.
func clarificationsDir(worker string) string {
	return checkpoint.WorkerDir(worker) + "/clarifications"
}

// clarificationFile is the workspace path of request id of worker.
func clarificationFile(worker, id string) string {
	return clarificationsDir(worker) + "/" + id + ".json"
}

// answerFile is the workspace path of the answer to request id of worker.
func answerFile(worker, id string) string {
	return clarificationsDir(worker) + "/" + id + ".answer.json"
}

const answerSuffix = ".answer.json"

// Ask records a clarification request of worker (an agent id) and returns
// it as recorded. The worker then waits for the answer with Await. A
// request with the ID of a recorded one is a retry when it asks the same
// (it returns the recorded request and writes nothing) and CONFLICT
// otherwise. Bad input is INVALID_ARGUMENTS, INVALID_UTF8 or
// CONTROL_CHARACTER and writes nothing.
func (c *Clarifications) Ask(ctx context.Context, worker string, n Needed) (Clarification, error) {
	req, err := c.needed(worker, n)
	if err != nil {
		return Clarification{}, err
	}
	out, _, err := c.ask(ctx, worker, req)
	return out, err
}

// needed checks what worker asks and returns the request Ask records,
// with its id (without its time).
func (c *Clarifications) needed(worker string, n Needed) (Clarification, error) {
	if err := checkpoint.CheckWorkerID(worker); err != nil {
		return Clarification{}, err
	}
	req, err := normalNeeded(worker, n)
	if err != nil {
		return Clarification{}, err
	}
	if req.ID == "" {
		req.ID = newClarificationID()
	}
	return req, nil
}

// ask records req, checked, and returns it as recorded; written is what
// this call wrote, nil for a retry.
func (c *Clarifications) ask(ctx context.Context, worker string, req Clarification) (out Clarification, written []byte, err error) {
	_, err = c.ws.Update(ctx, clarificationFile(worker, req.ID), func(cur []byte, exists bool) ([]byte, error) {
		if exists {
			old, err := decodeClarification(worker, req.ID, cur)
			if err != nil {
				return nil, err
			}
			if !sameQuestion(old, req) {
				return nil, &taskdoc.Error{Code: taskdoc.CodeConflict, Path: clarificationFile(worker, req.ID),
					Msg: fmt.Sprintf("worker %s asked another clarification as %s already: give the new one another id", worker, req.ID)}
			}
			out, written = old, nil
			return nil, nil
		}
		out = req
		out.Timestamp = c.now()
		written, err = encodeJSON(out)
		return written, err
	})
	if err != nil {
		return Clarification{}, nil, err
	}
	return out, written, nil
}

// AskAndAwait is Ask, then Await with cp and po, as one call: the way a
// worker asks and waits. Everything is checked before the request is
// written, cp (the checkpoint saved if no answer comes) and po included,
// so a call refused for its input writes nothing; and when the wait fails
// for another reason than the suspension (the context ends, a write
// fails), the request this call recorded is removed again unless an
// answer has arrived, so that no parent sees a question from a call that
// failed. It returns the request as recorded (with its checkpoint path
// once suspended) and the answer, or ErrSuspended as Await does.
func (c *Clarifications) AskAndAwait(ctx context.Context, worker string, n Needed, cp checkpoint.Checkpoint, po PollOptions) (Clarification, Answer, error) {
	req, err := c.needed(worker, n)
	if err != nil {
		return Clarification{}, Answer{}, err
	}
	if err := checkPoll(po); err != nil {
		return Clarification{}, Answer{}, err
	}
	if _, err := waiting(worker, req.ID, cp); err != nil {
		return Clarification{}, Answer{}, err
	}
	asked, written, err := c.ask(ctx, worker, req)
	if err != nil {
		return Clarification{}, Answer{}, err
	}
	a, err := c.Await(ctx, worker, asked.ID, cp, po)
	switch {
	case errors.Is(err, ErrSuspended):
		if again, _, gerr := c.Get(ctx, worker, asked.ID); gerr == nil {
			asked = again
		}
		return asked, Answer{}, err
	case err != nil:
		if written != nil {
			c.withdraw(ctx, worker, asked.ID, written)
		}
		return Clarification{}, Answer{}, err
	}
	return asked, a, nil
}

// withdraw removes the request id of worker when it still holds written
// and has no answer: the undoing of a failed AskAndAwait. It runs even
// when ctx has ended, and what it cannot remove stays (an answer that
// came meanwhile keeps its request).
func (c *Clarifications) withdraw(ctx context.Context, worker, id string, written []byte) {
	name, answer := clarificationFile(worker, id), answerFile(worker, id)
	_ = c.ws.Lock(context.WithoutCancel(ctx), []string{name, answer}, func(tx *workspace.Tx) error {
		if ok, err := tx.Exists(answer); err != nil || ok {
			return err
		}
		return tx.RemoveUnchanged(name, written)
	})
}

// Get returns request id of worker and its answer, nil when there is none
// yet (or a draft, without ResumeSignal). A request that does not exist is
// DOCUMENT_NOT_FOUND.
func (c *Clarifications) Get(ctx context.Context, worker, id string) (Clarification, *Answer, error) {
	if err := checkNames(worker, id); err != nil {
		return Clarification{}, nil, err
	}
	req, err := c.readRequest(ctx, worker, id)
	if err != nil {
		return Clarification{}, nil, err
	}
	a, err := c.readAnswer(ctx, worker, id)
	return req, a, err
}

// Respond records the answer to request id of worker and returns it as
// recorded. Every response names a question of the request, at most once,
// with a non-empty answer; with ResumeSignal every question is answered.
// Responses are recorded in the order of the questions. Writing an answer
// wakes the worker if it still polls (Await) and tells the parent's
// watchers (WatchAnswers).
//
// ResumeInstructions.CheckpointPath, the checkpoint the worker resumes
// from, is the root-relative path of a worker checkpoint that exists
// (INVALID_ARGUMENTS, DOCUMENT_NOT_FOUND otherwise); "" is the checkpoint
// the worker saved waiting for this request, when it has saved one.
//
// An answer with ResumeSignal is final: Respond again with the same answer
// (responses, signal, method and instructions) is a retry that writes
// nothing and returns the recorded one; another answer is CONFLICT. A
// draft (no ResumeSignal) may be replaced. A request that does not exist,
// or is withdrawn while it is answered, is DOCUMENT_NOT_FOUND; bad input
// is INVALID_ARGUMENTS, INVALID_UTF8 or CONTROL_CHARACTER; neither writes
// anything.
func (c *Clarifications) Respond(ctx context.Context, worker, id string, a Answer) (Answer, error) {
	if err := checkNames(worker, id); err != nil {
		return Answer{}, err
	}
	req, err := c.readRequest(ctx, worker, id)
	if err != nil {
		return Answer{}, err
	}
	ans, err := normalAnswer(req, a)
	if err != nil {
		return Answer{}, err
	}
	given := ans.ResumeInstructions.CheckpointPath != ""
	if given {
		// The worker is resumed from it: one it could not load is refused
		// now, not when it resumes.
		if _, err := checkpointAt(ctx, c.workers, ans.ResumeInstructions.CheckpointPath); err != nil {
			return Answer{}, err
		}
	} else {
		ans.ResumeInstructions.CheckpointPath = c.waitingPath(ctx, worker, req)
	}
	var out Answer
	name, asked := answerFile(worker, id), clarificationFile(worker, id)
	// The request is locked with its answer: a request withdrawn (or asked
	// again) since it was read gets no answer (see withdraw).
	err = c.ws.Lock(ctx, []string{asked, name}, func(tx *workspace.Tx) error {
		data, err := tx.ReadIfExists(asked)
		if err != nil {
			return err
		}
		if data == nil {
			return &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: asked,
				Msg: fmt.Sprintf("worker %s withdrew clarification request %s while it was answered: nothing is answered", worker, id)}
		}
		if now, err := decodeClarification(worker, id, data); err != nil {
			return err
		} else if !sameQuestion(now, req) {
			return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: asked,
				Msg: fmt.Sprintf("worker %s asked clarification %s again, differently, while it was answered: read it again", worker, id)}
		}
		cur, err := tx.ReadIfExists(name)
		if err != nil {
			return err
		}
		if cur != nil {
			old, err := decodeAnswer(worker, id, cur)
			if err != nil {
				return err
			}
			same := ans
			if !given { // the default, whatever it is now, is a retry's
				same.ResumeInstructions.CheckpointPath = old.ResumeInstructions.CheckpointPath
			}
			if sameAnswer(old, same) {
				out = old
				return nil
			}
			if old.ResumeSignal {
				return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: name,
					Msg: fmt.Sprintf("clarification %s of worker %s was answered already, differently, at %s: read the answer with Get; an answer with the resume signal is final",
						id, worker, old.Timestamp.Format(time.RFC3339))}
			}
		}
		out = ans
		out.Timestamp = c.now()
		data, err = encodeJSON(out)
		if err != nil {
			return err
		}
		return tx.Write(name, data)
	})
	if err != nil {
		return Answer{}, err
	}
	return out, nil
}

// Await waits for the answer to request id of worker: the brief poll of
// the checkpoint-resume protocol. It returns the answer as soon as one with ResumeSignal is
// recorded, woken by file notifications (not by polling), and re-checks
// every po.Interval besides. When po.Duration has passed without one, it
// saves cp as the worker's checkpoint (phase waiting_clarification, status
// BLOCKED, Clarification id; the rest as the worker gave it), records its
// path in the request, and returns ErrSuspended: the worker must then
// exit. Its parent resumes it when the answer arrives (Answered,
// ResumePrompt). No checkpoint is written when the answer comes in time.
//
// cp is checked before the wait, so a checkpoint Save would refuse fails at
// once (INVALID_ARGUMENTS, ...), as do a missing request
// (DOCUMENT_NOT_FOUND) and a negative duration or interval.
func (c *Clarifications) Await(ctx context.Context, worker, id string, cp checkpoint.Checkpoint, po PollOptions) (Answer, error) {
	if err := checkNames(worker, id); err != nil {
		return Answer{}, err
	}
	if err := checkPoll(po); err != nil {
		return Answer{}, err
	}
	req, err := c.readRequest(ctx, worker, id)
	if err != nil {
		return Answer{}, err
	}
	if po.Duration == 0 {
		po.Duration = DefaultPollDuration
		if d, err := time.ParseDuration(req.CheckpointInfo.BriefPollDuration); err == nil && d > 0 {
			po.Duration = d
		}
	}
	if po.Interval == 0 {
		po.Interval = DefaultPollInterval
	}
	if cp, err = waiting(worker, id, cp); err != nil {
		return Answer{}, err
	}
	var got Answer
	check := func() (bool, error) {
		a, err := c.readAnswer(ctx, worker, id)
		if err != nil || a == nil {
			return false, err
		}
		got = *a
		return true, nil
	}
	dir := c.abs(clarificationsDir(worker))
	for left := po.Duration; left > 0; {
		step := min(po.Interval, left)
		ok, err := watch.Until(ctx, dir, step, c.timer, check)
		if err != nil {
			return Answer{}, err
		}
		if ok {
			return got, nil
		}
		left -= step
	}
	saved, err := c.workers.Save(ctx, cp)
	if err != nil {
		return Answer{}, err
	}
	path := checkpoint.WorkerFile(worker, saved.Sequence)
	_, err = c.ws.Update(ctx, clarificationFile(worker, id), func(cur []byte, exists bool) ([]byte, error) {
		if !exists {
			return nil, nil
		}
		r, err := decodeClarification(worker, id, cur)
		if err != nil || r.CheckpointInfo.CheckpointPath == path {
			return nil, err
		}
		r.CheckpointInfo.CheckpointPath, r.Suspended = path, c.now()
		return encodeJSON(r)
	})
	if err != nil {
		return Answer{}, err
	}
	return Answer{}, &taskdoc.Error{Code: CodeSuspended, Path: path,
		Msg: fmt.Sprintf("no answer to clarification %s of worker %s within %v: the checkpoint is saved as %s; exit now, the parent resumes the worker when the answer arrives",
			id, worker, po.Duration, path)}
}

// waitingPath is the checkpoint worker saved waiting for req: the path
// req records, else the worker's current checkpoint when it waits for req
// (saved, its path not recorded yet), else "".
func (c *Clarifications) waitingPath(ctx context.Context, worker string, req Clarification) string {
	if req.CheckpointInfo.CheckpointPath != "" {
		return req.CheckpointInfo.CheckpointPath
	}
	cp, err := c.workers.Get(ctx, worker, 0)
	if err != nil || cp.Phase != PhaseWaitingClarification || cp.Clarification != req.ID {
		return ""
	}
	return checkpoint.WorkerFile(worker, cp.Sequence)
}

func checkPoll(po PollOptions) error {
	if po.Duration < 0 || po.Interval < 0 {
		return invalidArg(fmt.Sprintf("the poll duration (%v) and interval (%v) must not be negative", po.Duration, po.Interval))
	}
	return nil
}

// waiting returns cp as the checkpoint of worker waiting for request id,
// checked as Save checks it.
func waiting(worker, id string, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	cp.Worker, cp.Phase, cp.Clarification, cp.Status = worker, PhaseWaitingClarification, id, checkpoint.StatusBlocked
	_, err := cp.Render()
	return cp, err
}

// Open returns the requests without a final answer (none, or a draft), of
// every worker, oldest first.
func (c *Clarifications) Open(ctx context.Context) ([]Clarification, error) {
	var out []Clarification
	err := c.each(ctx, func(req Clarification, a *Answer) error {
		if a == nil {
			out = append(out, req)
		}
		return nil
	})
	slices.SortStableFunc(out, func(a, b Clarification) int {
		return cmp.Or(a.Timestamp.Compare(b.Timestamp), cmp.Compare(a.AgentID, b.AgentID), cmp.Compare(a.ID, b.ID))
	})
	return out, err
}

// Answered returns the suspended workers whose answers have arrived:
// those whose current checkpoint waits for a clarification
// (waiting_clarification) that has a final answer, oldest answer first.
// A worker leaves the list when it saves its next checkpoint after it
// was resumed.
func (c *Clarifications) Answered(ctx context.Context) ([]Suspended, error) {
	workers, err := c.workerIDs()
	if err != nil {
		return nil, err
	}
	var out []Suspended
	for _, w := range workers {
		cp, err := c.workers.Get(ctx, w, 0)
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if cp.Phase != PhaseWaitingClarification || checkNames(w, cp.Clarification) != nil {
			continue
		}
		req, a, err := c.Get(ctx, w, cp.Clarification)
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if a != nil {
			out = append(out, Suspended{Worker: w, Checkpoint: cp, Clarification: req, Answer: *a})
		}
	}
	slices.SortStableFunc(out, func(a, b Suspended) int {
		return cmp.Or(a.Answer.Timestamp.Compare(b.Answer.Timestamp), cmp.Compare(a.Worker, b.Worker))
	})
	return out, nil
}

// WatchAnswers tells the parent of answers without polling: it calls fn
// with every final answer recorded when it starts, then with each one
// recorded while it watches, once each, as file notifications report
// them (the folders of every worker, new ones included). It returns nil
// when fn returns false, the context's error when ctx ends, and the error
// of a read or of the watch otherwise.
func (c *Clarifications) WatchAnswers(ctx context.Context, fn func(Answer) bool) error {
	seen := map[string]bool{}
	_, err := watch.UntilTree(ctx, c.abs(checkpoint.FolderWorkers), 0, nil, func() (bool, error) {
		fresh, err := c.newAnswers(ctx, seen)
		if err != nil {
			return false, err
		}
		for _, a := range fresh {
			seen[a.AgentID+"/"+a.RequestID] = true
			if !fn(a) {
				return true, nil
			}
		}
		return false, nil
	})
	return err
}

// newAnswers returns the final answers not in seen, oldest first. It reads
// only the answer files it has not seen (and drafts), so a change costs a
// listing of the folders, not a read of every request.
func (c *Clarifications) newAnswers(ctx context.Context, seen map[string]bool) ([]Answer, error) {
	workers, err := c.workerIDs()
	if err != nil {
		return nil, err
	}
	var fresh []Answer
	for _, w := range workers {
		names, err := c.ws.List(ctx, clarificationsDir(w))
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			id, ok := strings.CutSuffix(name[strings.LastIndexByte(name, '/')+1:], answerSuffix)
			if !ok || seen[w+"/"+id] || checkID(id) != nil {
				continue
			}
			a, err := c.readAnswer(ctx, w, id)
			if err != nil {
				return nil, err
			}
			if a != nil {
				fresh = append(fresh, *a)
			}
		}
	}
	slices.SortStableFunc(fresh, func(a, b Answer) int {
		return cmp.Or(a.Timestamp.Compare(b.Timestamp), cmp.Compare(a.AgentID, b.AgentID), cmp.Compare(a.RequestID, b.RequestID))
	})
	return fresh, nil
}

// each calls fn with every request of every worker and its final answer
// (nil when it has none).
func (c *Clarifications) each(ctx context.Context, fn func(Clarification, *Answer) error) error {
	workers, err := c.workerIDs()
	if err != nil {
		return err
	}
	for _, w := range workers {
		names, err := c.ws.List(ctx, clarificationsDir(w))
		if err != nil {
			return err
		}
		for _, name := range names {
			base := name[strings.LastIndexByte(name, '/')+1:]
			id, ok := strings.CutSuffix(base, ".json")
			if !ok || strings.HasSuffix(base, answerSuffix) || checkID(id) != nil {
				continue
			}
			req, a, err := c.Get(ctx, w, id)
			if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
				continue // removed meanwhile
			}
			if err != nil {
				return err
			}
			if err := fn(req, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// workerIDs returns the names of the worker folders, sorted: the workers
// that asked or checkpointed.
func (c *Clarifications) workerIDs() ([]string, error) {
	entries, err := os.ReadDir(c.abs(checkpoint.FolderWorkers))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, &taskdoc.Error{Code: taskdoc.CodeIO, Path: checkpoint.FolderWorkers,
			Msg: "the worker folders do not read", Err: err}
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && checkpoint.CheckWorkerID(e.Name()) == nil {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

func (c *Clarifications) readRequest(ctx context.Context, worker, id string) (Clarification, error) {
	name := clarificationFile(worker, id)
	data, err := c.ws.ReadData(ctx, name)
	if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
		return Clarification{}, &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: name,
			Msg: fmt.Sprintf("worker %s has no clarification request %s", worker, id)}
	}
	if err != nil {
		return Clarification{}, err
	}
	return decodeClarification(worker, id, data)
}

// readAnswer returns the final answer to request id, nil when there is
// none (or a draft).
func (c *Clarifications) readAnswer(ctx context.Context, worker, id string) (*Answer, error) {
	data, err := c.ws.ReadIfExists(ctx, answerFile(worker, id))
	if err != nil || data == nil {
		return nil, err
	}
	a, err := decodeAnswer(worker, id, data)
	if err != nil || !a.ResumeSignal {
		return nil, err
	}
	return &a, nil
}

func (c *Clarifications) now() time.Time { return c.cfg.Now().UTC().Truncate(time.Second) }

func (c *Clarifications) abs(name string) string {
	return filepath.Join(c.ws.Root(), filepath.FromSlash(name))
}

func decodeClarification(worker, id string, data []byte) (Clarification, error) {
	var r Clarification
	if err := json.Unmarshal(data, &r); err != nil {
		return Clarification{}, parseErr(clarificationFile(worker, id), "clarification request", err)
	}
	r.ID, r.AgentID = id, worker // the file's name wins
	return r, nil
}

func decodeAnswer(worker, id string, data []byte) (Answer, error) {
	var a Answer
	if err := json.Unmarshal(data, &a); err != nil {
		return Answer{}, parseErr(answerFile(worker, id), "clarification answer", err)
	}
	a.RequestID, a.AgentID = id, worker
	return a, nil
}

func parseErr(name, what string, err error) error {
	return &taskdoc.Error{Code: taskdoc.CodeParse, Path: name,
		Msg: fmt.Sprintf("the %s %s does not read: %v; repair or remove it", what, name, err)}
}

func encodeJSON(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	return append(data, '\n'), err
}

// sameQuestion reports whether two requests ask the same, whatever their
// times and checkpoint paths.
func sameQuestion(a, b Clarification) bool {
	a.Timestamp, b.Timestamp = time.Time{}, time.Time{}
	a.Suspended, b.Suspended = time.Time{}, time.Time{}
	a.CheckpointInfo.CheckpointPath, b.CheckpointInfo.CheckpointPath = "", ""
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// sameAnswer reports whether two answers say the same, whatever their
// times.
func sameAnswer(a, b Answer) bool {
	a.Timestamp, b.Timestamp = time.Time{}, time.Time{}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func newClarificationID() string {
	var b [6]byte
	rand.Read(b[:])
	return "cl_" + hex.EncodeToString(b[:])
}

// formatSeconds writes d as the checkpoint-resume protocol does: "60s", "0.5s".
func formatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}
