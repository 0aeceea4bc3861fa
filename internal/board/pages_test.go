package board_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/board"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/worker"
)

func TestIndexShowsEveryTaskAsACard(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc,
		"coordinator/active.md": "# Active\n\n## Tasks\n\n### First\n\n- Status: pending\n- Main-Workflow: ship\n"}, board.Options{})
	code, body := f.get(t, "/")
	require.Equal(t, http.StatusOK, code)
	for _, hook := range []string{
		`data-task="/api/auth.md#setup-oauth" data-status="pending"`,
		`data-task="/api/auth.md#sign-tokens" data-status="pending"`,
		`data-task="/api/auth.md#rotate-keys" data-status="in_progress"`,
		`data-task="/coordinator/active.md#first" data-status="pending"`,
		`<body data-board-version="1"`,
		`<form method="post" action="/task" data-action="complete">`,
		`<input type="hidden" name="seen" value="in_progress">`,
	} {
		assert.Contains(t, body, hook)
	}
	// The coordinator list comes first.
	assert.Less(t, strings.Index(body, "/coordinator/active.md#first"), strings.Index(body, "/api/auth.md#setup-oauth"))
}

// A card shows its task's newest checkpoint, and follows its journal when
// only the journal changes.
func TestCardsShowTheLastCheckpoint(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	_, body := f.get(t, "/")
	assert.NotContains(t, body, `class="card-last"`)

	j := journal.New(f.ws)
	_, err := j.Add(ctx, "/api/auth.md#rotate-keys", journal.Entry{Type: journal.TypeProgress, Summary: "old keys listed"})
	require.NoError(t, err)
	_, body = f.get(t, "/")
	assert.Contains(t, body, `<div class="card-last" data-checkpoint="1">#1 progress: old keys listed <time datetime="`)

	_, err = j.Add(ctx, "/api/auth.md#rotate-keys", journal.Entry{Type: journal.TypeDecision, Summary: "rotate <weekly>"})
	require.NoError(t, err)
	_, body = f.get(t, "/")
	assert.Contains(t, body, `data-checkpoint="2">#2 decision: rotate &lt;weekly&gt; <time`, "the newest, escaped")
	assert.Equal(t, 1, strings.Count(body, `class="card-last"`), "only the task with a journal")
}

// A card says what its task waits for, done or waiting, and its workflow;
// completing the dependency turns it done on the next page.
func TestCardsShowDependenciesAndWorkflow(t *testing.T) {
	doc := strings.Replace(authDoc, "- Depends-On: #setup-oauth\n", "- Depends-On: #setup-oauth, /other.md#x\n- Workflow: tdd\n", 1)
	f := newFixture(t, map[string]string{"docs/api/auth.md": doc}, board.Options{})
	_, body := f.get(t, "/")
	assert.Contains(t, body, `data-dep="/api/auth.md#setup-oauth" title="waiting">#setup-oauth</a>`)
	assert.Contains(t, body, `data-dep="/other.md#x">/other.md#x</a>`)
	assert.Contains(t, body, `<div class="card-workflow">workflow tdd</div>`)

	done := strings.Replace(doc, "### Setup OAuth\n\n- Status: pending", "### Setup OAuth\n\n- Status: completed", 1)
	require.NoError(t, os.WriteFile(filepath.Join(f.root, "docs", "api", "auth.md"), []byte(done), 0o644))
	_, body = f.get(t, "/")
	assert.Contains(t, body, `data-dep="/api/auth.md#setup-oauth" title="done">#setup-oauth ✓</a>`)
}

func TestTaskPageRendersMarkdownWithoutRawHTML(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	code, body := f.get(t, "/task?address=/api/auth.md%23setup-oauth")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `<article class="task-page" data-task="/api/auth.md#setup-oauth" data-status="pending">`)
	assert.Contains(t, body, "&lt;script&gt;alert(1)&lt;/script&gt;", "the script shows as text")
	assert.NotContains(t, body, "<script>alert", "the script never reaches the page as HTML")
	for _, a := range []string{"start", "complete", "block", "unblock", "reopen", "release"} {
		assert.Contains(t, body, `data-action="`+a+`"`)
	}
	code, body = f.get(t, "/task?address=/api/auth.md%23nothing")
	assert.Equal(t, http.StatusNotFound, code)
	assert.Contains(t, body, `data-error-code="TASK_NOT_FOUND"`)
}

func TestTaskPageShowsJournalNewestFirst(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	p := plan.New(f.ws)
	for _, s := range []string{"first step", "second step"} {
		_, err := p.AddEntry(ctx, "/api/auth.md#rotate-keys", plan.Claimant{}, journal.Entry{Type: journal.TypeProgress, Summary: s})
		require.NoError(t, err)
	}
	_, body := f.get(t, "/task?address=/api/auth.md%23rotate-keys")
	require.Contains(t, body, "second step")
	assert.Less(t, strings.Index(body, "second step"), strings.Index(body, "first step"))
}

