package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandLines are the command lines of an instructions text, in order:
// its indented lines that start with "taskmd ".
func commandLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "    taskmd ") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

var placeholder = regexp.MustCompile(`\b(ID|ADDRESS|DOC|N|REQUEST)\b`)

// shell runs line through bash in root, as an agent pasting it would,
// with the built binary first on PATH and the placeholders filled from
// vars, and returns its result.
func shell(t *testing.T, root, line string, vars map[string]string, extra ...string) result {
	t.Helper()
	code, _, _ := strings.Cut(line, " #") // the comment is for the reader
	code = placeholder.ReplaceAllStringFunc(code, func(p string) string {
		v, ok := vars[p]
		require.True(t, ok, "no value for %s in %q", p, line)
		return v
	})
	line = strings.Join(append([]string{code}, extra...), " ")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", line)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"), nowVar+"="+testNow)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	exit := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		require.True(t, ok, "running %q: %v", line, err)
		exit = ee.ExitCode()
	}
	return result{out.String(), errOut.String(), exit}
}

var tokenOf = regexp.MustCompile(`claimed (\S+) token (\d+)`)

// The texts are short, and every taskmd command they name is one the
// tool has.
func TestInstructionsText(t *testing.T) {
	for _, role := range roles() {
		text, err := instructions(role)
		require.NoError(t, err)
		assert.Less(t, len(text), 2048, "the %s text grew over 2 KB", role)
		for _, m := range regexp.MustCompile(`taskmd ([a-z-]+)`).FindAllStringSubmatch(text, -1) {
			_, ok := commands[m[1]]
			assert.True(t, ok, "the %s text names taskmd %s, which is no command", role, m[1])
		}
		r := taskmd(t, t.TempDir(), "", "instructions", "--role", role)
		require.Equal(t, 0, r.exit, r.stderr)
		assert.Equal(t, text, r.stdout)
	}
	def := taskmd(t, t.TempDir(), "", "instructions")
	assert.Equal(t, roleInstructions["worker"], def.stdout)
	bad := taskmd(t, t.TempDir(), "", "instructions", "--role", "boss")
	assert.Equal(t, exitInvalid, bad.exit)
	assert.Contains(t, bad.stderr, "INVALID_ARGUMENTS: role \"boss\": give --role orchestrator or --role worker")
}

// Every command of the worker's text runs, in its order, against a real
// workspace: a task done from claim to complete, a pivot acknowledged
// and a question that suspends the worker and is answered.
func TestWorkerInstructionsRun(t *testing.T) {
	root := newWorkspace(t)
	require.Equal(t, 0, taskmd(t, root, "", "create", "/api/auth.md", "--title", "Rotate keys").exit)
	vars := map[string]string{"ID": "w1", "DOC": "/api/auth.md", "ADDRESS": "/api/auth.md#setup-oauth"}
	lines := commandLines(roleInstructions["worker"])
	require.Len(t, lines, 11, "the test walks through each line below: update it with the text")
	run := func(i int, exit int, extra ...string) result {
		t.Helper()
		r := shell(t, root, lines[i], vars, extra...)
		require.Equal(t, exit, r.exit, "%s\n%s%s", lines[i], r.stdout, r.stderr)
		if m := tokenOf.FindStringSubmatch(r.stdout); m != nil {
			vars["ADDRESS"], vars["N"] = m[1], m[2]
		}
		return r
	}
	for i := range 8 { // register ... complete
		run(i, 0)
	}
	done, err := os.ReadFile(filepath.Join(root, "docs", "api", "auth.md"))
	require.NoError(t, err)
	assert.Contains(t, string(done), "### Setup OAuth\n\n- Status: completed")

	// The next task, then an orchestrator's pivot to another one.
	vars["ADDRESS"] = "/api/auth.md#sign-tokens"
	run(2, 0)
	run(4, 0)
	run(6, 0) // the heartbeat names the task a pivot takes the worker from
	require.Equal(t, 0, taskmd(t, root, "", "pivot", "--worker", "w1", "--reason", "keys first", "--new-task", "/api/auth.md#rotate-keys").exit)
	assert.Contains(t, run(6, 0).stdout, "pivot requested")
	ack := run(8, 0)
	assert.Contains(t, ack.stdout, "claimed /api/auth.md#rotate-keys token")
	assert.Equal(t, "/api/auth.md#rotate-keys", vars["ADDRESS"])
	paused, err := os.ReadFile(filepath.Join(root, "docs", "api", "auth.md"))
	require.NoError(t, err)
	assert.Contains(t, string(paused), "### Sign tokens\n\n- Status: paused\n")

	// A question nobody answers within the poll (shortened here), then the
	// answer and the resume.
	asked := run(9, exitSuspended, "--wait", "200ms")
	id := regexp.MustCompile(`cl_[0-9a-f]{12}`).FindString(asked.stdout)
	require.NotEmpty(t, id, asked.stdout)
	require.Equal(t, 0, taskmd(t, root, "", "answer", "--worker", "w1", "--id", id, "rotate monthly").exit)
	resumed := run(10, 0)
	assert.Contains(t, resumed.stdout, "rotate monthly")
	assert.Contains(t, resumed.stdout, "/api/auth.md#rotate-keys")
	run(2, 0) // claim the task again: the same claim
	assert.Equal(t, "/api/auth.md#rotate-keys", vars["ADDRESS"])
	run(4, 0)
}

