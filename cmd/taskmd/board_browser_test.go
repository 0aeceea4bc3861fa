package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// The board in a real browser: one `taskmd board` process and one headless
// Chromium, and other taskmd processes (agents, workers) that change the
// same files while a person looks at the board and clicks its forms. The
// hooks the test finds elements by (data-task, data-status, data-question,
// data-pivot, data-action, data-error-code, data-board-version) are the
// board's stable contract for scripts.

// boardFiles is the workspace the board shows: a plan with dependencies,
// a task whose body holds HTML that must not run, and a second document.
var boardFiles = map[string]string{
	"docs/api/auth.md": `# Auth

Stateless authentication for the API.

## Tasks

### Setup OAuth

- Status: pending

Install the provider.

### Sign tokens

- Status: pending
- Depends-On: #setup-oauth

Sign with **RS256**.

### Validate tokens

- Status: pending
- Depends-On: #sign-tokens

Check signatures in the middleware. <script>window.injected = 1</script>

<img src="x" onerror="window.injected = 2">

### Rotate keys

- Status: pending

Rotate the signing keys every month.

### Write the guide

- Status: pending

How to log in, for people.
`,
	"workflows/tdd.md": "---\ntitle: Test-driven\n---\n\nWrite the test first.\n",
	"coordinator/active.md": `# Coordinator Tasks

## Tasks

### Research

- Status: in_progress
- Main-Workflow: tdd

Compare the providers.

### Decide

- Status: pending

Pick one.
`,
	"taskmd.toml": "agent_timeout = \"10m\" # online through a slow run\n",
	"docs/shop/cart.md": `# Cart

## Tasks

### Fix login bug

- Status: pending

Users cannot log in.

### Show totals

- Status: pending

Totals with taxes.
`,
}

// chromePath is the browser to drive: $TASKMD_CHROME, else the first of
// the usual names on PATH, else "".
func chromePath() string {
	if p := os.Getenv("TASKMD_CHROME"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser starts a headless Chromium with a 1280x800 window and
// returns the context of its first tab; the test skips without one.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := chromePath()
	if path == "" {
		t.Skip("no Chromium to drive the board: install it (apt-get install chromium) or set TASKMD_CHROME to a Chrome or Chromium binary")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.WindowSize(1280, 800))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to sandbox as root
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first call starts the browser and binds it to its context: the
	// tab's own, with no deadline.
	require.NoError(t, chromedp.Do(ctx), "starting %s", path)
	return ctx
}

// browse runs the actions in the tab, each call within 20 seconds.
func browse(t *testing.T, tab context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 20*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, actions...))
}

// eval is the value of the JavaScript expression in the tab's page (of
// the promise's result, when it is one).
func eval[T any](t *testing.T, tab context.Context, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	require.NoError(t, err, expr)
	return v
}

// boardVersion is the page's data-board-version, which grows with every
// change the server pushed to it.
func boardVersion(t *testing.T, tab context.Context) int {
	t.Helper()
	s := eval[string](t, tab, `document.body.dataset.boardVersion`)
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "data-board-version %q", s)
	return n
}

// css is the CSS selector of the last part inside the ones before it.
func css(parts ...string) chromedp.CSS { return chromedp.CSS(strings.Join(parts, " ")) }

// syncBuffer is a buffer a process writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// boardProc is a running `taskmd board`.
type boardProc struct {
	url    string // its first line: the URL to open
	origin string // http://127.0.0.1:PORT
	stderr syncBuffer
}

// startBoard starts `taskmd board --addr 127.0.0.1:0 args...` in root and
// reads the URL it prints first. At the end of the test it sends SIGINT,
// with the browser still connected, and expects the board to exit 0.
func startBoard(t *testing.T, root string, args ...string) *boardProc {
	t.Helper()
	b := &boardProc{}
	cmd := exec.Command(binary, append([]string{"-C", root, "board", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = os.Environ() // the real clock, which the agents' heartbeats use too
	cmd.Stderr = &b.stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	first := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		first <- line
		io.Copy(io.Discard, r)
		cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
			assert.Equal(t, 0, cmd.ProcessState.ExitCode(), "taskmd board after SIGINT: %s", b.stderr.String())
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("taskmd board did not exit within 15s of SIGINT: %s", b.stderr.String())
		}
	})
	select {
	case line := <-first:
		b.url = strings.TrimSuffix(line, "\n")
	case <-time.After(30 * time.Second):
		t.Fatalf("taskmd board printed no URL within 30s: %s", b.stderr.String())
	}
	u, err := url.Parse(b.url)
	require.NoError(t, err, "the board's first line %q: %s", b.url, b.stderr.String())
	require.Regexp(t, `^127\.0\.0\.1:[0-9]+$`, u.Host, "the board's first line %q", b.url)
	b.origin = u.Scheme + "://" + u.Host
	return b
}

