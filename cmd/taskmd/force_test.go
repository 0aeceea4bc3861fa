package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForceOverridesAClaim: the command line is a person's: on a task an
// agent holds, start, complete and status are STALE_CLAIM (exit and
// files unchanged) unless --force, which ends the claim and records who
// took the task; --force with --agent is a usage error.
func TestForceOverridesAClaim(t *testing.T) {
	root := newWorkspace(t)
	const id = "w1"
	r := taskmd(t, root, "", "agent", "register", "--id", id, "--name", "w", "--runtime", "test")
	require.Equal(t, 0, r.exit, r.stderr)
	r = taskmd(t, root, "", "claim", "/shop/cart.md#fix-login-bug", "--agent", id)
	require.Equal(t, 0, r.exit, r.stderr)
	before, err := os.ReadFile(filepath.Join(root, "docs", "shop", "cart.md"))
	require.NoError(t, err)

	for _, args := range [][]string{
		{"start", "/shop/cart.md#fix-login-bug"},
		{"complete", "/shop/cart.md#fix-login-bug", "--note", "mine"},
		{"status", "/shop/cart.md#fix-login-bug", "blocked", "--reason", "mine"},
	} {
		r = taskmd(t, root, "", args...)
		assert.NotEqual(t, 0, r.exit, "%v", args)
		assert.Contains(t, r.stderr, "STALE_CLAIM", "%v", args)
	}
	after, err := os.ReadFile(filepath.Join(root, "docs", "shop", "cart.md"))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))

	r = taskmd(t, root, "", "status", "/shop/cart.md#fix-login-bug", "blocked", "--agent", id, "--force")
	assert.Equal(t, exitUsage, r.exit, r.stderr)

	t.Setenv("USER", "alice")
	r = taskmd(t, root, "", "complete", "/shop/cart.md#fix-login-bug", "--note", "fixed by hand", "--force")
	require.Equal(t, 0, r.exit, r.stderr)
	after, err = os.ReadFile(filepath.Join(root, "docs", "shop", "cart.md"))
	require.NoError(t, err)
	assert.Contains(t, string(after), "- Override: alice took it from agent "+id+" (claim 1) on ")
	assert.NotContains(t, string(after), "Assignee:")
	assert.True(t, strings.Contains(string(after), "- Status: completed"))
}

// TestAnswerCheckpointPath: answer --checkpoint-path names the checkpoint
// the worker resumes from, in the answer's resume instructions; a path
// that is no worker checkpoint is refused and writes nothing.
func TestAnswerCheckpointPath(t *testing.T) {
	root := newWorkspace(t)
	workerState(t, root)
	before := files(t, root)
	r := taskmd(t, root, "", "answer", "--worker", "w2", "--id", "c1", "--checkpoint-path", "docs/api/auth.md", "Q1=yes", "Q2=debug")
	assert.NotEqual(t, 0, r.exit)
	assert.Contains(t, r.stderr, "INVALID_ARGUMENTS")
	assert.Equal(t, before, files(t, root))

	r = taskmd(t, root, "", "--json", "answer", "--worker", "w2", "--id", "c1", "--checkpoint-path", "checkpoints/workers/w2/000001.md", "Q1=yes", "Q2=debug")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Contains(t, r.stdout, `"checkpoint_path":"checkpoints/workers/w2/000001.md"`)
}

// TestForceNamesAPersonItCanRecord: --force records $USER, or "a person"
// when $USER cannot be recorded (a control character), and never writes
// silently as nobody; rm of a held task is STALE_CLAIM without --force.
func TestForceNamesAPersonItCanRecord(t *testing.T) {
	root := newWorkspace(t)
	const id = "w1"
	require.Equal(t, 0, taskmd(t, root, "", "agent", "register", "--id", id, "--name", "w", "--runtime", "test").exit)
	require.Equal(t, 0, taskmd(t, root, "", "claim", "/shop/cart.md#fix-login-bug", "--agent", id).exit)
	r := taskmd(t, root, "", "rm", "/shop/cart.md#fix-login-bug")
	assert.Contains(t, r.stderr, "STALE_CLAIM")
	t.Setenv("USER", "bad\x1bname")
	r = taskmd(t, root, "", "status", "/shop/cart.md#fix-login-bug", "blocked", "--reason", "waiting", "--force")
	require.Equal(t, 0, r.exit, r.stderr)
	data, err := os.ReadFile(filepath.Join(root, "docs", "shop", "cart.md"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "- Override: a person took it from agent "+id)
}
