package board_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/board"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/worker"
)

// act posts a task action from the task page.
func act(t *testing.T, f *fixture, address, seen, action string, extra ...string) (*http.Response, string) {
	t.Helper()
	form := url.Values{"address": {address}, "seen": {seen}, "action": {action},
		"back": {"/task?address=" + url.QueryEscape(address)}}
	for i := 0; i+1 < len(extra); i += 2 {
		form.Set(extra[i], extra[i+1])
	}
	return f.post(t, "/task", form)
}

// status reads a task's Status line from the document.
func statusIn(t *testing.T, f *fixture, name, title string) string {
	t.Helper()
	doc := f.read(t, name)
	i := strings.Index(doc, "### "+title+"\n")
	require.GreaterOrEqual(t, i, 0, title)
	rest := doc[i:]
	j := strings.Index(rest, "- Status: ")
	require.GreaterOrEqual(t, j, 0)
	line := rest[j+len("- Status: "):]
	return line[:strings.IndexByte(line, '\n')]
}

func TestTaskActions(t *testing.T) {
	const doc = "docs/api/auth.md"
	cases := []struct {
		name, task, title, seen, action string
		extra                           []string
		want                            string // the status after
		inFile                          string // and a line the file holds
	}{
		{"start", "/api/auth.md#setup-oauth", "Setup OAuth", "pending", "start", nil, "in_progress", ""},
		{"complete", "/api/auth.md#rotate-keys", "Rotate keys", "in_progress", "complete", []string{"note", "rotated by cron"}, "completed", "- Note: rotated by cron"},
		{"block", "/api/auth.md#setup-oauth", "Setup OAuth", "pending", "block", []string{"reason", "no credentials"}, "blocked", "- Blocked: no credentials"},
		{"unblock", "/api/auth.md#ship", "Ship", "blocked", "unblock", nil, "pending", ""},
		{"reopen", "/api/auth.md#done", "Done", "completed", "reopen", nil, "pending", ""},
	}
	extraTasks := "\n### Ship\n\n- Status: blocked\n- Blocked: waiting\n\n### Done\n\n- Status: completed\n- Completed: 2026-01-01\n- Note: ok\n"
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, map[string]string{doc: authDoc + extraTasks}, board.Options{})
			res, body := act(t, f, c.task, c.seen, c.action, c.extra...)
			require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
			assert.Equal(t, "/task?address="+url.QueryEscape(c.task), res.Header.Get("Location"))
			assert.Equal(t, c.want, statusIn(t, f, doc, c.title))
			if c.inFile != "" {
				assert.Contains(t, f.read(t, doc), c.inFile)
			}
			_, page := f.get(t, res.Header.Get("Location"))
			assert.Contains(t, page, `data-status="`+c.want+`"`, "the page shows the new state")
		})
	}
}

// TestTaskActionRefusals: one refusal per action, each with the library's
// code, a 4xx status, the page it came from, and no byte changed.
func TestTaskActionRefusals(t *testing.T) {
	const doc = "docs/api/auth.md"
	cases := []struct {
		name, task, seen, action string
		extra                    []string
		code                     string
		status                   int
	}{
		{"start before its dependency", "/api/auth.md#sign-tokens", "pending", "start", nil, "TASK_BLOCKED", http.StatusConflict},
		{"complete without a note", "/api/auth.md#rotate-keys", "in_progress", "complete", nil, "NOTE_REQUIRED", http.StatusBadRequest},
		{"block a stale view", "/api/auth.md#rotate-keys", "pending", "block", []string{"reason", "x"}, "CONFLICT", http.StatusConflict},
		{"unblock a stale view", "/api/auth.md#setup-oauth", "blocked", "unblock", nil, "CONFLICT", http.StatusConflict},
		{"unblock a task in progress", "/api/auth.md#rotate-keys", "in_progress", "unblock", nil, "INVALID_TRANSITION", http.StatusConflict},
		{"reopen a task in progress", "/api/auth.md#rotate-keys", "in_progress", "reopen", nil, "INVALID_TRANSITION", http.StatusConflict},
		{"release a task no one holds, stale", "/api/auth.md#rotate-keys", "pending", "release", nil, "CONFLICT", http.StatusConflict},
		{"a task that does not exist", "/api/auth.md#nothing", "pending", "start", nil, "TASK_NOT_FOUND", http.StatusNotFound},
		{"an unknown action", "/api/auth.md#setup-oauth", "pending", "delete", nil, "INVALID_ARGUMENTS", http.StatusBadRequest},
		{"no seen status", "/api/auth.md#setup-oauth", "", "start", nil, "INVALID_ARGUMENTS", http.StatusBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, map[string]string{doc: authDoc}, board.Options{})
			before := f.files(t)
			res, body := act(t, f, c.task, c.seen, c.action, c.extra...)
			assert.Equal(t, c.status, res.StatusCode)
			assert.Contains(t, body, `data-error-code="`+c.code+`"`)
			assert.Equal(t, before, f.files(t))
		})
	}
}

// TestStaleBoardNeverOverwritesANewerState: a page rendered before an
// agent completed the task offers "block"; the post is CONFLICT.
func TestStaleBoardNeverOverwritesANewerState(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	_, page := f.get(t, "/")
	require.Contains(t, page, `data-task="/api/auth.md#rotate-keys" data-status="in_progress"`)
	_, err := plan.New(f.ws).UpdateStatus(ctx, "/api/auth.md#rotate-keys", plan.Claimant{}, plan.StatusUpdate{Status: "completed", Note: "by someone else"})
	require.NoError(t, err)
	before := f.files(t)
	res, body := f.post(t, "/task", url.Values{"address": {"/api/auth.md#rotate-keys"}, "seen": {"in_progress"}, "action": {"block"}, "reason": {"x"}, "back": {"/"}})
	assert.Equal(t, http.StatusConflict, res.StatusCode)
	assert.Contains(t, body, `data-error-code="CONFLICT"`)
	assert.Contains(t, body, `data-task="/api/auth.md#rotate-keys" data-status="completed"`, "the page shows the state as it is")
	assert.Equal(t, before, f.files(t))
}