// cli runs taskmd in root on the real clock, as an agent or a person
// beside the board does, and returns its stdout; it must succeed.
func cli(t *testing.T, root string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"-C", root}, args...)...)
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	require.NoError(t, err, "taskmd %v: %s", args, errOut.String())
	return string(out)
}

// startCLI starts taskmd in root on the real clock without waiting.
func startCLI(t *testing.T, root string, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	r := &running{done: make(chan struct{})}
	r.cmd = exec.CommandContext(ctx, binary, append([]string{"-C", root}, args...)...)
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.errOut
	require.NoError(t, r.cmd.Start())
	go func() { r.cmd.Wait(); cancel(); close(r.done) }()
	t.Cleanup(func() { cancel(); <-r.done })
	return r
}

var claimToken = regexp.MustCompile(`token ([0-9]+)`)

// holds registers the agent and has it claim the task, start it and say
// so in a heartbeat; it returns the claim's token.
func holds(t *testing.T, root, agent, task string) string {
	t.Helper()
	cli(t, root, "agent", "register", "--id", agent, "--name", agent, "--runtime", "cli")
	m := claimToken.FindStringSubmatch(cli(t, root, "claim", task, "--agent", agent))
	require.NotNil(t, m, "no token in claim's answer")
	cli(t, root, "status", task, "in_progress", "--agent", agent, "--token", m[1])
	cli(t, root, "agent", "heartbeat", agent, "--task", task)
	return m[1]
}

// taskOnDisk is the task as its document on disk says: its status and
// fields.
func taskOnDisk(t *testing.T, root, address string) (status string, fields map[string]string) {
	t.Helper()
	a, err := taskdoc.ParseAddress(address)
	require.NoError(t, err)
	src, err := os.ReadFile(filepath.Join(root, "docs", filepath.FromSlash(strings.TrimPrefix(a.Path, "/"))))
	require.NoError(t, err)
	doc, err := taskdoc.Parse(src)
	require.NoError(t, err)
	task, err := doc.Task(a.Slug)
	require.NoError(t, err)
	fields = map[string]string{}
	for _, k := range []string{"Assignee", "Checkpoint", "Note"} {
		fields[k], _ = task.Field(k)
	}
	return string(task.Status), fields
}

// taskPage is the board's page of the task.
func (b *boardProc) taskPage(address string) string {
	return b.origin + "/task?address=" + url.QueryEscape(address)
}