// Every command of the orchestrator's text runs, in its order, against a
// real workspace where a worker answers its pivot and asks a question.
func TestOrchestratorInstructionsRun(t *testing.T) {
	root := newWorkspace(t)
	holding(t, root, "/api/auth.md#setup-oauth")
	// w1 heartbeats with its task, as its text says: a pivot pauses that task.
	require.Equal(t, 0, taskmd(t, root, "", "agent", "heartbeat", "w1", "--task", "/api/auth.md#setup-oauth").exit)
	require.Equal(t, 0, taskmd(t, root, "", "agent", "register", "--id", "w2", "--name", "worker-2", "--runtime", "cli").exit)
	vars := map[string]string{"ID": "w1", "DOC": "/api/auth.md"}
	lines := commandLines(roleInstructions["orchestrator"])
	require.Len(t, lines, 9, "the test walks through each line below: update it with the text")
	run := func(i int, exit int) result {
		t.Helper()
		r := shell(t, root, lines[i], vars)
		require.Equal(t, exit, r.exit, "%s\n%s%s", lines[i], r.stdout, r.stderr)
		return r
	}
	assert.Contains(t, run(0, 0).stdout, "created /api/auth.md#title")
	run(1, 0)
	assert.Contains(t, run(2, 0).stdout, "w1")
	assert.Contains(t, run(3, 0).stdout, "w1")
	assert.Contains(t, run(4, 0).stdout, "/api/auth.md#setup-oauth")

	// pivot --wait, while worker w1 acknowledges from its own process.
	vars["ADDRESS"] = "/api/auth.md#title"
	pivot := make(chan result, 1)
	go func() { pivot <- shell(t, root, lines[5], vars) }()
	until(t, root, "pivot requested", "agent", "heartbeat", "w1", "--task", "/api/auth.md#setup-oauth") // with its task, as the worker's text says: a heartbeat without one would leave the pivot no task to pause
	require.Equal(t, 0, taskmd(t, root, "", "pivot", "acknowledge", "--worker", "w1", "--token", "1", "--completed", "provider installed").exit)
	p := <-pivot
	require.Equal(t, 0, p.exit, p.stderr)
	assert.Contains(t, p.stdout, "acknowledged")

	// The paused task goes to w2.
	vars["ADDRESS"], vars["ID"] = "/api/auth.md#setup-oauth", "w2"
	assert.Contains(t, run(6, 0).stdout, "provider installed")

	// w2 asks and is suspended; the orchestrator finds the question and answers.
	ask := taskmd(t, root, "", "ask", "--worker", "w2", "--id", "q1", "--wait", "200ms", "--completed", "read the brief", "Which provider?")
	require.Equal(t, exitSuspended, ask.exit, ask.stderr)
	assert.Contains(t, run(7, 0).stdout, "w2 q1")
	vars["REQUEST"] = "q1"
	answered := run(8, 0)
	assert.Contains(t, answered.stdout, "RESUME FROM CLARIFICATION")
	assert.Contains(t, answered.stdout, "the answer")
}
