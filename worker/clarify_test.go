package worker_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// Ask records the protocol's fields in a JSON file beside the worker's
// checkpoints, numbering the questions the worker left unnamed.
func TestClarifyAskRecordsTheRequest(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	req, err := e.cl.Ask(ctx, "task_bg_a7e4d2", supervision)
	require.NoError(t, err)
	assert.Equal(t, `{
  "id": "clarif_xyz789",
  "agent_id": "task_bg_a7e4d2",
  "timestamp": "2026-01-18T10:15:23Z",
  "blocked_at": "Supervision pattern selection",
  "reason": "The session logs name two supervision patterns.",
  "questions": [
    {
      "question_id": "Q1",
      "text": "One-for-one or one-for-all supervision?"
    },
    {
      "question_id": "Q2",
      "text": "Should the watcher actor restart on file system errors?"
    }
  ],
  "checkpoint_info": {
    "brief_poll_duration": "60s",
    "agent_will_exit_after_poll": true,
    "resume_required": true
  },
  "work_continues": true,
  "parallel_work_available": [
    "File watching logic",
    "Test harness setup"
  ]
}
`, e.read(t, "checkpoints/workers/task_bg_a7e4d2/clarifications/clarif_xyz789.json"))
	assert.Equal(t, "Q2", req.Questions[1].ID)

	// A generated id is cl_ and 12 hex digits.
	n := supervision
	n.ID = ""
	r2, err := e.cl.Ask(ctx, "task_bg_a7e4d2", n)
	require.NoError(t, err)
	assert.Regexp(t, `^cl_[0-9a-f]{12}$`, r2.ID)

	// The same id with the same questions is a retry; other questions
	// are CONFLICT; neither writes.
	e.clock.add(time.Minute)
	again, err := e.cl.Ask(ctx, "task_bg_a7e4d2", supervision)
	require.NoError(t, err)
	assert.Equal(t, req, again)
	other := supervision
	other.Reason = "another reason"
	_, err = e.cl.Ask(ctx, "task_bg_a7e4d2", other)
	assert.ErrorIs(t, err, taskdoc.ErrConflict)
	assert.Contains(t, e.read(t, "checkpoints/workers/task_bg_a7e4d2/clarifications/clarif_xyz789.json"), `"timestamp": "2026-01-18T10:15:23Z"`)
}

// No answer during the brief poll: twelve waits of 5 s on the injected
// timer (no real sleep), then the checkpoint is saved and ErrSuspended
// tells the worker to exit.
func TestClarifyBriefPollThenSuspend(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	_, err := e.cl.Ask(ctx, "w1", supervision)
	require.NoError(t, err)
	timer := &clTimer{fire: true}
	e.clock.add(60 * time.Second)
	_, err = e.cl.WithTimer(timer).Await(ctx, "w1", "clarif_xyz789", checkpoint.Checkpoint{
		Task:      "/api/watcher.md#supervision",
		Completed: []string{"Read session logs"},
		Blocked:   []string{"Supervision pattern selection (needs Q1 answer)"},
	}, worker.PollOptions{})
	require.ErrorIs(t, err, worker.ErrSuspended)
	assert.Equal(t, worker.CodeSuspended, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "checkpoints/workers/w1/000001.md; exit now")
	s := 5 * time.Second
	assert.Equal(t, []time.Duration{s, s, s, s, s, s, s, s, s, s, s, s}, timer.waits())

	cp, err := e.cl.Workers().Get(ctx, "w1", 0)
	require.NoError(t, err)
	assert.Equal(t, 1, cp.Sequence)
	assert.Equal(t, "waiting_clarification", cp.Phase)
	assert.Equal(t, checkpoint.StatusBlocked, cp.Status)
	assert.Equal(t, "clarif_xyz789", cp.Clarification)
	assert.Equal(t, []string{"Read session logs"}, cp.Completed)

	req, ans, err := e.cl.Get(ctx, "w1", "clarif_xyz789")
	require.NoError(t, err)
	assert.Nil(t, ans)
	assert.Equal(t, "checkpoints/workers/w1/000001.md", req.CheckpointInfo.CheckpointPath)
	assert.Equal(t, time.Date(2026, 1, 18, 10, 16, 23, 0, time.UTC), req.Suspended)

	// Other durations: the last wait is what is left; the request's
	// recorded duration is the default one.
	timer = &clTimer{fire: true}
	_, err = e.cl.WithTimer(timer).Await(ctx, "w1", "clarif_xyz789", checkpoint.Checkpoint{}, worker.PollOptions{Duration: 12 * time.Second})
	require.ErrorIs(t, err, worker.ErrSuspended)
	assert.Equal(t, []time.Duration{s, s, 2 * time.Second}, timer.waits())
	n := supervision
	n.ID, n.PollDuration = "short", 1500*time.Millisecond
	_, err = e.cl.Ask(ctx, "w1", n)
	require.NoError(t, err)
	timer = &clTimer{fire: true}
	_, err = e.cl.WithTimer(timer).Await(ctx, "w1", "short", checkpoint.Checkpoint{}, worker.PollOptions{Interval: time.Second})
	require.ErrorIs(t, err, worker.ErrSuspended)
	assert.Equal(t, []time.Duration{time.Second, 500 * time.Millisecond}, timer.waits())
	assert.Contains(t, e.read(t, "checkpoints/workers/w1/clarifications/short.json"), `"brief_poll_duration": "1.5s"`)
}

