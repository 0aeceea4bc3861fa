package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// running is the binary started in the background.
type running struct {
	cmd         *exec.Cmd
	out, errOut bytes.Buffer
	done        chan struct{}
}

// startTaskmd starts the binary in root, as taskmd runs it, without
// waiting for it.
func startTaskmd(t *testing.T, root string, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	r := &running{done: make(chan struct{})}
	r.cmd = exec.CommandContext(ctx, binary, append([]string{"-C", root}, args...)...)
	r.cmd.Env = append(os.Environ(), nowVar+"="+testNow)
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.errOut
	require.NoError(t, r.cmd.Start())
	go func() { r.cmd.Wait(); cancel(); close(r.done) }()
	t.Cleanup(func() { cancel(); <-r.done })
	return r
}

// wait waits for the process and returns its result.
func (r *running) wait(t *testing.T) result {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(60 * time.Second):
		t.Fatal("taskmd did not end")
	}
	return result{r.out.String(), r.errOut.String(), r.cmd.ProcessState.ExitCode()}
}

// until runs the command every 20ms until its stdout contains want.
func until(t *testing.T, root, want string, args ...string) result {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := taskmd(t, root, "", args...)
		if strings.Contains(r.stdout, want) {
			return r
		}
		require.True(t, time.Now().Before(deadline), "no %q in taskmd %v: %s%s", want, args, r.stdout, r.stderr)
		time.Sleep(20 * time.Millisecond)
	}
}

// holding registers worker w1 and has it hold the task at work.
func holding(t *testing.T, root, task string) {
	t.Helper()
	for _, args := range [][]string{
		{"agent", "register", "--id", "w1", "--name", "worker-1", "--runtime", "cli"},
		{"claim", task, "--agent", "w1"},
		{"status", task, "in_progress", "--agent", "w1", "--token", "1"},
	} {
		r := taskmd(t, root, "", args...)
		require.Equal(t, 0, r.exit, "%v: %s", args, r.stderr)
	}
}

// A worker run from the command line acknowledges the pivot an
// orchestrator asks of it in another process: the orchestrator's
// pivot --wait ends acknowledged, with the checkpoint, instead of NO_ACK.
func TestCLIWorkerAcknowledgesPivot(t *testing.T) {
	root := newWorkspace(t)
	holding(t, root, "/api/auth.md#setup-oauth")
	require.Equal(t, 0, taskmd(t, root, "", "create", "/api/auth.md", "--title", "Rotate keys").exit)
	orchestrator := startTaskmd(t, root, "pivot", "--worker", "w1", "--task", "/api/auth.md#setup-oauth",
		"--reason", "login is broken", "--new-task", "/api/auth.md#rotate-keys", "--wait", "--timeout", "30s")

	// The worker learns of the pivot from its heartbeat, then acknowledges
	// with its checkpoint on stdin, in the Markdown checkpoint show prints.
	hb := until(t, root, "pivot requested", "agent", "heartbeat", "w1")
	assert.Contains(t, hb.stdout, "taskmd pivot acknowledge --worker w1")
	cp := "## Completed\n\n- [x] Installed the provider\n\n## Remaining\n\n- [ ] Callback route\n\n## Files Changed\n\n- `auth.go` (modified)\n"
	ack := taskmd(t, root, cp, "pivot", "acknowledge", "--worker", "w1", "--token", "1", "--checkpoint-file", "-")
	require.Equal(t, 0, ack.exit, ack.stderr)
	assert.Contains(t, ack.stdout, "checkpoint: checkpoints/workers/w1/000001.md\n")
	assert.Contains(t, ack.stdout, "claimed /api/auth.md#rotate-keys token ")

	got := orchestrator.wait(t)
	require.Equal(t, 0, got.exit, got.stderr)
	assert.Contains(t, got.stdout, "acknowledged")
	assert.Contains(t, got.stdout, "checkpoint: checkpoints/workers/w1/000001.md")

	doc, err := os.ReadFile(filepath.Join(root, "docs", "api", "auth.md"))
	require.NoError(t, err)
	assert.Contains(t, string(doc), "### Setup OAuth\n\n- Status: paused\n- Workflow: tdd\n- Checkpoint: checkpoints/workers/w1/000001.md\n")
	saved := taskmd(t, root, "", "checkpoint", "show", "--worker", "w1")
	require.Equal(t, 0, saved.exit, saved.stderr)
	assert.Contains(t, saved.stdout, "- [x] Installed the provider")
	assert.Contains(t, saved.stdout, "`auth.go` (modified)")
	assert.Contains(t, saved.stdout, "pivot_reason: \"login is broken\"")

	// Acknowledging again is a retry: the same answer, nothing written.
	before := files(t, root)
	again := taskmd(t, root, cp, "pivot", "acknowledge", "--worker", "w1", "--token", "1", "--checkpoint-file", "-")
	require.Equal(t, 0, again.exit, again.stderr)
	assert.Equal(t, ack.stdout, again.stdout)
	assert.Equal(t, before, files(t, root))
}

