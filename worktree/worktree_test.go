package worktree_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
	"github.com/taskmd/taskmd/worktree"
)

var now = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// repo is a repository with one commit on main, its workspace, and a
// Manager whose worktree folder is <tmp>/wt.
func repo(t *testing.T) (dir, folder string, m *worktree.Manager) {
	t.Helper()
	tmp := t.TempDir()
	dir = filepath.Join(tmp, "repo")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "docs"), 0o755))
	gitIn(t, dir, "init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "docs", "plan.md"), []byte("## Tasks\n\n### A\n"), 0o644))
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "base")
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	folder = filepath.Join(tmp, "wt")
	return dir, folder, worktree.New(ws, worktree.WithClock(func() time.Time { return now }), worktree.WithFolder(folder))
}

func TestCreateListUpdateRemove(t *testing.T) {
	ctx := context.Background()
	dir, folder, m := repo(t)
	wt, err := m.Create(ctx, worktree.Spec{WorkflowID: "wf_1", AgentID: "ag_1", Branch: "feature/oauth",
		BaseBranch: "main", CreateWorktree: true, TaskIDs: []string{"/plan.md#a"}})
	require.NoError(t, err)
	assert.Regexp(t, `^ws_[0-9a-f]{12}$`, wt.ID)
	real, _ := filepath.EvalSymlinks(folder)
	assert.Equal(t, filepath.Join(real, "feature-oauth"), wt.Path)
	assert.Equal(t, worktree.Active, wt.Status)
	assert.Equal(t, now, wt.Created)
	assert.Equal(t, "feature/oauth", gitIn(t, wt.Path, "branch", "--show-current"))
	assert.FileExists(t, filepath.Join(wt.Path, "docs", "plan.md"))
	assert.Empty(t, gitIn(t, dir, "status", "--porcelain", "--", ".taskmd"), ".taskmd is ignored")
	assert.Contains(t, gitIn(t, dir, "check-ignore", ".taskmd/worktrees/"+wt.ID+".json"), ".taskmd")

	list, err := m.List(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, wt, list[0])

	// Merged without a commit is refused and changes nothing.
	_, _, err = m.Update(ctx, wt.ID, worktree.Change{Status: worktree.Merged, CleanupWorktree: true})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	assert.DirExists(t, wt.Path)

	head := gitIn(t, dir, "rev-parse", "HEAD")
	got, removed, err := m.Update(ctx, wt.ID, worktree.Change{Status: worktree.Merged, MergeCommit: head, CleanupWorktree: true})
	require.NoError(t, err)
	assert.True(t, removed)
	assert.Equal(t, worktree.Merged, got.Status)
	assert.Equal(t, head, got.MergeCommit)
	assert.NoDirExists(t, wt.Path)
	assert.NotContains(t, gitIn(t, dir, "worktree", "list"), "feature-oauth")

	// A retry removes nothing more.
	_, removed, err = m.Update(ctx, wt.ID, worktree.Change{Status: worktree.Merged, MergeCommit: head, CleanupWorktree: true})
	require.NoError(t, err)
	assert.False(t, removed)

	merged, err := m.List(ctx, worktree.Merged)
	require.NoError(t, err)
	assert.Len(t, merged, 1)
	active, err := m.List(ctx, worktree.Active)
	require.NoError(t, err)
	assert.Empty(t, active)

	require.NoError(t, m.Remove(ctx, wt.ID, true))
	_, err = m.Get(ctx, wt.ID)
	assert.Equal(t, worktree.CodeWorktreeNotFound, taskdoc.CodeOf(err))
	assert.NotContains(t, gitIn(t, dir, "branch", "--list"), "feature/oauth")
}

func TestCreateRetryWithID(t *testing.T) {
	ctx := context.Background()
	_, _, m := repo(t)
	spec := worktree.Spec{ID: "agent-a-ws", Branch: "a", CreateWorktree: true}
	first, err := m.Create(ctx, spec)
	require.NoError(t, err)
	again, err := m.Create(ctx, spec)
	require.NoError(t, err, "a retry does not make the branch twice")
	assert.Equal(t, first, again)
}

