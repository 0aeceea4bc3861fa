package gitsync_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worktree"
)

// TestLocalGitTroubleIsNoOffline: a fetch that fails in the clone itself
// (a corrupt object file) is GIT_ERROR with git's message, and nothing is
// queued; a remote that refuses the connection is offline.
func TestLocalGitTroubleIsNoOffline(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	a, b := newMachine(t, remote, "a"), newMachine(t, remote, "b")
	res, err := b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	require.True(t, res.Pushed)

	// The commit b pushed is an empty file in a's object folder: a
	// believes it has it, and reading it fails.
	sha := strings.TrimSpace(run(t, remote, "rev-parse", "main"))
	obj := filepath.Join(a.dir, ".git", "objects", sha[:2], sha[2:])
	require.NoError(t, os.MkdirAll(filepath.Dir(obj), 0o755))
	require.NoError(t, os.WriteFile(obj, nil, 0o444))
	head := run(t, a.dir, "rev-parse", "HEAD")
	before, err := os.ReadFile(filepath.Join(a.dir, doc))
	require.NoError(t, err)

	got, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
	require.Error(t, err, "%+v", got)
	assert.Equal(t, worktree.CodeGit, taskdoc.CodeOf(err), "%v", err)
	ge, ok := git.As(err)
	require.True(t, ok, "%v", err)
	assert.NotEmpty(t, ge.Stderr)
	assert.False(t, got.Queued)
	assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"), "nothing was committed")
	after, err := os.ReadFile(filepath.Join(a.dir, doc))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))

	c := newMachine(t, remote, "c")
	run(t, c.dir, "remote", "set-url", "origin", "http://127.0.0.1:1/remote.git")
	got, err = c.sync.Claim(ctx, "/plan.md#task-3", c.agent)
	require.NoError(t, err)
	assert.True(t, got.Queued, "%+v", got)
	assert.NotEmpty(t, got.Offline)
}