// A worker that completes its task as a pivot arrives acknowledges it
// after: the orchestrator's pivot --wait ends acknowledged, the task stays
// completed and the worker holds the new task (it was told, on every
// heartbeat, to acknowledge a pivot it could not).
func TestCLIWorkerAcknowledgesAfterCompleting(t *testing.T) {
	root := newWorkspace(t)
	holding(t, root, "/api/auth.md#setup-oauth")
	require.Equal(t, 0, taskmd(t, root, "", "agent", "heartbeat", "w1", "--task", "/api/auth.md#setup-oauth").exit)
	orchestrator := startTaskmd(t, root, "pivot", "--worker", "w1", "--reason", "login is broken",
		"--new-task", "/api/auth.md#sign-tokens", "--wait", "--timeout", "30s")
	until(t, root, "pivot requested", "agent", "heartbeat", "w1")
	done := taskmd(t, root, "", "complete", "/api/auth.md#setup-oauth", "--note", "provider installed", "--agent", "w1", "--token", "1")
	require.Equal(t, 0, done.exit, done.stderr)
	ack := taskmd(t, root, "", "pivot", "acknowledge", "--worker", "w1", "--token", "1", "--completed", "provider installed")
	require.Equal(t, 0, ack.exit, ack.stderr)
	assert.Contains(t, ack.stdout, "claimed /api/auth.md#sign-tokens token ")

	got := orchestrator.wait(t)
	require.Equal(t, 0, got.exit, got.stderr)
	assert.Contains(t, got.stdout, "acknowledged")
	hb := taskmd(t, root, "", "agent", "heartbeat", "w1")
	assert.NotContains(t, hb.stdout, "pivot requested")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "api", "auth.md"))
	require.NoError(t, err)
	assert.Contains(t, string(doc), "### Setup OAuth\n\n- Status: completed\n")
	assert.Contains(t, string(doc), "### Sign tokens\n\n- Status: pending\n- Depends-On: #setup-oauth\n- Assignee: w1\n")
	assert.Equal(t, 0, taskmd(t, root, "", "check").exit)
}