func TestCreateRefusals(t *testing.T) {
	ctx := context.Background()
	dir, folder, m := repo(t)
	before := gitIn(t, dir, "branch", "--list")

	_, err := m.Create(ctx, worktree.Spec{Branch: "bad..name", CreateWorktree: true})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))

	_, err = m.Create(ctx, worktree.Spec{Branch: "x", CreateWorktree: true, Path: "../escape"})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	assert.NoDirExists(t, filepath.Join(filepath.Dir(folder), "escape"))

	// A link inside the folder that leads out of it.
	require.NoError(t, os.MkdirAll(folder, 0o755))
	require.NoError(t, os.Symlink(t.TempDir(), filepath.Join(folder, "link")))
	_, err = m.Create(ctx, worktree.Spec{Branch: "y", CreateWorktree: true, Path: "link/y"})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))

	_, err = m.Create(ctx, worktree.Spec{Branch: "z", BaseBranch: "no-such-branch", CreateWorktree: true})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))

	// A branch that exists: git's own message, typed.
	_, err = m.Create(ctx, worktree.Spec{Branch: "main", CreateWorktree: true})
	assert.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err))
	var ge *worktree.GitError
	require.True(t, errors.As(err, &ge))
	assert.Contains(t, ge.Stderr, "already exists")

	assert.Equal(t, before, gitIn(t, dir, "branch", "--list"), "no branch was made")
	list, err := m.List(ctx)
	require.NoError(t, err)
	assert.Empty(t, list, "no record was made")

	_, _, err = m.Update(ctx, "ws_000000000000", worktree.Change{Status: worktree.Abandoned})
	assert.Equal(t, worktree.CodeWorktreeNotFound, taskdoc.CodeOf(err))
	_, _, err = m.Update(ctx, "ws_000000000000", worktree.Change{Status: "done"})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
}

func TestBranchOnlyAndNotARepository(t *testing.T) {
	ctx := context.Background()
	dir, _, m := repo(t)
	wt, err := m.Create(ctx, worktree.Spec{Branch: "only-branch"})
	require.NoError(t, err)
	assert.Empty(t, wt.Path)
	assert.Contains(t, gitIn(t, dir, "branch", "--list", "only-branch"), "only-branch")

	plain := t.TempDir()
	ws, err := workspace.Open(plain)
	require.NoError(t, err)
	defer ws.Close()
	_, err = worktree.New(ws).Create(ctx, worktree.Spec{Branch: "b", CreateWorktree: true})
	assert.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "not a git repository")
}

func TestFolderFromGitConfig(t *testing.T) {
	ctx := context.Background()
	dir, _, _ := repo(t)
	gitIn(t, dir, "config", "taskmd.worktreeFolder", ".worktrees")
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	defer ws.Close()
	wt, err := worktree.New(ws).Create(ctx, worktree.Spec{Branch: "c", CreateWorktree: true})
	require.NoError(t, err)
	real, _ := filepath.EvalSymlinks(dir)
	assert.Equal(t, filepath.Join(real, ".worktrees", "c"), wt.Path)
}

// A repository other than the workspace's own or one inside its root is
// OUTSIDE_ROOT, reached directly, by a relative path or through a link,
// and git makes nothing in it.
func TestCreateOutsideRepository(t *testing.T) {
	ctx := context.Background()
	dir, folder, m := repo(t)
	other := filepath.Join(t.TempDir(), "other")
	require.NoError(t, os.MkdirAll(other, 0o755))
	gitIn(t, other, "init", "-q")
	gitIn(t, other, "commit", "-q", "--allow-empty", "-m", "base")
	before := gitIn(t, other, "branch", "--list")
	require.NoError(t, os.Symlink(other, filepath.Join(dir, "docs", "link")))
	rel, err := filepath.Rel(dir, other)
	require.NoError(t, err)

	for _, repoPath := range []string{other, filepath.Join(other, "."), rel, filepath.Join(dir, "docs", "link"), "docs/link", "/"} {
		for _, withWorktree := range []bool{false, true} {
			_, err := m.Create(ctx, worktree.Spec{Branch: "intruder", RepoPath: repoPath, CreateWorktree: withWorktree})
			assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err), "%s: %v", repoPath, err)
			assert.Contains(t, err.Error(), "leave repo_path out", repoPath)
		}
	}
	assert.Equal(t, before, gitIn(t, other, "branch", "--list"), "no branch in the other repository")
	assert.NotContains(t, gitIn(t, other, "worktree", "list"), "intruder")
	assert.NoDirExists(t, folder, "no worktree folder was made")
	list, err := m.List(ctx)
	require.NoError(t, err)
	assert.Empty(t, list)

	// The workspace's own repository, named, and a repository inside the root.
	_, err = m.Create(ctx, worktree.Spec{Branch: "own", RepoPath: filepath.Join(dir, "docs")})
	require.NoError(t, err)
	assert.Contains(t, gitIn(t, dir, "branch", "--list", "own"), "own")
	inner := filepath.Join(dir, "vendor", "lib")
	require.NoError(t, os.MkdirAll(inner, 0o755))
	gitIn(t, inner, "init", "-q")
	gitIn(t, inner, "commit", "-q", "--allow-empty", "-m", "base")
	wt, err := m.Create(ctx, worktree.Spec{Branch: "inner", RepoPath: "vendor/lib"})
	require.NoError(t, err)
	realInner, _ := filepath.EvalSymlinks(inner)
	assert.Equal(t, realInner, wt.RepoPath)
	assert.Contains(t, gitIn(t, inner, "branch", "--list", "inner"), "inner")
}
