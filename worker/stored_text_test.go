package worker_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// A pivot whose reason or new task holds a control character is refused
// when it is requested, naming the field, before anything is written: no
// request file, and a hard pivot takes no task back.
func TestPivotRequestRefusesControlCharacters(t *testing.T) {
	for _, mode := range []checkpoint.PivotMode{checkpoint.PivotGraceful, checkpoint.PivotHard} {
		for field, pv := range map[string]worker.Pivot{
			"reason":   {Mode: mode, Reason: "stop\x00now"},
			"new_task": {Mode: mode, Reason: "stop", NewTask: "go \x1b[31mthere"},
		} {
			e := setup(t)
			before := e.read(t, "docs/shop.md")
			_, err := e.pivots.Request(ctx, e.worker, pv)
			assert.Equal(t, taskdoc.CodeControlCharacter, taskdoc.CodeOf(err), "%s %s", mode, field)
			assert.ErrorContains(t, err, field)
			_, err = os.Stat(filepath.Join(e.root, filepath.FromSlash(checkpoint.WorkerDir(e.worker)), "pivot.json"))
			assert.True(t, os.IsNotExist(err), "no request recorded for %s %s", mode, field)
			assert.Equal(t, before, e.read(t, "docs/shop.md"), "%s %s", mode, field)
		}
	}
}

// Every reason a request accepts, its acknowledgement accepts too: the
// request checks by the rule the acknowledgement's checkpoint checks by.
func TestEveryAcceptedPivotCanBeAcknowledged(t *testing.T) {
	for _, reason := range []string{"tab\there", "two\nlines", "cr\r\nlf", "nel\u0085", "del\x7f", "bell\a",
		"line sep\u2028", "bad \xff utf-8", "  spaced  out  ", "zero\u200bwidth"} {
		e := setup(t)
		req, err := e.pivots.Request(ctx, e.worker, worker.Pivot{Reason: reason, NewTask: reason})
		if err != nil {
			assert.Contains(t, []taskdoc.Code{taskdoc.CodeControlCharacter, taskdoc.CodeInvalidUTF8}, taskdoc.CodeOf(err), "%q", reason)
			continue
		}
		ack, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.Checkpoint{Completed: []string{"a"}})
		require.NoError(t, err, "%q was accepted, so it is acknowledged", reason)
		assert.Equal(t, req.ID, ack.ID)
		cp, err := e.pivots.Workers().Get(ctx, e.worker, ack.Sequence)
		require.NoError(t, err)
		assert.Equal(t, req.Reason, cp.PivotReason, "%q", reason)
	}
}

// An ask whose checkpoint Save would refuse is refused before its request
// is written: no parent sees a question from a call that failed.
func TestAskAndAwaitChecksTheCheckpointFirst(t *testing.T) {
	for name, cp := range map[string]checkpoint.Checkpoint{
		"original task": {OriginalTask: "fix\x00it"},
		"task":          {Task: "not an address"},
		"heading":       {Notes: "## Completed"},
	} {
		e := clSetup(t)
		e.cl = e.cl.WithTimer(failTimer{t})
		_, _, err := e.cl.AskAndAwait(clCtx(t, 10*time.Second), "w1", supervision, cp, worker.PollOptions{})
		require.Error(t, err, name)
		assert.Empty(t, e.files(t), name)
		open, err := e.cl.Open(ctx)
		require.NoError(t, err)
		assert.Empty(t, open, name)
	}
}

