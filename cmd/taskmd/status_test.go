package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// status ... completed on a coordinator task completes it through the
// coordinator when it is the task in progress; any other task of the list
// is INVALID_TRANSITION naming the current one, and changes nothing. The
// same call again is a retry.
func TestStatusCompletedCoordinatorTask(t *testing.T) {
	list := "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: in_progress\n- Main-Workflow: m\n\n### B\n\n- Status: pending\n\n### C\n\n- Status: pending\n"
	root := writeWorkspace(t, map[string]string{"coordinator/active.md": list})
	active := filepath.Join(root, "coordinator", "active.md")

	before := files(t, root)
	r := taskmd(t, root, "", "status", "/coordinator/active.md#b", "completed", "--outcome", "done")
	assert.Equal(t, exitConflict, r.exit, r.stderr)
	assert.True(t, strings.HasPrefix(r.stderr, "taskmd: INVALID_TRANSITION: "), r.stderr)
	assert.Contains(t, r.stderr, "/coordinator/active.md#a")
	assert.Equal(t, before, files(t, root))

	r = taskmd(t, root, "", "status", "/coordinator/active.md#a", "completed")
	assert.Equal(t, exitInvalid, r.exit, r.stderr)
	assert.True(t, strings.HasPrefix(r.stderr, "taskmd: NOTE_REQUIRED: "), r.stderr)
	assert.Equal(t, before, files(t, root))

	r = taskmd(t, root, "", "status", "/coordinator/active.md#a", "completed", "--outcome", "done")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, "completed /coordinator/active.md#a\n", r.stdout)
	b, err := os.ReadFile(active)
	require.NoError(t, err)
	assert.Contains(t, string(b), "### A\n\n- Status: completed\n- Main-Workflow: m\n- Completed: 2026-01-02\n- Note: done\n")
	assert.Contains(t, string(b), "### B\n\n- Status: in_progress\n")

	after := files(t, root)
	r = taskmd(t, root, "", "status", "/coordinator/active.md#a", "completed", "--outcome", "done")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, "completed /coordinator/active.md#a\n", r.stdout)
	assert.Equal(t, after, files(t, root), "the retry writes nothing")
}

// status ... completed takes the text of the completion as --note, the
// flag complete takes, and as --outcome, the agent protocol's name for it.
func TestStatusCompletedNote(t *testing.T) {
	doc := "# Auth\n\n## Tasks\n\n### Setup\n\n- Status: in_progress\n\n### Docs\n\n- Status: in_progress\n"
	root := writeWorkspace(t, map[string]string{"docs/auth.md": doc})
	for slug, flag := range map[string]string{"setup": "--note", "docs": "--outcome"} {
		r := taskmd(t, root, "", "status", "/auth.md#"+slug, "completed", flag, "done with "+flag)
		require.Equal(t, 0, r.exit, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "auth.md"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "### Setup\n\n- Status: completed\n- Completed: 2026-01-02\n- Note: done with --note\n")
	assert.Contains(t, string(b), "### Docs\n\n- Status: completed\n- Completed: 2026-01-02\n- Note: done with --outcome\n")
}

// A note with a status other than completed is refused, by hand or as an
// agent, and the document stays as it was: no field would keep it.
func TestStatusNoteGoesWithCompleted(t *testing.T) {
	doc := "# Auth\n\n## Tasks\n\n### Setup\n\n- Status: in_progress\n"
	root := writeWorkspace(t, map[string]string{"docs/auth.md": doc})
	for _, args := range [][]string{
		{"status", "/auth.md#setup", "blocked", "--note", "half done"},
		{"status", "/auth.md#setup", "paused", "--outcome", "half done", "--agent", "w1", "--token", "1"},
	} {
		r := taskmd(t, root, "", args...)
		assert.Equal(t, 2, r.exit, "%v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "goes with status completed")
		b, err := os.ReadFile(filepath.Join(root, "docs", "auth.md"))
		require.NoError(t, err)
		assert.Equal(t, doc, string(b))
	}
}

// An interrupted command exits as a shell reports it: 130 for SIGINT.
func TestInterruptExitStatus(t *testing.T) {
	root := newWorkspace(t)
	cmd := exec.Command(binary, "-C", root, "watch", "--json")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	ready := make(chan struct{})
	go func() {
		buf := make([]byte, 1)
		if n, _ := out.Read(buf); n > 0 { // watch prints once it watches
			close(ready)
		}
	}()
	select {
	case <-ready:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("watch did not start")
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 130, ee.ExitCode())
}

// A task moved out of blocked or failed does not keep the reason it had
// there, whoever moves it: an agent through its claim (status --agent) or
// a completion. A pending task that still says "Error: boom" lies.
func TestStatusLeavesNoStaleReason(t *testing.T) {
	doc := "# Auth\n\n## Tasks\n\n### Setup\n\n- Status: blocked\n- Blocked: keys\n\n### Docs\n\n- Status: blocked\n- Blocked: review\n"
	root := writeWorkspace(t, map[string]string{"docs/auth.md": doc})
	path := filepath.Join(root, "docs", "auth.md")
	r := taskmd(t, root, "", "agent", "register", "--name", "w1", "--runtime", "r", "--id", "w1")
	require.Equal(t, 0, r.exit, r.stderr)
	r = taskmd(t, root, "", "claim", "/auth.md#setup", "--agent", "w1")
	require.Equal(t, 0, r.exit, r.stderr)
	for _, step := range [][]string{
		{"pending"}, {"in_progress"}, {"failed", "--error", "boom"}, {"in_progress"},
	} {
		args := append([]string{"status", "/auth.md#setup"}, step...)
		r = taskmd(t, root, "", append(args, "--agent", "w1", "--token", "1")...)
		require.Equal(t, 0, r.exit, r.stderr)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		setup := strings.SplitN(string(b), "### Docs", 2)[0]
		assert.NotContains(t, setup, "Blocked:", "after %v", step)
		if step[0] != "failed" {
			assert.NotContains(t, setup, "Error:", "after %v", step)
		}
	}

	r = taskmd(t, root, "", "complete", "/auth.md#docs", "--note", "reviewed")
	require.Equal(t, 0, r.exit, r.stderr)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), "### Docs\n\n- Status: completed\n- Completed: 2026-01-02\n- Note: reviewed\n")
}

// An agent's status blocked --reason R records R in the Blocked field, as
// a person's does: the reason is not dropped because an agent gave it.
func TestStatusAgentBlockedReason(t *testing.T) {
	root := writeWorkspace(t, map[string]string{"docs/auth.md": "# Auth\n\n## Tasks\n\n### Setup\n\n- Status: in_progress\n"})
	r := taskmd(t, root, "", "agent", "register", "--name", "w1", "--runtime", "r", "--id", "w1")
	require.Equal(t, 0, r.exit, r.stderr)
	r = taskmd(t, root, "", "claim", "/auth.md#setup", "--agent", "w1")
	require.Equal(t, 0, r.exit, r.stderr)
	r = taskmd(t, root, "", "status", "/auth.md#setup", "blocked", "--reason", "waiting for keys", "--agent", "w1", "--token", "1")
	require.Equal(t, 0, r.exit, r.stderr)
	b, err := os.ReadFile(filepath.Join(root, "docs", "auth.md"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "- Blocked: waiting for keys\n")
}