// An answer written while the worker polls wakes it at once (the timer
// never fires): it gets the answers and no checkpoint is written.
func TestClarifyAnswerDuringPoll(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	_, err := e.cl.Ask(ctx, "w1", supervision)
	require.NoError(t, err)
	timer := &clTimer{started: make(chan struct{}, 1)}
	go func() {
		select {
		case <-timer.started:
		case <-ctx.Done():
			return
		}
		_, err := e.cl.Respond(ctx, "w1", "clarif_xyz789", worker.Answer{
			Responses: []worker.Response{
				{QuestionID: "Q2", Answer: "Yes, with backoff"},
				{QuestionID: "Q1", Answer: "One-for-one"},
			},
			ResumeSignal: true,
		})
		assert.NoError(t, err)
	}()
	got, err := e.cl.WithTimer(timer).Await(ctx, "w1", "clarif_xyz789", checkpoint.Checkpoint{}, worker.PollOptions{})
	require.NoError(t, err)
	assert.Equal(t, []worker.Response{{QuestionID: "Q1", Answer: "One-for-one"}, {QuestionID: "Q2", Answer: "Yes, with backoff"}}, got.Responses)
	assert.True(t, got.ResumeSignal)
	assert.Equal(t, "checkpoint", got.ResumeMethod)
	assert.Equal(t, []time.Duration{5 * time.Second}, timer.waits(), "woken during the first wait")
	assert.Equal(t, []string{"w1/clarifications/clarif_xyz789.answer.json", "w1/clarifications/clarif_xyz789.json"}, e.files(t),
		"no checkpoint")
	req, _, err := e.cl.Get(ctx, "w1", "clarif_xyz789")
	require.NoError(t, err)
	assert.True(t, req.Suspended.IsZero())

	// An answer there already returns before any wait.
	_, err = e.cl.WithTimer(failTimer{t}).Await(ctx, "w1", "clarif_xyz789", checkpoint.Checkpoint{}, worker.PollOptions{})
	require.NoError(t, err)
}

// A draft (no resume signal) does not wake the worker and may be
// replaced; a final answer is final: the same again writes nothing, another
// is CONFLICT.
func TestClarifyRespondRetryAndConflict(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	_, err := e.cl.Ask(ctx, "w1", supervision)
	require.NoError(t, err)
	file := "checkpoints/workers/w1/clarifications/clarif_xyz789.answer.json"

	draft, err := e.cl.Respond(ctx, "w1", "clarif_xyz789", worker.Answer{Responses: []worker.Response{{QuestionID: "Q1", Answer: "One-for-one"}}})
	require.NoError(t, err)
	assert.False(t, draft.ResumeSignal)
	timer := &clTimer{fire: true}
	_, err = e.cl.WithTimer(timer).Await(ctx, "w1", "clarif_xyz789", checkpoint.Checkpoint{}, worker.PollOptions{Duration: time.Second})
	require.ErrorIs(t, err, worker.ErrSuspended, "a draft does not wake the worker")
	open, err := e.cl.Open(ctx)
	require.NoError(t, err)
	require.Len(t, open, 1, "a request with a draft is open")

	e.clock.add(time.Minute)
	final := worker.Answer{
		Responses: []worker.Response{
			{QuestionID: "Q1", Answer: "One-for-one"},
			{QuestionID: "Q2", Answer: "Yes"},
		},
		ResumeSignal:       true,
		ResumeInstructions: worker.ResumeInstructions{UseTaskResume: true},
	}
	first, err := e.cl.Respond(ctx, "w1", "clarif_xyz789", final)
	require.NoError(t, err)
	assert.Equal(t, time.Date(2026, 1, 18, 10, 16, 23, 0, time.UTC), first.Timestamp)
	written := e.read(t, file)
	assert.Equal(t, `{
  "request_id": "clarif_xyz789",
  "agent_id": "w1",
  "timestamp": "2026-01-18T10:16:23Z",
  "responses": [
    {
      "question_id": "Q1",
      "answer": "One-for-one"
    },
    {
      "question_id": "Q2",
      "answer": "Yes"
    }
  ],
  "resume_signal": true,
  "resume_method": "checkpoint",
  "resume_instructions": {
    "checkpoint_path": "checkpoints/workers/w1/000001.md",
    "use_task_resume": true,
    "resume_prompt_includes": "clarification_responses"
  }
}
`, written, "the checkpoint the worker saved waiting for the answer")

	e.clock.add(time.Minute)
	again, err := e.cl.Respond(ctx, "w1", "clarif_xyz789", final)
	require.NoError(t, err)
	assert.Equal(t, first, again)
	assert.Equal(t, written, e.read(t, file))

	other := final
	other.Responses = []worker.Response{{QuestionID: "Q1", Answer: "One-for-all"}, {QuestionID: "Q2", Answer: "Yes"}}
	_, err = e.cl.Respond(ctx, "w1", "clarif_xyz789", other)
	assert.ErrorIs(t, err, taskdoc.ErrConflict)
	other = final
	other.ResumeSignal = false
	_, err = e.cl.Respond(ctx, "w1", "clarif_xyz789", other)
	assert.ErrorIs(t, err, taskdoc.ErrConflict, "a final answer is not taken back")
	assert.Equal(t, written, e.read(t, file))
}

