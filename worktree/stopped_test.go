package worktree_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
	"github.com/taskmd/taskmd/worktree"
)

// The environment of a child that Create kills at a step.
const (
	envStopAt = "TASKMD_TEST_WORKTREE_STOP_AT"
	envRepo   = "TASKMD_TEST_WORKTREE_REPO"
	envFolder = "TASKMD_TEST_WORKTREE_FOLDER"
)

var stoppedSpec = worktree.Spec{ID: "agent-a-ws", Branch: "feature/a", BaseBranch: "main", CreateWorktree: true}

// TestCreateStoppedChild is the child of stopAt: it runs Create and kills
// itself with SIGKILL after the step its environment names.
func TestCreateStoppedChild(t *testing.T) {
	step := os.Getenv(envStopAt)
	if step == "" {
		t.Skip("the child of stopAt")
	}
	hooks.WorktreeStep = func(s string) {
		if s == step {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
	ws, err := workspace.Open(os.Getenv(envRepo))
	require.NoError(t, err)
	_, err = worktree.New(ws, worktree.WithFolder(os.Getenv(envFolder))).Create(context.Background(), stoppedSpec)
	t.Fatalf("Create returned (%v) instead of being killed after %s", err, step)
}

// stopAt runs Create with spec in another process, which is killed after
// step.
func stopAt(t *testing.T, dir, folder, step string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCreateStoppedChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envStopAt+"="+step, envRepo+"="+dir, envFolder+"="+folder)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "the child was not killed: %v\n%s", err, out)
	status, ok := exit.Sys().(syscall.WaitStatus)
	require.True(t, ok && status.Signaled() && status.Signal() == syscall.SIGKILL, "the child was not killed: %v\n%s", err, out)
}

// A Create killed after git made the branch, or the worktree, and retried
// with the same ID takes over what the killed call made and finishes.
func TestCreateRetryAfterKill(t *testing.T) {
	for _, step := range []string{"branch", "worktree"} {
		t.Run(step, func(t *testing.T) {
			ctx := context.Background()
			dir, folder, m := repo(t)
			stopAt(t, dir, folder, step)
			assert.Equal(t, gitIn(t, dir, "rev-parse", "main"), gitIn(t, dir, "rev-parse", "feature/a"), "the killed call made the branch")
			_, err := m.Get(ctx, stoppedSpec.ID)
			require.Equal(t, worktree.CodeWorktreeNotFound, taskdoc.CodeOf(err), "and no record")

			wt, err := m.Create(ctx, stoppedSpec)
			require.NoError(t, err, "the retry finishes the job")
			assert.Equal(t, "feature/a", gitIn(t, wt.Path, "branch", "--show-current"))
			assert.FileExists(t, filepath.Join(wt.Path, "docs", "plan.md"))
			assert.Equal(t, "feature/a", gitIn(t, dir, "branch", "--list", "feature/a", "--format=%(refname:short)"))
			got, err := m.Get(ctx, stoppedSpec.ID)
			require.NoError(t, err)
			assert.Equal(t, wt, got)
			again, err := m.Create(ctx, stoppedSpec)
			require.NoError(t, err)
			assert.Equal(t, wt, again)
			entries, err := os.ReadDir(filepath.Join(dir, ".taskmd/worktrees"))
			require.NoError(t, err)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			assert.Equal(t, []string{stoppedSpec.ID + ".json"}, names, "nothing of the killed call is left")
		})
	}
}

// A branch of the name that the killed call did not leave as it made it,
// because a person moved it, is refused on retry and left as it is.
func TestCreateRetryAfterKillBranchMoved(t *testing.T) {
	ctx := context.Background()
	dir, folder, m := repo(t)
	stopAt(t, dir, folder, "branch")
	gitIn(t, dir, "checkout", "-q", "feature/a")
	gitIn(t, dir, "commit", "-q", "--allow-empty", "-m", "a person's work")
	gitIn(t, dir, "checkout", "-q", "main")
	tip := gitIn(t, dir, "rev-parse", "feature/a")

	_, err := m.Create(ctx, stoppedSpec)
	assert.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "already exists")
	assert.Equal(t, tip, gitIn(t, dir, "rev-parse", "feature/a"), "the person's branch is kept")
	assert.NotContains(t, gitIn(t, dir, "worktree", "list"), "feature-a")

	// A retry with other arguments than the killed call's is a conflict.
	other := stoppedSpec
	other.Branch = "feature/b"
	dir2, folder2, m2 := repo(t)
	stopAt(t, dir2, folder2, "branch")
	_, err = m2.Create(ctx, other)
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err))
	assert.Empty(t, gitIn(t, dir2, "branch", "--list", "feature/b"))
}

