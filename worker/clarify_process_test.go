package worker_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

// TestClarifyChildResponds is the child process of
// TestClarifyAcrossProcesses: it answers after a short delay, through
// Respond, and prints when the write returned.
func TestClarifyChildResponds(t *testing.T) {
	root := os.Getenv("TASKMD_CLARIFY_CHILD_ROOT")
	if root == "" {
		t.Skip("run by TestClarifyAcrossProcesses")
	}
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	time.Sleep(300 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = worker.NewClarifications(ws).Respond(ctx, "w1", "clarif_xyz789", worker.Answer{
		Responses:    []worker.Response{{QuestionID: "Q1", Answer: "One-for-one"}, {QuestionID: "Q2", Answer: "Yes"}},
		ResumeSignal: true,
	})
	require.NoError(t, err)
	fmt.Printf("WROTE %d\n", time.Now().UnixNano())
}

// Another process writes the answer: the polling worker (Await, real
// timer) and the parent (WatchAnswers) both learn of it within a second of
// the write, through file notifications.
func TestClarifyAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	e := clSetup(t)
	ctx := clCtx(t, 20*time.Second)
	_, err := e.cl.Ask(ctx, "w1", supervision)
	require.NoError(t, err)

	type seen struct {
		at  time.Time
		err error
		ans worker.Answer
	}
	awaited, watched := make(chan seen, 1), make(chan seen, 1)
	go func() {
		a, err := e.cl.Await(ctx, "w1", "clarif_xyz789", checkpoint.Checkpoint{}, worker.PollOptions{Duration: 15 * time.Second, Interval: 15 * time.Second})
		awaited <- seen{time.Now(), err, a}
	}()
	go func() {
		var s seen
		s.err = e.cl.WatchAnswers(ctx, func(a worker.Answer) bool {
			s.at, s.ans = time.Now(), a
			return false
		})
		watched <- s
	}()
	time.Sleep(100 * time.Millisecond) // both are watching

	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestClarifyChildResponds$", "-test.v")
	cmd.Env = append(os.Environ(), "TASKMD_CLARIFY_CHILD_ROOT="+e.root)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var wrote time.Time
	for sc := bufio.NewScanner(strings.NewReader(string(out))); sc.Scan(); {
		if n, ok := strings.CutPrefix(sc.Text(), "WROTE "); ok {
			ns, err := strconv.ParseInt(n, 10, 64)
			require.NoError(t, err)
			wrote = time.Unix(0, ns)
		}
	}
	require.False(t, wrote.IsZero(), "%s", out)

	for name, ch := range map[string]chan seen{"Await": awaited, "WatchAnswers": watched} {
		select {
		case s := <-ch:
			require.NoError(t, s.err, name)
			assert.Equal(t, "One-for-one", s.ans.Responses[0].Answer, name)
			assert.Less(t, s.at.Sub(wrote), time.Second, name)
			t.Logf("%s learned of the answer %v after the child's write returned", name, s.at.Sub(wrote))
		case <-ctx.Done():
			t.Fatalf("%s never learned of the answer", name)
		}
	}
	assert.Equal(t, []string{"w1/clarifications/clarif_xyz789.answer.json", "w1/clarifications/clarif_xyz789.json"}, e.files(t), "no checkpoint")
}