// Bad input is a typed error and writes nothing.
func TestClarifyBadInput(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	q := []worker.Question{{Text: "Which?"}}
	for name, c := range map[string]struct {
		worker string
		n      worker.Needed
		want   taskdoc.Code
	}{
		"bad worker":        {"W1", worker.Needed{Questions: q}, taskdoc.CodeInvalidArguments},
		"no worker":         {"", worker.Needed{Questions: q}, taskdoc.CodeInvalidArguments},
		"bad id":            {"w1", worker.Needed{ID: "Cl.1", Questions: q}, taskdoc.CodeInvalidArguments},
		"id with a dot":     {"w1", worker.Needed{ID: "x.answer", Questions: q}, taskdoc.CodeInvalidArguments},
		"no questions":      {"w1", worker.Needed{}, taskdoc.CodeInvalidArguments},
		"empty question":    {"w1", worker.Needed{Questions: []worker.Question{{Text: " \n "}}}, taskdoc.CodeInvalidArguments},
		"twice the same id": {"w1", worker.Needed{Questions: []worker.Question{{Text: "a"}, {ID: "Q1", Text: "b"}}}, taskdoc.CodeInvalidArguments},
		"control character": {"w1", worker.Needed{Reason: "a\x00b", Questions: q}, taskdoc.CodeControlCharacter},
		"not UTF-8":         {"w1", worker.Needed{BlockedAt: "\xff", Questions: q}, taskdoc.CodeInvalidUTF8},
		"empty parallel":    {"w1", worker.Needed{Questions: q, ParallelWork: []string{""}}, taskdoc.CodeInvalidArguments},
		"negative poll":     {"w1", worker.Needed{Questions: q, PollDuration: -time.Second}, taskdoc.CodeInvalidArguments},
	} {
		_, err := e.cl.Ask(ctx, c.worker, c.n)
		assert.Equal(t, c.want, taskdoc.CodeOf(err), "%s: %v", name, err)
	}
	assert.Empty(t, e.files(t))

	_, err := e.cl.Ask(ctx, "w1", supervision)
	require.NoError(t, err)
	both := func(a, b string) []worker.Response {
		return []worker.Response{{QuestionID: "Q1", Answer: a}, {QuestionID: "Q2", Answer: b}}
	}
	for name, c := range map[string]struct {
		worker, id string
		a          worker.Answer
		want       taskdoc.Code
	}{
		"unknown request":   {"w1", "nope", worker.Answer{}, taskdoc.CodeDocumentNotFound},
		"unknown worker":    {"w2", "clarif_xyz789", worker.Answer{}, taskdoc.CodeDocumentNotFound},
		"bad worker":        {"../w1", "clarif_xyz789", worker.Answer{}, taskdoc.CodeInvalidArguments},
		"bad id":            {"w1", "../x", worker.Answer{}, taskdoc.CodeInvalidArguments},
		"unknown question":  {"w1", "clarif_xyz789", worker.Answer{Responses: []worker.Response{{QuestionID: "Q3", Answer: "x"}}}, taskdoc.CodeInvalidArguments},
		"answered twice":    {"w1", "clarif_xyz789", worker.Answer{Responses: []worker.Response{{QuestionID: "Q1", Answer: "x"}, {QuestionID: "Q1", Answer: "y"}}}, taskdoc.CodeInvalidArguments},
		"empty answer":      {"w1", "clarif_xyz789", worker.Answer{Responses: both("x", " ")}, taskdoc.CodeInvalidArguments},
		"final but partial": {"w1", "clarif_xyz789", worker.Answer{Responses: both("x", "y")[:1], ResumeSignal: true}, taskdoc.CodeInvalidArguments},
		"control character": {"w1", "clarif_xyz789", worker.Answer{Responses: both("x", "y\x1b"), ResumeSignal: true}, taskdoc.CodeControlCharacter},
		"method not UTF-8":  {"w1", "clarif_xyz789", worker.Answer{Responses: both("x", "y"), ResumeMethod: "\xfe"}, taskdoc.CodeInvalidUTF8},
	} {
		_, err := e.cl.Respond(ctx, c.worker, c.id, c.a)
		assert.Equal(t, c.want, taskdoc.CodeOf(err), "%s: %v", name, err)
	}
	assert.Equal(t, []string{"w1/clarifications/clarif_xyz789.json"}, e.files(t))

	// Await checks its input before it waits.
	awaitBad := map[string]struct {
		cp   checkpoint.Checkpoint
		po   worker.PollOptions
		id   string
		want taskdoc.Code
	}{
		"bad checkpoint":    {checkpoint.Checkpoint{Completed: []string{"a\x07"}}, worker.PollOptions{}, "clarif_xyz789", taskdoc.CodeControlCharacter},
		"bad task":          {checkpoint.Checkpoint{Task: "not an address"}, worker.PollOptions{}, "clarif_xyz789", taskdoc.CodeInvalidArguments},
		"negative interval": {checkpoint.Checkpoint{}, worker.PollOptions{Interval: -1}, "clarif_xyz789", taskdoc.CodeInvalidArguments},
		"unknown request":   {checkpoint.Checkpoint{}, worker.PollOptions{}, "nope", taskdoc.CodeDocumentNotFound},
	}
	for name, c := range awaitBad {
		_, err := e.cl.WithTimer(failTimer{t}).Await(ctx, "w1", c.id, c.cp, c.po)
		assert.Equal(t, c.want, taskdoc.CodeOf(err), "%s: %v", name, err)
		assert.False(t, errors.Is(err, worker.ErrSuspended))
	}
	assert.Equal(t, []string{"w1/clarifications/clarif_xyz789.json"}, e.files(t))
}