// A Create killed after git made the branch, and retried once its base
// branch has moved on, takes over the branch at the commit the killed
// call started it at: the retry finishes that call's work.
func TestCreateRetryAfterKillBaseMoved(t *testing.T) {
	ctx := context.Background()
	dir, folder, m := repo(t)
	stopAt(t, dir, folder, "branch")
	made := gitIn(t, dir, "rev-parse", "feature/a")
	gitIn(t, dir, "commit", "-q", "--allow-empty", "-m", "main moves on")

	wt, err := m.Create(ctx, stoppedSpec)
	require.NoError(t, err, "the retry takes over the branch the killed call made")
	assert.Equal(t, made, gitIn(t, dir, "rev-parse", "feature/a"))
	assert.Equal(t, made, gitIn(t, wt.Path, "rev-parse", "HEAD"))
	assert.NoFileExists(t, filepath.Join(dir, ".taskmd/worktrees", stoppedSpec.ID+".creating"))
}

// A branch of the name that a person made, at the very commit a killed
// call was about to start it at, may be taken over by the retry; but when
// the retry then fails, the person's branch is kept.
func TestCreateRetryFailsKeepsOthersBranch(t *testing.T) {
	ctx := context.Background()
	dir, folder, m := repo(t)
	stopAt(t, dir, folder, "begin")
	require.Empty(t, gitIn(t, dir, "branch", "--list", "feature/a"), "killed before git made anything")
	gitIn(t, dir, "branch", "feature/a", "main")
	// The worktree's place is taken by a folder of files: git refuses it.
	require.NoError(t, os.MkdirAll(filepath.Join(folder, "feature-a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(folder, "feature-a", "notes"), []byte("mine\n"), 0o644))

	_, err := m.Create(ctx, stoppedSpec)
	require.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err))
	assert.Equal(t, "feature/a", gitIn(t, dir, "branch", "--list", "feature/a", "--format=%(refname:short)"), "the person's branch is kept")
	assert.FileExists(t, filepath.Join(folder, "feature-a", "notes"))
}

// A Create whose worktree git refuses, because another worktree is at its
// path, removes the branch it made and nothing of the other worktree.
func TestCreateFailsKeepsOthersWorktree(t *testing.T) {
	ctx := context.Background()
	dir, folder, m := repo(t)
	other := filepath.Join(folder, "feature-a")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "person", other, "main")
	require.NoError(t, os.WriteFile(filepath.Join(other, "work"), []byte("not committed\n"), 0o644))

	_, err := m.Create(ctx, worktree.Spec{Branch: "feature/a", BaseBranch: "main", CreateWorktree: true})
	require.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err))
	assert.FileExists(t, filepath.Join(other, "work"), "the other worktree is kept")
	assert.Contains(t, gitIn(t, dir, "worktree", "list"), other)
	assert.Empty(t, gitIn(t, dir, "branch", "--list", "feature/a"), "the branch the call made is removed")
}

// A retry of a Create killed after git made the branch, that fails in
// turn, removes the branch the killed call made: nothing is left over.
func TestCreateRetryFailsRemovesKilledCallsBranch(t *testing.T) {
	ctx := context.Background()
	dir, folder, m := repo(t)
	stopAt(t, dir, folder, "branch")
	require.NotEmpty(t, gitIn(t, dir, "branch", "--list", "feature/a"))
	require.NoError(t, os.MkdirAll(filepath.Join(folder, "feature-a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(folder, "feature-a", "notes"), []byte("mine\n"), 0o644))

	_, err := m.Create(ctx, stoppedSpec)
	require.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err))
	assert.Empty(t, gitIn(t, dir, "branch", "--list", "feature/a"))
	assert.NoFileExists(t, filepath.Join(dir, ".taskmd/worktrees", stoppedSpec.ID+".creating"))
	assert.FileExists(t, filepath.Join(folder, "feature-a", "notes"))
}