// A worker that asks and gets no answer within the brief poll saves its
// checkpoint and exits 6; a person answers with taskmd answer, and the
// worker resumes from resume-brief --worker, which shows the answer.
func TestCLIWorkerSuspendsAndResumes(t *testing.T) {
	root := newWorkspace(t)
	holding(t, root, "/api/auth.md#setup-oauth")
	ask := taskmd(t, root, "", "ask", "--worker", "w1", "--id", "db", "--task", "/api/auth.md#setup-oauth",
		"--blocked-at", "choosing a store", "--wait", "200ms", "--completed", "schema drafted", "--remaining", "migrations",
		"Postgres or SQLite?")
	require.Equal(t, exitSuspended, ask.exit, ask.stderr)
	assert.True(t, strings.HasPrefix(ask.stderr, "taskmd: SUSPENDED: "), ask.stderr)
	assert.Contains(t, ask.stdout, "checkpoint checkpoints/workers/w1/000001.md")
	assert.Contains(t, ask.stdout, "taskmd resume-brief --worker w1")

	// Nothing to resume from before the answer.
	early := taskmd(t, root, "", "resume-brief", "--worker", "w1")
	assert.Equal(t, exitInvalid, early.exit, early.stderr)

	q := taskmd(t, root, "", "questions")
	assert.Contains(t, q.stdout, "w1 db blocked at choosing a store\n  Q1: Postgres or SQLite?\n")
	ans := taskmd(t, root, "", "answer", "--worker", "w1", "--id", "db", "Postgres")
	require.Equal(t, 0, ans.exit, ans.stderr)

	res := taskmd(t, root, "", "resume-brief", "--worker", "w1")
	require.Equal(t, 0, res.exit, res.stderr)
	assert.Contains(t, res.stdout, "Postgres or SQLite?\n\nPostgres\n")
	assert.Contains(t, res.stdout, "- [x] schema drafted")
	assert.Contains(t, res.stdout, "migrations")

	js := taskmd(t, root, "", "--json", "resume-brief", "--worker", "w1")
	require.Equal(t, 0, js.exit, js.stderr)
	var v struct {
		Worker string `json:"worker_id"`
		Prompt string `json:"resume_prompt"`
	}
	require.NoError(t, json.Unmarshal([]byte(js.stdout), &v))
	assert.Equal(t, "w1", v.Worker)
	assert.Equal(t, res.stdout, v.Prompt)
}

// An answer that comes during the brief poll, from another process, ends
// ask at once with the answer: no checkpoint is saved.
func TestCLIWorkerGetsAnswerWhileWaiting(t *testing.T) {
	root := newWorkspace(t)
	holding(t, root, "/api/auth.md#setup-oauth")
	ask := startTaskmd(t, root, "--json", "ask", "--worker", "w1", "--id", "db", "--wait", "30s",
		"--completed", "schema drafted", "Postgres or SQLite?")
	until(t, root, "w1 db", "questions")
	ans := taskmd(t, root, "", "answer", "--worker", "w1", "--id", "db", "--instructions", "Use pgx.", "Postgres")
	require.Equal(t, 0, ans.exit, ans.stderr)

	got := ask.wait(t)
	require.Equal(t, 0, got.exit, got.stderr)
	var v struct {
		Status string `json:"status"`
		Answer struct {
			Responses []struct {
				QuestionID string `json:"question_id"`
				Answer     string `json:"answer"`
			} `json:"responses"`
		} `json:"answer"`
	}
	require.NoError(t, json.Unmarshal([]byte(got.stdout), &v), got.stdout)
	assert.Equal(t, "answered", v.Status)
	require.Len(t, v.Answer.Responses, 1)
	assert.Equal(t, "Postgres", v.Answer.Responses[0].Answer)
	_, err := os.Stat(filepath.Join(root, "checkpoints", "workers", "w1", "000001.md"))
	assert.True(t, os.IsNotExist(err), "a checkpoint was saved although the answer came in time")
}

