package git_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	_, err := git.Run(context.Background(), dir, "init", "-q", "-b", "main")
	require.NoError(t, err)
	out, err := git.Run(context.Background(), dir, "symbolic-ref", "--short", "HEAD")
	require.NoError(t, err)
	assert.Equal(t, "main\n", out)
}

func TestRunFailureIsTyped(t *testing.T) {
	dir := t.TempDir()
	_, err := git.Run(context.Background(), dir, "rev-parse", "--verify", "no-such-ref")
	require.Error(t, err)
	assert.Equal(t, git.CodeGit, taskdoc.CodeOf(err))
	assert.True(t, errors.Is(err, git.ErrGit))
	ge, ok := git.As(err)
	require.True(t, ok)
	assert.Equal(t, 128, ge.ExitCode)
	assert.Contains(t, ge.Stderr, "not a git repository")
	assert.Contains(t, err.Error(), "not a git repository")
	assert.Equal(t, []string{"rev-parse", "--verify", "no-such-ref"}, ge.Args)
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := git.Run(ctx, t.TempDir(), "status")
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestErrorMessageOnce(t *testing.T) {
	_, err := git.Run(context.Background(), t.TempDir(), "rev-parse", "--verify", "x")
	require.Error(t, err)
	assert.Equal(t, 1, strings.Count(err.Error(), "not a git repository"), err.Error())
	assert.True(t, strings.HasPrefix(err.Error(), "git error: git rev-parse --verify x: "), err.Error())
}

func TestTopLevel(t *testing.T) {
	dir := t.TempDir()
	_, _, err := git.TopLevel(context.Background(), dir)
	assert.Equal(t, git.CodeGit, taskdoc.CodeOf(err), "not a repository")
	_, err = git.Run(context.Background(), dir, "init", "-q", "-b", "main")
	require.NoError(t, err)
	sub := filepath.Join(dir, "a", "b")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	top, prefix, err := git.TopLevel(context.Background(), sub)
	require.NoError(t, err)
	want, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, want, top)
	assert.Equal(t, "a/b/", prefix)
	_, prefix, err = git.TopLevel(context.Background(), dir)
	require.NoError(t, err)
	assert.Empty(t, prefix)
}

// TestFailureSaysWhy: a command that says why it failed on standard
// output (git commit with nothing to commit) carries that in the error;
// one that says nothing is not a bare exit status.
func TestFailureSaysWhy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, err := git.Run(ctx, dir, "init", "-q", "-b", "main")
	require.NoError(t, err)
	_, err = git.Run(ctx, dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first")
	require.NoError(t, err)
	_, err = git.Run(ctx, dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-m", "again")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nothing to commit")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644))
	_, err = git.Run(ctx, dir, "add", "f")
	require.NoError(t, err)
	_, err = git.Run(ctx, dir, "diff", "--cached", "--quiet")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "git printed no message")
}

// TestNoAutoMaintenance: git's automatic maintenance is off for taskmd's
// commands, after the settings the caller's environment gives, which stay.
func TestNoAutoMaintenance(t *testing.T) {
	if os.Getenv("TASKMD_GIT_ENV_CHILD") != "" {
		dir := t.TempDir()
		_, err := git.Run(context.Background(), dir, "init", "-q")
		require.NoError(t, err)
		for key, want := range map[string]string{"maintenance.auto": "false\n", "user.name": "Caller\n"} {
			out, err := git.Run(context.Background(), dir, "config", key)
			require.NoError(t, err, key)
			assert.Equal(t, want, out, key)
		}
		return
	}
	out, err := git.Run(context.Background(), t.TempDir(), "config", "maintenance.auto")
	require.NoError(t, err)
	assert.Equal(t, "false\n", out)

	// Settings the caller gives (git -c in an alias or a hook passes them
	// as GIT_CONFIG_PARAMETERS) stay, but not maintenance.
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoAutoMaintenance$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TASKMD_GIT_ENV_CHILD=1",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=Caller",
		"GIT_CONFIG_PARAMETERS='maintenance.auto'='true'")
	got, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", got)
	assert.Contains(t, string(got), "PASS")
}
