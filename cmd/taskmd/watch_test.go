package main

import (
	"bufio"
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

// watch --json, a separate process, reports a change another process
// makes to a document within a second, naming the task whose status moved.
func TestWatchSeesAnotherProcess(t *testing.T) {
	root := newWorkspace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-C", root, "watch", "--json")
	cmd.Env = append(os.Environ(), nowVar+"="+testNow)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	next := func(within time.Duration) string {
		t.Helper()
		wait, stop := context.WithTimeout(ctx, within)
		defer stop()
		select {
		case l, ok := <-lines:
			require.True(t, ok, "watch ended")
			return l
		case <-wait.Done():
			t.Fatalf("no line from watch within %s", within)
			return ""
		}
	}
	assert.JSONEq(t, `{"schema_version":1,"event":"watching","root":"`+root+`"}`, next(10*time.Second))

	// The test process changes a task's status and adds a task.
	p := filepath.Join(root, "docs", "api", "auth.md")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	changed := strings.Replace(string(b), "- Status: pending\n- Depends-On", "- Status: blocked\n- Depends-On", 1) + "\n### Rotate keys\n\nMonthly.\n"
	start := time.Now()
	// Written as editors save, a new file renamed over the old: a write in
	// place may be seen truncated first, and a change against the empty
	// file is not the one this test checks.
	require.NoError(t, os.WriteFile(p+".tmp", []byte(changed), 0o644))
	require.NoError(t, os.Rename(p+".tmp", p))
	change := func() (c Change) {
		t.Helper()
		require.NoError(t, json.Unmarshal([]byte(next(time.Second)), &c))
		return c
	}
	c := change()
	assert.Less(t, time.Since(start), time.Second)
	assert.Equal(t, Change{Event: "changed", Document: "/api/auth.md", Tasks: []TaskChange{
		{Address: "/api/auth.md#sign-tokens", Change: "status", From: "pending", To: "blocked"},
		{Address: "/api/auth.md#rotate-keys", Change: "added", To: "pending"},
	}}, c)

	// Another taskmd process creates a document.
	r := taskmd(t, root, "", "create", "/ops/deploy.md", "--title", "Ship it")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, Change{Event: "created", Document: "/ops/deploy.md", Tasks: []TaskChange{
		{Address: "/ops/deploy.md#ship-it", Change: "added", To: "pending"},
	}}, change())
}

// The text form is one line per changed document.
func TestWatchText(t *testing.T) {
	before := map[string]docState{
		"/a.md": {status: map[string]string{"x": "pending", "y": "pending", "z": "pending"}, version: map[string]string{"x": "1", "y": "1", "z": "1"}, order: []string{"x", "y", "z"}},
		"/b.md": {status: map[string]string{}, version: map[string]string{}},
	}
	after := map[string]docState{
		"/a.md": {status: map[string]string{"x": "in_progress", "y": "pending", "w": "pending"}, version: map[string]string{"x": "2", "y": "2", "w": "1"}, order: []string{"x", "y", "w"}},
		"/c.md": {broken: "PARSE_ERROR: bad"},
	}
	var b strings.Builder
	for _, c := range changes(before, after) {
		writeChange(&b, c)
	}
	assert.Equal(t, "changed /a.md: #x pending->in_progress, ~#y, +#w pending, -#z\nremoved /b.md\nbroken /c.md: PARSE_ERROR: bad\n", b.String())
}
