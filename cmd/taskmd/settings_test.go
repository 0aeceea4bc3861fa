package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/workspace"
)

// The settings of taskmd.toml reach every face that builds on the
// workspace: the commands and `taskmd mcp`.

const settingsPlan = "# Plan\n\n## Tasks\n\n### Build\n\n- Status: pending\n\nBuild it.\n"

// TestAgentTimeoutFromMarkerCLI: with agent_timeout = "2s", an agent that
// registered 3 seconds ago is offline; at the default 60s it is online.
func TestAgentTimeoutFromMarkerCLI(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	online := func(toml string) bool {
		root := newRoot(t, map[string]string{workspace.MarkerFile: toml, "docs/plan.md": settingsPlan})
		r := taskmdAt(t, root, t0, "agent", "register", "--id", "ag_one", "--name", "one", "--runtime", "test")
		require.Equal(t, 0, r.exit, r.stderr)
		r = taskmdAt(t, root, t0.Add(3*time.Second), "agent", "list", "--json")
		require.Equal(t, 0, r.exit, r.stderr)
		var out struct {
			Agents []struct {
				ID     string `json:"id"`
				Online bool   `json:"online"`
			} `json:"agents"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
		require.Len(t, out.Agents, 1)
		return out.Agents[0].Online
	}
	assert.False(t, online("agent_timeout = \"2s\"\n"), "agent_timeout 2s: offline after 3s")
	assert.True(t, online("# agent_timeout = \"60s\"\n"), "default 60s: online after 3s")

	root := newRoot(t, map[string]string{workspace.MarkerFile: "agent_timeout = \"soon\"\n", "docs/plan.md": settingsPlan})
	before := tree(t, root)
	r := taskmdAt(t, root, t0, "agent", "register", "--id", "ag_one", "--name", "one", "--runtime", "test")
	assert.Equal(t, exitInvalid, r.exit, r.stderr)
	assert.Contains(t, r.stderr, "agent_timeout")
	assert.Equal(t, before, tree(t, root), "a refused taskmd.toml writes nothing")
}

// mcpAt starts `taskmd mcp` on root with the clock at now and returns its
// client session, closed with the test.
func mcpAt(t *testing.T, root string, now time.Time) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary, "mcp", "-root", root, "--toolsets", "all")
	cmd.Env = append(os.Environ(), nowVar+"="+now.Format(time.RFC3339))
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "settings", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		if err := s.Close(); err != nil || t.Failed() {
			t.Logf("server stderr (close: %v):\n%s", err, stderr.String())
		}
	})
	return s
}

// callMCP calls tool and returns its structured result, failing the test
// on an error.
func callMCP(t *testing.T, s *mcp.ClientSession, tool string, args any) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	require.False(t, res.IsError, "%s: %s", tool, text(res))
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// TestAgentTimeoutFromMarkerMCP: one server registers an agent that claims
// a task; another, 3 seconds later, takes the task over for its agent when
// agent_timeout is 2s (the first agent is offline), not at the default.
func TestAgentTimeoutFromMarkerMCP(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	takenOver := func(toml string) bool {
		root := newRoot(t, map[string]string{workspace.MarkerFile: toml, "docs/plan.md": settingsPlan})
		first := mcpAt(t, root, t0)
		callMCP(t, first, "agent_register", map[string]any{"id": "ag_one", "name": "one", "runtime": "test"})
		claim := callMCP(t, first, "task_claim", map[string]any{"agent_id": "ag_one", "task_id": "/plan.md#build"})
		require.Equal(t, true, claim["success"], claim)
		second := mcpAt(t, root, t0.Add(3*time.Second))
		callMCP(t, second, "agent_register", map[string]any{"id": "ag_two", "name": "two", "runtime": "test"})
		claim = callMCP(t, second, "task_claim", map[string]any{"agent_id": "ag_two", "task_id": "/plan.md#build"})
		return claim["success"] == true
	}
	assert.True(t, takenOver("agent_timeout = \"2s\"\n"), "agent_timeout 2s: the silent holder is offline after 3s")
	assert.False(t, takenOver(""), "default 60s: the holder is still online after 3s")
}

// TestWorktreeDirFromMarkerMCP: worktree_dir, relative to the repository,
// is where workspace_create puts a worktree.
func TestWorktreeDirFromMarkerMCP(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "repo")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, workspace.MarkerFile), []byte("worktree_dir = \"../trees\"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "plan.md"), []byte(settingsPlan), 0o644))
	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-qm", "base")
	s := mcpAt(t, root, time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	created := callMCP(t, s, "workspace_create", map[string]any{"branch": "feature/a", "create_worktree": true})
	real, err := filepath.EvalSymlinks(tmp)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(real, "trees", "feature-a"), created["path"])
	assert.DirExists(t, filepath.Join(tmp, "trees", "feature-a"))
	assert.NoDirExists(t, root+"-worktrees")
}