// A person watches and works the board in Chromium while agents and
// workers, other processes, change the files beside it.
func TestBoardInBrowser(t *testing.T) {
	tab := newBrowser(t)
	root := t.TempDir()
	for name, text := range boardFiles {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}

	const oauth = "/api/auth.md#setup-oauth"
	a1 := holds(t, root, "a1", oauth)
	cli(t, root, "checkpoint", "add", oauth, "--type", "progress", "--summary", "provider installed", "--agent", "a1", "--token", a1)
	b := startBoard(t, root)
	require.Regexp(t, `^http://127\.0\.0\.1:[0-9]+/\?token=[^&\s]+$`, b.url)

	t.Run("the token URL sets the secret cookie and leaves the page without it", func(t *testing.T) {
		browse(t, tab, chromedp.Navigate(b.url))
		loc, err := chromedp.Run(tab, chromedp.Location())
		require.NoError(t, err)
		assert.Equal(t, b.origin+"/", loc)
		res, err := chromedp.Call(tab, network.GetCookies, network.GetCookiesParams{URLs: []string{b.origin + "/"}})
		require.NoError(t, err)
		var found bool
		for _, c := range res.Cookies {
			if c.Name == "taskmd_board" {
				found = true
				assert.True(t, c.HTTPOnly, "the secret cookie is readable by scripts")
				assert.Equal(t, network.CookieSameSiteStrict, c.SameSite)
			}
		}
		assert.True(t, found, "no taskmd_board cookie after opening %s", b.url)
	})

	t.Run("a card follows a task another process completes, without a reload", func(t *testing.T) {
		card := fmt.Sprintf(`[data-task=%q]`, oauth)
		browse(t, tab, chromedp.Navigate(b.origin+"/"),
			chromedp.WaitVisible(css(card+`[data-status="in_progress"]`)))
		before := boardVersion(t, tab)
		eval[bool](t, tab, `window.sameDocument = "kept"; true`)

		cli(t, root, "complete", oauth, "--note", "Google provider", "--agent", "a1", "--token", a1)
		changed := time.Now()
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(
			`[...document.querySelectorAll(%q)].length > 0 && [...document.querySelectorAll(%q)].every(e => e.dataset.status === "completed")`, card, card),
			chromedp.WithPollingTimeout(2*time.Second), chromedp.WithPollingInterval(20*time.Millisecond)))
		require.NoError(t, err, "the card did not show completed within 2s of the change")
		t.Logf("the card showed completed %v after the change", time.Since(changed).Round(time.Millisecond))
		assert.Equal(t, "kept", eval[string](t, tab, `String(window.sameDocument)`), "the page was loaded again")
		assert.Greater(t, boardVersion(t, tab), before)
	})

	t.Run("other pages follow the files too, keeping what the person types", func(t *testing.T) {
		cli(t, root, "ask", "--worker", "w9", "--id", "live1", "--wait", "0", "--completed", "drafted", "First question?")
		first := `form[data-question="w9/live1"] textarea[name="answer"]`
		browse(t, tab, chromedp.Navigate(b.origin+"/inbox"), chromedp.WaitVisible(css(first)),
			chromedp.SendKeys(css(first), "half an answer"))
		eval[bool](t, tab, `window.sameDocument = "kept"; true`)

		cli(t, root, "ask", "--worker", "w9b", "--id", "live2", "--wait", "0", "--completed", "drafted", "Second question?")
		changed := time.Now()
		poll := func(expr, what string) {
			t.Helper()
			ctx, cancel := context.WithTimeout(tab, 10*time.Second)
			defer cancel()
			_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr,
				chromedp.WithPollingTimeout(2*time.Second), chromedp.WithPollingInterval(20*time.Millisecond)))
			require.NoError(t, err, "%s did not show within 2s of the change", what)
			t.Logf("%s showed %v after the change", what, time.Since(changed).Round(time.Millisecond))
		}
		poll(`document.querySelector('form[data-question="w9b/live2"]') !== null`, "the new question")
		assert.Equal(t, "half an answer", eval[string](t, tab, fmt.Sprintf(`document.querySelector(%q).value`, first)),
			"the answer being typed was lost")
		assert.Equal(t, "kept", eval[string](t, tab, `String(window.sameDocument)`), "the page was loaded again")

		browse(t, tab, chromedp.Navigate(b.origin+"/agents"), chromedp.WaitVisible(css("body")))
		eval[bool](t, tab, `window.sameDocument = "kept"; true`)
		cli(t, root, "agent", "register", "--id", "w8", "--name", "late", "--runtime", "test")
		changed = time.Now()
		poll(`document.querySelector('[data-agent="w8"]') !== null`, "the new agent")
		assert.Equal(t, "kept", eval[string](t, tab, `String(window.sameDocument)`), "the page was loaded again")

		cli(t, root, "answer", "--worker", "w9", "--id", "live1", "yes")
		cli(t, root, "answer", "--worker", "w9b", "--id", "live2", "no")
	})

	t.Run("an answer typed in the inbox resumes the waiting worker", func(t *testing.T) {
		ask := startCLI(t, root, "--json", "ask", "--worker", "w1", "--id", "db", "--task", "/api/auth.md#sign-tokens",
			"--wait", "60s", "--completed", "schema drafted", "Postgres or SQLite?")
		waitFor(t, root, "w1 db", "questions")
		form := `form[data-question="w1/db"]`
		browse(t, tab, chromedp.Navigate(b.origin+"/inbox"),
			chromedp.WaitVisible(css(form)),
			chromedp.SendKeys(css(form, `textarea[name="answer"]`), "Postgres"))
		resp, err := chromedp.RunResponse(tab, chromedp.Click(css(form, `button[type="submit"]`)))
		require.NoError(t, err)
		assert.Less(t, resp.Status, int64(400), "answering: HTTP %d", resp.Status)
		assert.Equal(t, 0, eval[int](t, tab, `document.querySelectorAll("[data-error-code]").length`))

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

		browse(t, tab, chromedp.Navigate(b.origin+"/inbox"), chromedp.WaitReady(css("body")))
		assert.Equal(t, 0, eval[int](t, tab, fmt.Sprintf(`document.querySelectorAll(%q).length`, form)),
			"the answered question is still open in the inbox")
	})

	t.Run("a request of two questions gets one field each", func(t *testing.T) {
		ask := startCLI(t, root, "--json", "ask", "--worker", "w2", "--id", "keys", "--wait", "60s",
			"--completed", "keys listed", "Key size?", "Rotate monthly?")
		waitFor(t, root, "w2 keys", "questions")
		form := `form[data-question="w2/keys"]`
		browse(t, tab, chromedp.Navigate(b.origin+"/inbox"),
			chromedp.WaitVisible(css(form)),
			chromedp.SendKeys(css(form, `textarea[name="answer-Q1"]`), "4096"),
			chromedp.SendKeys(css(form, `textarea[name="answer-Q2"]`), "yes"))
		_, err := chromedp.RunResponse(tab, chromedp.Click(css(form, `button[type="submit"]`)))
		require.NoError(t, err)
		got := ask.wait(t)
		require.Equal(t, 0, got.exit, got.stderr)
		assert.Contains(t, got.stdout, `"answer":"4096"`)
		assert.Contains(t, got.stdout, `"answer":"yes"`)
	})

	t.Run("a hard pivot takes the task back from the worker", func(t *testing.T) {
		const keys = "/api/auth.md#rotate-keys"
		holds(t, root, "w3", keys)
		form := pivotForm(t, tab, b, "w3")
		browse(t, tab,
			chromedp.SetValue(css(form, `select[name="mode"]`), "hard"),
			chromedp.SendKeys(css(form, `input[name="reason"]`), "keys leaked"))
		resp, err := chromedp.RunResponse(tab, chromedp.Click(css(form, `button[type="submit"]`)))
		require.NoError(t, err)
		assert.Less(t, resp.Status, int64(400), "pivoting: HTTP %d", resp.Status)

		hb := cli(t, root, "agent", "heartbeat", "w3")
		assert.Contains(t, hb, "hard: keys leaked")
		status, fields := taskOnDisk(t, root, keys)
		assert.NotEqual(t, "w3", fields["Assignee"], "the worker still holds the task after a hard pivot (%s)", status)
	})

	t.Run("a graceful pivot pauses the task once the worker acknowledges", func(t *testing.T) {
		const bug, totals = "/shop/cart.md#fix-login-bug", "/shop/cart.md#show-totals"
		token := holds(t, root, "w4", bug)
		form := pivotForm(t, tab, b, "w4")
		browse(t, tab,
			chromedp.SetValue(css(form, `select[name="mode"]`), "graceful"),
			chromedp.SendKeys(css(form, `input[name="reason"]`), "totals first"),
			chromedp.SendKeys(css(form, `input[name="new_task"]`), totals))
		_, err := chromedp.RunResponse(tab, chromedp.Click(css(form, `button[type="submit"]`)))
		require.NoError(t, err)

		assert.Contains(t, cli(t, root, "agent", "heartbeat", "w4"), "graceful: totals first")
		ack := cli(t, root, "pivot", "acknowledge", "--worker", "w4", "--token", token, "--completed", "found the cause")
		assert.Contains(t, ack, "claimed "+totals)
		status, fields := taskOnDisk(t, root, bug)
		assert.Equal(t, "paused", status)
		assert.Equal(t, "checkpoints/workers/w4/000001.md", fields["Checkpoint"])
		_, fields = taskOnDisk(t, root, totals)
		assert.Equal(t, "w4", fields["Assignee"])
	})

	t.Run("a stale form is refused with the library's code and changes nothing", func(t *testing.T) {
		const guide = "/api/auth.md#write-the-guide"
		cli(t, root, "start", guide)
		// A tab whose live feed is cut keeps the form as it was rendered.
		stale, cancel := chromedp.NewContext(tab)
		defer cancel()
		_, err := chromedp.Call(stale, network.Enable, network.EnableParams{})
		require.NoError(t, err)
		_, err = chromedp.Call(stale, network.SetBlockedURLs, network.SetBlockedURLsParams{
			URLPatterns: []*network.BlockPattern{{URLPattern: b.origin + "/events*", Block: true}}})
		require.NoError(t, err)
		form := `form[data-action="complete"]`
		browse(t, stale, chromedp.Navigate(b.taskPage(guide)), chromedp.WaitVisible(css(form)))

		cli(t, root, "complete", guide, "--note", "written by another hand")
		before := files(t, root)
		browse(t, stale, chromedp.SendKeys(css(form, `input[name="note"]`), "written here"))
		resp, err := chromedp.RunResponse(stale, chromedp.Click(css(form, `button[type="submit"]`)))
		require.NoError(t, err)
		assert.GreaterOrEqual(t, resp.Status, int64(400), "a refused action: HTTP %d", resp.Status)
		assert.Less(t, resp.Status, int64(500), "a refused action: HTTP %d", resp.Status)
		code := eval[string](t, stale, `(document.querySelector("[data-error-code]") || {dataset: {}}).dataset.errorCode || ""`)
		assert.Equal(t, "CONFLICT", code)
		assert.Equal(t, before, files(t, root), "a refused action changed files")
		status, fields := taskOnDisk(t, root, guide)
		assert.Equal(t, "completed", status)
		assert.Equal(t, "written by another hand", fields["Note"])
	})

	t.Run("HTML in a task's body is not run", func(t *testing.T) {
		browse(t, tab, chromedp.Navigate(b.taskPage("/api/auth.md#validate-tokens")),
			chromedp.WaitVisible(css(`[data-task="/api/auth.md#validate-tokens"]`)))
		assert.Equal(t, "undefined", eval[string](t, tab, `typeof window.injected`))
		assert.Contains(t, eval[string](t, tab, `document.body.innerText`), "Check signatures in the middleware.")
	})

	// The pictures in the README are of this board, taken with -update.
	cli(t, root, "ask", "--worker", "w5", "--id", "cache", "--task", "/api/auth.md#sign-tokens", "--wait", "0",
		"--completed", "benchmarks run", "Cache the signing keys in memory?")
	browse(t, tab, chromedp.EmulateViewport(1280, 800))
	shots := []struct{ name, path string }{
		{"home", "/"},
		{"task", "/task?address=" + url.QueryEscape(oauth)},
		{"agents", "/agents"},
		{"inbox", "/inbox"},
		{"graph", "/graph?doc=" + url.QueryEscape("/api/auth.md")},
	}
	for _, s := range shots {
		browse(t, tab, chromedp.Navigate(b.origin+s.path), chromedp.WaitVisible(css("body")))
		if !*update {
			continue
		}
		png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		assert.Less(t, len(png), 200<<10, "board-%s.png is %d bytes", s.name, len(png))
		path := filepath.Join("..", "..", "docs", "images", "board-"+s.name+".png")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, png, 0o644))
	}
	browse(t, tab, chromedp.Navigate(b.origin+"/graph?doc="+url.QueryEscape("/api/auth.md")), chromedp.WaitVisible(css("svg")))
}

