package taskflow_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Both task systems refuse to rename a task that tasks of other documents
// depend on, and change no file; an edit that keeps the title passes.
func TestRenameDependedOnElsewhere(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	filetest.WriteAll(t, root, map[string]string{
		"docs/auth.md":          "# Auth\n\n## Tasks\n\n### Write docs\n\n- Status: pending\n",
		"docs/other.md":         "# Other\n\n## Tasks\n\n### Uses it\n\n- Status: pending\n- Depends-On: /auth.md#write-docs, /coordinator/active.md#lead\n",
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: pending\n- Main-Workflow: tdd\n",
		"workflows/tdd.md":      "# TDD\n",
	})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	before := filetest.Snapshot(t, root)

	_, err = agents(ws).Edit(ctx, "/auth.md#write-docs", taskdoc.Edit{Title: "Write the docs"})
	require.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	assert.ErrorContains(t, err, "/other.md#uses-it in other documents depend on it")
	_, err = list(ws).Edit(ctx, "lead", taskdoc.Edit{Title: "Lead on"})
	require.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	assert.ErrorContains(t, err, "/other.md#uses-it in other documents depend on it")
	assert.Equal(t, before, filetest.Snapshot(t, root), "nothing written")

	_, err = agents(ws).Edit(ctx, "/auth.md#write-docs", taskdoc.Edit{Title: "Write docs", Content: "- Status: blocked\n"})
	require.NoError(t, err, "the same title is no rename")
	_, err = list(ws).Edit(ctx, "lead", taskdoc.Edit{Content: "- Status: pending\n- Main-Workflow: tdd\n\nLead."})
	require.NoError(t, err)
}
