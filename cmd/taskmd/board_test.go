package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// boardProcess runs taskmd board in root and returns the address it
// printed; the process is stopped with SIGTERM at the end of the test,
// which must end it with status 0.
func boardProcess(t *testing.T, root string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"-C", root, "board"}, args...)...)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			assert.NoError(t, err, "taskmd board ends with status 0 on SIGTERM")
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("taskmd board did not end on SIGTERM")
		}
	})
	return strings.TrimSpace(line)
}

// sseEvent is one server-sent event.
type sseEvent struct{ name, data string }

// readEvents sends the events of stream r on a channel.
func readEvents(r io.Reader) <-chan sseEvent {
	ch := make(chan sseEvent, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			case line == "" && ev.name != "":
				ch <- ev
				ev = sseEvent{}
			}
		}
	}()
	return ch
}

// TestBoardPushesAnotherProcessChange runs the board and, in another
// process, completes a task: the board's live feed carries that task's
// card, completed, within 2 s, and only that card.
func TestBoardPushesAnotherProcessChange(t *testing.T) {
	root := t.TempDir()
	require.Zero(t, taskmd(t, root, "", "init", root).exit)
	doc := "# Auth\n\n## Tasks\n\n### Setup OAuth\n\n- Status: in_progress\n\n### Sign tokens\n\n- Status: pending\n"
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs", "api"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "api", "auth.md"), []byte(doc), 0o644))

	addr := boardProcess(t, root)
	require.Regexp(t, `^http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{48}$`, addr)
	base := addr[:strings.Index(addr, "?")]

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"events", nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	events := readEvents(res.Body)
	first := <-events
	require.Equal(t, "version", first.name, "the feed opens with the board's version")

	r := taskmd(t, root, "", "complete", "/api/auth.md#setup-oauth", "--note", "done elsewhere")
	require.Zero(t, r.exit, r.stderr)
	changed := time.Now()

	deadline := time.After(2 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			require.True(t, ok, "the feed ended")
			if ev.name != "card" {
				require.NotEqual(t, "section", ev.name, "a status change in place sends the card only: %s", ev.data)
				continue
			}
			var c struct{ Address, HTML string }
			require.NoError(t, json.Unmarshal([]byte(ev.data), &c))
			require.Equal(t, "/api/auth.md#setup-oauth", c.Address, "only the changed card")
			assert.Contains(t, c.HTML, `data-task="/api/auth.md#setup-oauth" data-status="completed"`)
			t.Logf("card pushed %v after the other process ended", time.Since(changed))
			return
		case <-deadline:
			t.Fatal("no card within 2 s of the change")
		}
	}
}

func TestBoardReadOnlyPrintsNoSecret(t *testing.T) {
	root := t.TempDir()
	require.Zero(t, taskmd(t, root, "", "init", root).exit)
	addr := boardProcess(t, root, "--read-only")
	require.Regexp(t, `^http://127\.0\.0\.1:\d+/$`, addr)
	res, err := http.Post(addr+"task", "application/x-www-form-urlencoded", strings.NewReader("address=/a.md%23x"))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
}

// liveBoard runs taskmd board in root and opens its live feed: the base
// address ("http://127.0.0.1:PORT/") and the feed's events, its first
// event (the version) read.
func liveBoard(t *testing.T, root string) (string, <-chan sseEvent) {
	t.Helper()
	addr := boardProcess(t, root)
	base := addr[:strings.Index(addr, "?")]
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"events", nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	events := readEvents(res.Body)
	require.Equal(t, "version", (<-events).name, "the feed opens with the board's version")
	return base, events
}

// fragment fetches a page's content as a live page does (X-Board-Fragment)
// and returns it with the version the answer carries.
func fragment(t *testing.T, url string) (string, int) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("X-Board-Fragment", "1")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	assert.NotContains(t, string(b), "<body", "the page's content only")
	v, err := strconv.Atoi(res.Header.Get("X-Board-Version"))
	require.NoError(t, err, "the content carries its version")
	return string(b), v
}

// untilPages waits up to within for a "pages" event that names page and
// returns the version pushed with it.
func untilPages(t *testing.T, events <-chan sseEvent, page string, within time.Duration) int {
	t.Helper()
	deadline := time.After(within)
	named := false
	for {
		select {
		case ev, ok := <-events:
			require.True(t, ok, "the feed ended")
			switch ev.name {
			case "pages":
				var pages []string
				require.NoError(t, json.Unmarshal([]byte(ev.data), &pages))
				named = named || slices.Contains(pages, page)
			case "version":
				if named {
					v, err := strconv.Atoi(ev.data)
					require.NoError(t, err)
					return v
				}
			}
		case <-deadline:
			t.Fatalf("no push for the %s page within %v", page, within)
		}
	}
}

