package claims_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// A write made with the status its caller saw (WithSeen) is refused with
// CONFLICT, and writes nothing, when the task is in another status now;
// made with the status it is in, it is made.
func TestWithSeenRefusesAStaleView(t *testing.T) {
	root := t.TempDir()
	const doc = "# Auth\n\n## Tasks\n\n### Sign tokens\n- Status: blocked\n"
	file := filepath.Join(root, "docs", "auth.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
	require.NoError(t, os.WriteFile(file, []byte(doc), 0o644))
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	tasks := subagent.New(ws)
	ctx := context.Background()

	_, err = tasks.SetStatus(claims.WithSeen(ctx, "sign-tokens", taskdoc.StatusPending), "/auth.md#sign-tokens", taskdoc.StatusInProgress, "")
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err), "%v", err)
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, doc, string(got), "a refused write changes nothing")

	_, err = tasks.SetStatus(claims.WithSeen(ctx, "sign-tokens", taskdoc.StatusBlocked), "/auth.md#sign-tokens", taskdoc.StatusPending, "")
	require.NoError(t, err)
	got, err = os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(got), "- Status: pending")
}