// A read-only board renders no form and takes no POST.
func TestBoardInBrowserReadOnly(t *testing.T) {
	tab := newBrowser(t)
	root := t.TempDir()
	for name, text := range boardFiles {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	cli(t, root, "ask", "--worker", "w1", "--id", "db", "--wait", "0", "--completed", "schema drafted", "Postgres?")
	b := startBoard(t, root, "--read-only")
	require.Regexp(t, `^http://127\.0\.0\.1:[0-9]+/$`, b.url)
	before := files(t, root)
	for _, path := range []string{"/", "/inbox", "/agents", "/task?address=" + url.QueryEscape("/api/auth.md#setup-oauth")} {
		browse(t, tab, chromedp.Navigate(b.origin+path), chromedp.WaitVisible(css("body")))
		assert.Equal(t, 0, eval[int](t, tab, `document.forms.length`), "forms on %s", path)
		status := eval[int](t, tab, `fetch(location.href, {method: "POST", body: new URLSearchParams({note: "x"})}).then(r => r.status)`)
		assert.Equal(t, 405, status, "POST %s", path)
	}
	assert.Equal(t, before, files(t, root))
}

// waitFor runs the command every 20ms until its stdout contains want.
func waitFor(t *testing.T, root, want string, args ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(cli(t, root, args...), want) {
		require.True(t, time.Now().Before(deadline), "no %q in taskmd %v", want, args)
		time.Sleep(20 * time.Millisecond)
	}
}

// pivotForm opens the page that has the agent's pivot form (the agents'
// page, else the inbox) and returns the form's selector.
func pivotForm(t *testing.T, tab context.Context, b *boardProc, agent string) string {
	t.Helper()
	form := fmt.Sprintf(`form[data-pivot=%q]`, agent)
	for _, path := range []string{"/agents", "/inbox"} {
		browse(t, tab, chromedp.Navigate(b.origin+path), chromedp.WaitVisible(css("body")))
		if eval[int](t, tab, fmt.Sprintf(`document.querySelectorAll(%q).length`, form)) > 0 {
			return form
		}
	}
	t.Fatalf("no %s on /agents nor /inbox", form)
	return ""
}