// The parent's lists: Open holds the requests without a final answer,
// oldest first; Answered the suspended workers whose answers arrived.
func TestClarifyOpenAndAnswered(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	ask := func(w, id string) {
		n := supervision
		n.ID = id
		_, err := e.cl.Ask(ctx, w, n)
		require.NoError(t, err)
		e.clock.add(time.Second)
	}
	ask("w2", "b")
	ask("w1", "c")
	ask("w2", "a")
	ids := func() []string {
		open, err := e.cl.Open(ctx)
		require.NoError(t, err)
		var out []string
		for _, r := range open {
			out = append(out, r.AgentID+"/"+r.ID)
		}
		return out
	}
	assert.Equal(t, []string{"w2/b", "w1/c", "w2/a"}, ids())

	final := worker.Answer{Responses: []worker.Response{{QuestionID: "Q1", Answer: "x"}, {QuestionID: "Q2", Answer: "y"}}, ResumeSignal: true}
	// w1 suspends; w2 gets its answer to b while it polls.
	_, err := e.cl.WithTimer(&clTimer{fire: true}).Await(ctx, "w1", "c", checkpoint.Checkpoint{}, worker.PollOptions{Duration: time.Second})
	require.ErrorIs(t, err, worker.ErrSuspended)
	_, err = e.cl.Respond(ctx, "w2", "b", final)
	require.NoError(t, err)
	_, err = e.cl.Workers().Save(ctx, checkpoint.Checkpoint{Worker: "w2", Phase: "working"})
	require.NoError(t, err)
	assert.Equal(t, []string{"w1/c", "w2/a"}, ids())
	answered, err := e.cl.Answered(ctx)
	require.NoError(t, err)
	assert.Empty(t, answered, "w1 has no answer yet; w2 is not suspended")

	_, err = e.cl.Respond(ctx, "w1", "c", final)
	require.NoError(t, err)
	answered, err = e.cl.Answered(ctx)
	require.NoError(t, err)
	require.Len(t, answered, 1)
	assert.Equal(t, "w1", answered[0].Worker)
	assert.Equal(t, "c", answered[0].Clarification.ID)
	assert.Equal(t, 1, answered[0].Checkpoint.Sequence)
	assert.Equal(t, "x", answered[0].Answer.Responses[0].Answer)
	assert.Equal(t, []string{"w2/a"}, ids())

	// The resumed worker's next checkpoint takes it off the list.
	_, err = e.cl.Workers().Save(ctx, checkpoint.Checkpoint{Worker: "w1", Phase: "working"})
	require.NoError(t, err)
	answered, err = e.cl.Answered(ctx)
	require.NoError(t, err)
	assert.Empty(t, answered)
}