// Refusals of the worker's commands are decided before anything is
// written: each exits with its status and changes no file.
func TestCLIWorkerRefusals(t *testing.T) {
	root := newWorkspace(t)
	holding(t, root, "/api/auth.md#setup-oauth")
	require.Equal(t, 0, taskmd(t, root, "", "pivot", "--worker", "w1", "--task", "/api/auth.md#setup-oauth", "--reason", "stop").exit)
	other := filepath.Join(t.TempDir(), "other.md")
	require.NoError(t, os.WriteFile(other, []byte("---\nworker: \"w2\"\n---\n\n## Completed\n\n- a\n"), 0o644))
	noSection := filepath.Join(t.TempDir(), "empty.md")
	require.NoError(t, os.WriteFile(noSection, []byte("Installed the provider.\n"), 0o644))
	badJSON := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(badJSON, []byte(`{"workState": {"completed": "a"}}`), 0o644))
	cases := []struct {
		name string
		args []string
		exit int
		code string
	}{
		{"acknowledge without a worker", []string{"pivot", "acknowledge", "--completed", "a"}, exitUsage, "USAGE"},
		{"acknowledge without a checkpoint", []string{"pivot", "acknowledge", "--worker", "w1", "--token", "1"}, exitInvalid, "INVALID_ARGUMENTS"},
		{"file and flags", []string{"pivot", "acknowledge", "--worker", "w1", "--checkpoint-file", other, "--completed", "a"}, exitUsage, "USAGE"},
		{"another worker's checkpoint", []string{"pivot", "acknowledge", "--worker", "w1", "--token", "1", "--checkpoint-file", other}, exitInvalid, "INVALID_ARGUMENTS"},
		{"a file without sections", []string{"pivot", "acknowledge", "--worker", "w1", "--token", "1", "--checkpoint-file", noSection}, exitInvalid, "INVALID_ARGUMENTS"},
		{"JSON of the wrong shape", []string{"pivot", "acknowledge", "--worker", "w1", "--token", "1", "--checkpoint-file", badJSON}, exitInvalid, "PARSE_ERROR"},
		{"no such file", []string{"pivot", "acknowledge", "--worker", "w1", "--checkpoint-file", filepath.Join(root, "nope.md")}, exitInvalid, "INVALID_ARGUMENTS"},
		{"no pivot asked", []string{"pivot", "acknowledge", "--worker", "w9", "--completed", "a"}, exitInvalid, "INVALID_ARGUMENTS"},
		{"acknowledge without a token", []string{"pivot", "acknowledge", "--worker", "w1", "--completed", "a"}, exitConflict, "STALE_CLAIM"},
		{"acknowledge with a wrong token", []string{"pivot", "acknowledge", "--worker", "w1", "--token", "2", "--completed", "a"}, exitConflict, "STALE_CLAIM"},
		{"pivot to a task that does not exist", []string{"pivot", "--worker", "w1", "--reason", "go", "--new-task", "/api/auth.md#nope"}, exitNotFound, "TASK_NOT_FOUND"},
		{"hard pivot to a plan that does not exist", []string{"pivot", "--worker", "w1", "--mode", "hard", "--reason", "go", "--new-task", "/api/nope.md#x"}, exitNotFound, "DOCUMENT_NOT_FOUND"},
		{"ask without a question", []string{"ask", "--worker", "w1", "--completed", "a"}, exitUsage, "USAGE"},
		{"ask without a checkpoint", []string{"ask", "--worker", "w1", "Which?"}, exitInvalid, "INVALID_ARGUMENTS"},
		{"ask with a negative wait", []string{"ask", "--worker", "w1", "--wait", "-1s", "--completed", "a", "Which?"}, exitInvalid, "INVALID_ARGUMENTS"},
		{"ask with a bad task", []string{"ask", "--worker", "w1", "--task", "/api/auth.txt", "--wait", "1s", "--completed", "a", "Which?"}, exitInvalid, "INVALID_ARGUMENTS"},
		{"ask with a bad id", []string{"ask", "--worker", "w1", "--id", "Not An Id", "--wait", "1s", "--completed", "a", "Which?"}, exitInvalid, "INVALID_ARGUMENTS"},
		{"resume-brief of a worker that never asked", []string{"resume-brief", "--worker", "w1"}, exitNotFound, "DOCUMENT_NOT_FOUND"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := files(t, root)
			r := taskmd(t, root, "", c.args...)
			assert.Equal(t, c.exit, r.exit, r.stderr)
			assert.True(t, strings.HasPrefix(r.stderr, "taskmd: "+c.code+": "), r.stderr)
			assert.Equal(t, before, files(t, root), "a refused command changed a file")
		})
	}
}
