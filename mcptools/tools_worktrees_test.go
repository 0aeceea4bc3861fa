package mcptools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWorkspaceTools(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "repo")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "plan.md"), []byte("## Tasks\n\n### A\n"), 0o644))
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "base")
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	s := serveSessions(t, root, func() time.Time { return now }, 1)[0]

	var created struct {
		ID, Path, Branch, Status string
		TaskIDs                  []string `json:"task_ids"`
	}
	s.ok("workspace_create", map[string]any{"workflow_id": "/plan.md", "branch": "feature/a", "base_branch": "main",
		"create_worktree": true, "task_ids": []string{"/plan.md#a"}}, &created)
	assert.Regexp(t, `^ws_[0-9a-f]{12}$`, created.ID)
	assert.Equal(t, "active", created.Status)
	assert.Equal(t, []string{"/plan.md#a"}, created.TaskIDs)
	real, _ := filepath.EvalSymlinks(root)
	assert.Equal(t, filepath.Join(real+"-worktrees", "feature-a"), created.Path, "the default folder: <repo>-worktrees")
	assert.DirExists(t, created.Path)

	_, toolErr, err := s.try("workspace_create", map[string]any{"branch": "feature/a", "create_worktree": true, "path": "elsewhere"})
	require.NoError(t, err)
	assert.Contains(t, toolErr, "GIT_ERROR")
	assert.Contains(t, toolErr, "already exists")

	_, toolErr, err = s.try("workspace_update", map[string]any{"id": created.ID, "status": "merged"})
	require.NoError(t, err)
	assert.Contains(t, toolErr, "INVALID_ARGUMENTS")

	var updated struct {
		Success         bool `json:"success"`
		WorktreeRemoved bool `json:"worktree_removed"`
	}
	head := git("rev-parse", "HEAD")
	s.ok("workspace_update", map[string]any{"id": created.ID, "status": "merged", "merge_commit": head, "cleanup_worktree": true}, &updated)
	assert.True(t, updated.Success)
	assert.True(t, updated.WorktreeRemoved)
	assert.NoDirExists(t, created.Path)
	s.ok("workspace_update", map[string]any{"id": created.ID, "status": "merged", "merge_commit": head, "cleanup_worktree": true}, &updated)
	assert.False(t, updated.WorktreeRemoved, "a retry removes nothing more")

	var list struct {
		Workspaces []struct{ ID, Status string } `json:"workspaces"`
	}
	s.ok("workspace_list", map[string]any{"status": []string{"merged"}}, &list)
	require.Len(t, list.Workspaces, 1)
	assert.Equal(t, created.ID, list.Workspaces[0].ID)

	_, toolErr, err = s.try("workspace_update", map[string]any{"id": "ws_000000000000", "status": "abandoned"})
	require.NoError(t, err)
	assert.Contains(t, toolErr, "WORKTREE_NOT_FOUND")

	// A repository elsewhere on the machine is not the client's to write in.
	other := t.TempDir()
	otherGit := exec.Command("git", "-c", "init.defaultBranch=main", "init", "-q", other)
	require.NoError(t, otherGit.Run())
	_, toolErr, err = s.try("workspace_create", map[string]any{"branch": "intruder", "repo_path": other, "create_worktree": true})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(toolErr, "OUTSIDE_ROOT: "), toolErr)
	assert.NoDirExists(t, filepath.Join(other, ".git", "worktrees"))
	assert.NoFileExists(t, filepath.Join(other, ".git", "refs", "heads", "intruder"))
}