// A wait that ends for another reason than the suspension (here the
// caller's context) removes the request the call wrote; one that an
// earlier call recorded stays.
func TestAskAndAwaitThatFailsWithdrawsItsRequest(t *testing.T) {
	e := clSetup(t)
	timer := &clTimer{started: make(chan struct{}, 1)}
	e.cl = e.cl.WithTimer(timer)
	c, cancel := context.WithCancel(clCtx(t, 10*time.Second))
	go func() { <-timer.started; cancel() }()
	_, _, err := e.cl.AskAndAwait(c, "w1", supervision, checkpoint.Checkpoint{Remaining: []string{"a"}}, worker.PollOptions{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, e.files(t))

	_, err = e.cl.Ask(ctx, "w1", supervision)
	require.NoError(t, err)
	c, cancel = context.WithCancel(clCtx(t, 10*time.Second))
	go func() { <-timer.started; cancel() }()
	_, _, err = e.cl.AskAndAwait(c, "w1", supervision, checkpoint.Checkpoint{Remaining: []string{"a"}}, worker.PollOptions{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"w1/clarifications/clarif_xyz789.json"}, e.files(t), "the earlier ask's request stays")
}

// The answer's resume_instructions carry checkpoint_path: the checkpoint
// the worker resumes from. One given is a worker checkpoint of the
// workspace, or the answer is refused before it is written.
func TestRespondCheckpointPath(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	_, err := e.cl.Ask(ctx, "w1", supervision)
	require.NoError(t, err)
	other := supervision
	other.ID = "cl_other"
	_, err = e.cl.Ask(ctx, "w1", other)
	require.NoError(t, err)
	_, err = e.cl.Workers().Save(ctx, checkpoint.Checkpoint{Worker: "w1", Status: checkpoint.StatusPartial, Phase: "working"})
	require.NoError(t, err)
	final := worker.Answer{ResumeSignal: true, Responses: []worker.Response{
		{QuestionID: "Q1", Answer: "One-for-one"}, {QuestionID: "Q2", Answer: "Yes"}}}
	file := "checkpoints/workers/w1/clarifications/clarif_xyz789.answer.json"

	for path, code := range map[string]taskdoc.Code{
		"checkpoints/workers/w1/000009.md":             taskdoc.CodeDocumentNotFound,
		"checkpoints/workers/w1/../../../etc/passwd":   taskdoc.CodeInvalidArguments,
		"/tmp/checkpoints/workers/w1/000001.md":        taskdoc.CodeInvalidArguments,
		"docs/shop.md":                                 taskdoc.CodeInvalidArguments,
		"checkpoints/workers/w1/clarifications/x.json": taskdoc.CodeInvalidArguments,
		"checkpoints/workers/w1/000001.md\x00":         taskdoc.CodeControlCharacter,
	} {
		a := final
		a.ResumeInstructions.CheckpointPath = path
		_, err := e.cl.Respond(ctx, "w1", "clarif_xyz789", a)
		assert.Equal(t, code, taskdoc.CodeOf(err), "%q", path)
		assert.NotContains(t, e.files(t), "w1/clarifications/clarif_xyz789.answer.json", "%q", path)
	}

	// No checkpoint waits for the request yet: none is named.
	got, err := e.cl.Respond(ctx, "w1", "clarif_xyz789", final)
	require.NoError(t, err)
	assert.Empty(t, got.ResumeInstructions.CheckpointPath)
	written := e.read(t, file)
	// The worker saves its checkpoint waiting for the request since: the
	// same answer again is still a retry, with the path it had.
	_, err = e.cl.Workers().Save(ctx, checkpoint.Checkpoint{Worker: "w1", Status: checkpoint.StatusBlocked,
		Phase: worker.PhaseWaitingClarification, Clarification: "clarif_xyz789"})
	require.NoError(t, err)
	again, err := e.cl.Respond(ctx, "w1", "clarif_xyz789", final)
	require.NoError(t, err)
	assert.Equal(t, got, again)
	assert.Equal(t, written, e.read(t, file))

	// The other request: its worker's current checkpoint waits for another
	// one, so none is named by default; one given is recorded.
	a := worker.Answer{ResumeSignal: true, Responses: final.Responses}
	got, err = e.cl.Respond(ctx, "w1", "cl_other", a)
	require.NoError(t, err)
	assert.Empty(t, got.ResumeInstructions.CheckpointPath)
	c2 := clSetup(t)
	_, err = c2.cl.Ask(ctx, "w1", other)
	require.NoError(t, err)
	_, err = c2.cl.Workers().Save(ctx, checkpoint.Checkpoint{Worker: "w1", Status: checkpoint.StatusPartial, Phase: "working"})
	require.NoError(t, err)
	a.ResumeInstructions.CheckpointPath = "checkpoints/workers/w1/000001.md"
	got, err = c2.cl.Respond(ctx, "w1", "cl_other", a)
	require.NoError(t, err)
	assert.Equal(t, "checkpoints/workers/w1/000001.md", got.ResumeInstructions.CheckpointPath)
	assert.Contains(t, c2.read(t, "checkpoints/workers/w1/clarifications/cl_other.answer.json"),
		`"checkpoint_path": "checkpoints/workers/w1/000001.md"`)
}

// An answer to a worker that suspended names the checkpoint it saved, as
// the resume protocol's response has it.
func TestRespondNamesTheSuspendedCheckpoint(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	_, _, err := e.cl.WithTimer(&clTimer{fire: true}).AskAndAwait(ctx, "w1", supervision,
		checkpoint.Checkpoint{Remaining: []string{"a"}}, worker.PollOptions{Duration: time.Second})
	require.ErrorIs(t, err, worker.ErrSuspended)
	got, err := e.cl.Respond(ctx, "w1", "clarif_xyz789", worker.Answer{ResumeSignal: true, Responses: []worker.Response{
		{QuestionID: "Q1", Answer: "One-for-one"}, {QuestionID: "Q2", Answer: "Yes"}}})
	require.NoError(t, err)
	assert.Equal(t, "checkpoints/workers/w1/000001.md", got.ResumeInstructions.CheckpointPath)
}

// An answer that races the withdrawal of its request (the asking call
// failed after the answer read the request) is refused, DOCUMENT_NOT_FOUND,
// and writes nothing: no answer lies beside no request, to answer at once
// a later ask that takes the same id for another question.
func TestRespondRacingTheWithdrawalOfItsRequest(t *testing.T) {
	e := clSetup(t)
	_, err := e.cl.Workers().Save(ctx, checkpoint.Checkpoint{Worker: "w1", Completed: []string{"an earlier step"}})
	require.NoError(t, err)
	timer := &clTimer{started: make(chan struct{}, 1)}
	e.cl = e.cl.WithTimer(timer)
	c, cancel := context.WithCancel(clCtx(t, 10*time.Second))
	asked := make(chan error, 1)
	var armed, fired atomic.Bool
	hooks.Read = func(name string) error {
		// Respond reads the worker's current checkpoint after the request
		// and before it writes: the asking call fails there.
		if name == "checkpoints/workers/w1/000001.md" && armed.Load() && fired.CompareAndSwap(false, true) {
			cancel()
			if err := <-asked; !errors.Is(err, context.Canceled) {
				t.Errorf("the ask ended with %v", err)
			}
		}
		return nil
	}
	defer func() { hooks.Read = func(string) error { return nil } }()
	go func() {
		_, _, err := e.cl.AskAndAwait(c, "w1", supervision, checkpoint.Checkpoint{Remaining: []string{"a"}}, worker.PollOptions{})
		asked <- err
	}()
	<-timer.started
	armed.Store(true)
	_, err = e.cl.Respond(ctx, "w1", supervision.ID, worker.Answer{ResumeSignal: true, Responses: []worker.Response{
		{QuestionID: "Q1", Answer: "One-for-one."}, {QuestionID: "Q2", Answer: "Yes."}}})
	require.True(t, fired.Load(), "the race did not happen")
	assert.Equal(t, taskdoc.CodeDocumentNotFound, taskdoc.CodeOf(err), "%v", err)
	assert.Equal(t, []string{"w1/000001.md"}, e.files(t), "no answer without its request")

	other := supervision
	other.Questions = []worker.Question{{Text: "Which log format?"}}
	_, err = e.cl.Ask(ctx, "w1", other)
	require.NoError(t, err)
	_, a, err := e.cl.Get(ctx, "w1", other.ID)
	require.NoError(t, err)
	assert.Nil(t, a, "another question taking the id is not answered")
}
