package worker_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
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
		ack, err := e.pivots.Acknowledge(ctx, e.worker, e.claim, checkpoint.WorkerCheckpoint{Completed: []string{"a"}})
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
	for name, cp := range map[string]checkpoint.WorkerCheckpoint{
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
	_, _, err := e.cl.AskAndAwait(c, "w1", supervision, checkpoint.WorkerCheckpoint{Remaining: []string{"a"}}, worker.PollOptions{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, e.files(t))

	_, err = e.cl.Ask(ctx, "w1", supervision)
	require.NoError(t, err)
	c, cancel = context.WithCancel(clCtx(t, 10*time.Second))
	go func() { <-timer.started; cancel() }()
	_, _, err = e.cl.AskAndAwait(c, "w1", supervision, checkpoint.WorkerCheckpoint{Remaining: []string{"a"}}, worker.PollOptions{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"w1/clarifications/clarif_xyz789.json"}, e.files(t), "the earlier ask's request stays")
}