func TestReleaseStrandedTask(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	long := func() time.Time { return time.Now().Add(-time.Hour) }
	old := plan.New(f.ws, plan.WithClock(long))
	_, err := old.Agents().Register(ctx, agent.Registration{ID: "gone", Name: "gone", Runtime: "test"})
	require.NoError(t, err)
	_, err = old.Claim(ctx, "/api/auth.md#setup-oauth", "gone")
	require.NoError(t, err)
	_, err = old.UpdateStatus(ctx, "/api/auth.md#setup-oauth", plan.Claimant{Agent: "gone", Token: 1}, plan.StatusUpdate{Status: "in_progress"})
	require.NoError(t, err)
	require.Contains(t, f.read(t, "docs/api/auth.md"), "- Assignee: gone")

	// An online holder's task is refused.
	p := plan.New(f.ws)
	_, err = p.Agents().Register(ctx, agent.Registration{ID: "here", Name: "here", Runtime: "test"})
	require.NoError(t, err)
	_, err = p.Claim(ctx, "/api/auth.md#rotate-keys", "here")
	require.NoError(t, err)
	before := f.files(t)
	res, body := act(t, f, "/api/auth.md#rotate-keys", "in_progress", "release")
	assert.Equal(t, http.StatusConflict, res.StatusCode)
	assert.Contains(t, body, `data-error-code="CONFLICT"`)
	assert.Equal(t, before, f.files(t))

	res, body = act(t, f, "/api/auth.md#setup-oauth", "in_progress", "release")
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
	assert.NotContains(t, f.read(t, "docs/api/auth.md"), "- Assignee: gone")
	assert.Equal(t, "pending", statusIn(t, f, "docs/api/auth.md", "Setup OAuth"), "offered again")
}

func TestAnswerClarification(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	cl := worker.NewClarifications(f.ws)
	_, err := cl.Ask(ctx, "w1", worker.Needed{ID: "c1", Questions: []worker.Question{{ID: "Q1", Text: "Which provider?"}}})
	require.NoError(t, err)
	_, err = cl.Ask(ctx, "w1", worker.Needed{ID: "c2", Questions: []worker.Question{{ID: "Q1", Text: "Key size?"}, {ID: "Q2", Text: "Rotate?"}}})
	require.NoError(t, err)

	// Refused: a question of c2 without its answer.
	before := f.files(t)
	res, body := f.post(t, "/answer", url.Values{"worker": {"w1"}, "id": {"c2"}, "answer-Q1": {"4096"}, "back": {"/inbox"}})
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.Contains(t, body, `data-error-code="INVALID_ARGUMENTS"`)
	assert.Contains(t, body, `data-question="w1/c2"`, "the inbox again")
	assert.Equal(t, before, f.files(t))

	res, body = f.post(t, "/answer", url.Values{"worker": {"w1"}, "id": {"c1"}, "answer": {"Google"}, "back": {"/inbox"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
	res, body = f.post(t, "/answer", url.Values{"worker": {"w1"}, "id": {"c2"}, "answer-Q1": {"4096"}, "answer-Q2": {"weekly"}, "back": {"/inbox"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
	_, a, err := cl.Get(ctx, "w1", "c2")
	require.NoError(t, err)
	require.NotNil(t, a)
	assert.True(t, a.ResumeSignal)
	assert.Equal(t, []worker.Response{{QuestionID: "Q1", Answer: "4096"}, {QuestionID: "Q2", Answer: "weekly"}}, a.Responses)
	_, page := f.get(t, "/inbox")
	assert.NotContains(t, page, `data-question="w1/c1"`, "answered: no longer open")
}

func TestPivotWorker(t *testing.T) {
	for _, mode := range []string{"graceful", "immediate", "hard"} {
		t.Run(mode, func(t *testing.T) {
			f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
			p := plan.New(f.ws)
			_, err := p.Agents().Register(ctx, agent.Registration{ID: "w1", Name: "worker-1", Runtime: "test"})
			require.NoError(t, err)
			_, err = p.Claim(ctx, "/api/auth.md#rotate-keys", "w1")
			require.NoError(t, err)
			_, err = p.Agents().Heartbeat(ctx, "w1", agent.HeartbeatInfo{CurrentTask: "/api/auth.md#rotate-keys"})
			require.NoError(t, err)
			res, body := f.post(t, "/pivot", url.Values{"worker": {"w1"}, "mode": {mode}, "reason": {"priorities changed"}, "back": {"/agents"}})
			require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
			req, err := worker.New(f.ws).Pending(ctx, "w1")
			require.NoError(t, err)
			require.NotNil(t, req)
			assert.Equal(t, mode, string(req.Mode))
			assert.Equal(t, "priorities changed", req.Reason)
			_, page := f.get(t, "/inbox")
			assert.Contains(t, page, "not acknowledged yet")
		})
	}
	t.Run("refused: an agent that is not registered", func(t *testing.T) {
		f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
		before := f.files(t)
		res, body := f.post(t, "/pivot", url.Values{"worker": {"nobody"}, "mode": {"hard"}, "reason": {"x"}, "back": {"/agents"}})
		assert.Equal(t, http.StatusNotFound, res.StatusCode)
		assert.Contains(t, body, `data-error-code="AGENT_NOT_FOUND"`)
		assert.Equal(t, before, f.files(t))
	})
}