func TestAgentsAndInbox(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	p := plan.New(f.ws)
	_, err := p.Agents().Register(ctx, agent.Registration{ID: "w1", Name: "worker-1", Runtime: "test"})
	require.NoError(t, err)
	_, err = p.Claim(ctx, "/api/auth.md#setup-oauth", "w1")
	require.NoError(t, err)
	_, err = worker.NewClarifications(f.ws).Ask(ctx, "w1", worker.Needed{ID: "c1", Questions: []worker.Question{{ID: "Q1", Text: "Which provider?"}}})
	require.NoError(t, err)

	code, body := f.get(t, "/agents")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `data-agent="w1"`)
	assert.Contains(t, body, "online")
	assert.Contains(t, body, `data-task="/api/auth.md#setup-oauth"`, "what the agent holds")
	assert.Contains(t, body, `<form method="post" action="/pivot" data-pivot="w1"`)

	// The plans page: the card says since when its holder holds it.
	_, body = f.get(t, "/")
	claimed := regexp.MustCompile(`data-task="/api/auth.md#setup-oauth"[^>]*>(?s:.*?)claimed <time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">`).FindStringSubmatch(body)
	require.NotNil(t, claimed, "the held task's card shows when it was claimed")
	at, err := time.Parse(time.RFC3339, claimed[1])
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), at, time.Minute)
	assert.Equal(t, 1, strings.Count(body, "claimed <time"), "only the held task says so")

	code, body = f.get(t, "/inbox")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `<form method="post" action="/answer" data-question="w1/c1">`)
	assert.Contains(t, body, `<textarea name="answer"`)
	assert.Contains(t, body, "Which provider?")
}

func TestReadOnlyBoardRendersNoForms(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{ReadOnly: true})
	p := plan.New(f.ws)
	_, err := p.Agents().Register(ctx, agent.Registration{ID: "w1", Name: "worker-1", Runtime: "test"})
	require.NoError(t, err)
	for _, page := range []string{"/", "/task?address=/api/auth.md%23setup-oauth", "/agents", "/inbox", "/graph?doc=/api/auth.md"} {
		code, body := f.get(t, page)
		require.Equal(t, http.StatusOK, code, page)
		assert.NotContains(t, body, "<form", page)
		assert.Contains(t, body, "data-read-only", page)
	}
}

func TestGraphLaysOutDependencies(t *testing.T) {
	doc := authDoc + "\n### Ship\n\n- Status: completed\n- Completed: 2026-01-02\n- Note: done\n"
	f := newFixture(t, map[string]string{"docs/api/auth.md": doc, "docs/api/blocked.md": "# B\n\n## Tasks\n\n### X\n\n- Status: blocked\n"}, board.Options{})
	code, body := f.get(t, "/graph?doc=/api/auth.md")
	require.Equal(t, http.StatusOK, code)
	node := func(slug string) string {
		return `data-task="/api/auth.md#` + slug + `" data-status="`
	}
	assert.Contains(t, body, node("setup-oauth")+`pending" data-class="ready"`)
	assert.Contains(t, body, node("sign-tokens")+`pending" data-class="blocked"`, "waits for setup-oauth")
	assert.Contains(t, body, node("rotate-keys")+`in_progress" data-class="doing"`)
	assert.Contains(t, body, node("ship")+`completed" data-class="done"`)
	assert.Contains(t, body, `<path class="edge"`)
	assert.Contains(t, body, `data-day="2026-01-02"`)
	// Sign tokens is one column right of Setup OAuth: x = 10 + 250.
	assert.Contains(t, body, `<rect class="n-blocked" x="260" y="10"`)
	code, body = f.get(t, "/graph?doc=/api/none.md")
	assert.Equal(t, http.StatusNotFound, code)
	assert.Contains(t, body, `data-error-code="DOCUMENT_NOT_FOUND"`)
}

// A live page fetches its content only (X-Board-Fragment): what <div
// id="page"> holds, its version in X-Board-Version; a task gone shows its
// refusal in the content.
func TestPageContentForALivePage(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	fetch := func(path string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodGet, f.url+path, nil)
		require.NoError(t, err)
		req.Header.Set("X-Board-Fragment", "1")
		res, err := client.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, string(b)
	}
	res, body := fetch("/task?address=/api/auth.md%23rotate-keys")
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "1", res.Header.Get("X-Board-Version"))
	assert.Contains(t, body, `<article class="task-page" data-task="/api/auth.md#rotate-keys" data-status="in_progress">`)
	assert.NotContains(t, body, "<body")
	assert.NotContains(t, body, `id="page"`, "the content, not its frame")

	_, full := f.get(t, "/task?address=/api/auth.md%23rotate-keys")
	assert.Contains(t, full, `<div id="page" data-page="/task?address=/api/auth.md%23rotate-keys" data-view="task">`)
	assert.Contains(t, full, strings.TrimSpace(body), "the full page holds the same content")

	res, body = fetch("/task?address=/api/auth.md%23gone")
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
	assert.Contains(t, body, `data-error-code="TASK_NOT_FOUND"`)

	// Cards carry their place in the document: a card that changes column
	// is put back in that order.
	_, index := f.get(t, "/")
	for i, slug := range []string{"setup-oauth", "sign-tokens", "rotate-keys"} {
		assert.Regexp(t, `data-task="/api/auth.md#`+slug+`" data-status="[a-z_]+" data-order="`+strconv.Itoa(i)+`"`, index)
	}
}