// TestBoardPushesTaskAndAgentsPages: another process's writes reach the
// pages other than the plans within 2 s: the feed names the task page when
// the task is completed and the agents page when an agent registers, and
// the content those pages fetch then shows the change.
func TestBoardPushesTaskAndAgentsPages(t *testing.T) {
	root := t.TempDir()
	require.Zero(t, taskmd(t, root, "", "init", root).exit)
	doc := "# Auth\n\n## Tasks\n\n### Setup OAuth\n\n- Status: in_progress\n\n### Sign tokens\n\n- Status: pending\n"
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs", "api"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "api", "auth.md"), []byte(doc), 0o644))
	base, events := liveBoard(t, root)
	taskURL := base + "task?address=" + url.QueryEscape("/api/auth.md#setup-oauth")
	before, _ := fragment(t, taskURL)
	require.Contains(t, before, `data-task="/api/auth.md#setup-oauth" data-status="in_progress"`)

	r := taskmd(t, root, "", "complete", "/api/auth.md#setup-oauth", "--note", "done elsewhere")
	require.Zero(t, r.exit, r.stderr)
	v := untilPages(t, events, "task", 2*time.Second)
	after, fv := fragment(t, taskURL)
	assert.GreaterOrEqual(t, fv, v)
	assert.Contains(t, after, `data-task="/api/auth.md#setup-oauth" data-status="completed"`)
	assert.Contains(t, after, "done elsewhere")

	r = taskmd(t, root, "", "agent", "register", "--id", "w1", "--name", "worker-1", "--runtime", "test")
	require.Zero(t, r.exit, r.stderr)
	untilPages(t, events, "agents", 2*time.Second)
	agents, _ := fragment(t, base+"agents")
	assert.Contains(t, agents, `data-agent="w1"`)
}

// TestBoardAgentGoesOfflineLive: with agent_timeout 2s, an agent that
// registers and sends no heartbeat turns offline on the agents page's
// feed when its heartbeat ages out, with no file changing meanwhile.
func TestBoardAgentGoesOfflineLive(t *testing.T) {
	root := t.TempDir()
	require.Zero(t, taskmd(t, root, "", "init", root).exit)
	require.NoError(t, os.WriteFile(filepath.Join(root, "taskmd.toml"), []byte("agent_timeout = \"2s\"\n"), 0o644))
	base, events := liveBoard(t, root)

	// The real clock: the agent's heartbeat is now.
	reg := exec.Command(binary, "-C", root, "agent", "register", "--id", "w1", "--name", "worker-1", "--runtime", "test")
	out, err := reg.CombinedOutput()
	require.NoError(t, err, string(out))
	var rec struct {
		LastHeartbeat time.Time `json:"last_heartbeat"`
	}
	b, err := os.ReadFile(filepath.Join(root, ".taskmd", "agents", "w1.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rec))
	untilPages(t, events, "agents", 2*time.Second)
	page, _ := fragment(t, base+"agents")
	require.Contains(t, page, `class="agent online" data-agent="w1"`)
	files := filesUnder(t, root)

	for {
		v := untilPages(t, events, "agents", 4*time.Second)
		page, fv := fragment(t, base+"agents")
		if strings.Contains(page, `class="agent online" data-agent="w1"`) {
			continue // a push of the registration's own writes
		}
		assert.Contains(t, page, `class="agent offline" data-agent="w1"`)
		assert.GreaterOrEqual(t, fv, v)
		took := time.Since(rec.LastHeartbeat)
		assert.GreaterOrEqual(t, took, 2*time.Second, "offline when the timeout has passed, not before")
		assert.Less(t, took, 3*time.Second, "pushed within a second of the timeout")
		t.Logf("offline pushed %v after the agent's heartbeat", took)
		break
	}
	assert.Equal(t, files, filesUnder(t, root), "no file changed: the push is the board's timer")
}

// filesUnder reads every file under root but the lock sidecars:
// name -> content.
func filesUnder(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".lock") {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	}))
	return out
}

// TestBoardEndsAtOnceWithALiveFeedOpen: a page open on the live feed does
// not hold the board up on SIGTERM: the feed ends and the process exits 0
// well within a second (as it does with no page open).
func TestBoardEndsAtOnceWithALiveFeedOpen(t *testing.T) {
	root := t.TempDir()
	require.Zero(t, taskmd(t, root, "", "init", root).exit)
	cmd := exec.Command(binary, "-C", root, "board")
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0") // the race-built binary would sleep 1 s at exit
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	var waitErr error
	done := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	base := strings.TrimSpace(line)
	base = base[:strings.Index(base, "?")]

	var feeds []<-chan sseEvent
	for range 3 {
		res, err := http.Get(base + "events")
		require.NoError(t, err)
		defer res.Body.Close()
		events := readEvents(res.Body)
		require.Equal(t, "version", (<-events).name)
		feeds = append(feeds, events)
	}

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	sent := time.Now()
	select {
	case <-done:
		require.NoError(t, waitErr, "taskmd board ends with status 0 on SIGTERM")
		t.Logf("ended %v after SIGTERM", time.Since(sent))
		assert.Less(t, time.Since(sent), time.Second, "the open feeds held the board up")
	case <-time.After(10 * time.Second):
		t.Fatal("taskmd board did not end on SIGTERM")
	}
	for _, events := range feeds {
		for range events { // the feed ends
		}
	}
}
