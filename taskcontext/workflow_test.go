package taskcontext_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestLoadWorkflow(t *testing.T) {
	ws := loadWorkspace(t, map[string]string{
		"workflows/tdd.md":       "# TDD\n\nRed, green, refactor.\n",
		"workflows/sub/inner.md": "# Inner\n",
		"docs/secret.md":         "# Secret\n",
	})
	ctx := context.Background()

	wf, err := taskcontext.LoadWorkflow(ctx, ws, "tdd")
	require.NoError(t, err)
	assert.Equal(t, taskcontext.Workflow{Name: "tdd", Content: "# TDD\n\nRed, green, refactor.\n"}, wf)

	_, err = taskcontext.LoadWorkflow(ctx, ws, "spec-first")
	require.Error(t, err)
	assert.ErrorIs(t, err, taskdoc.ErrDocumentNotFound)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), `workflow "spec-first" not found`)

	for _, name := range []string{"", ".", "..", "../docs/secret", "sub/inner", `sub\inner`, "a\x00b", "a\nb", "/tdd"} {
		_, err := taskcontext.LoadWorkflow(ctx, ws, name)
		var e *taskdoc.Error
		require.ErrorAs(t, err, &e, "name %q", name)
		assert.Equal(t, taskdoc.CodeInvalidAddress, e.Code, "name %q", name)
	}
}

func TestLoadWorkflowDescription(t *testing.T) {
	const described = "---\ntitle: \"Multi-Option Trade-off\"\ndescription: \"Choose between approaches\"\nwhenToUse:\n  - \"Picking a cache\"\n  - \"Sync or async\"\n---\n\n# Multi-Option Trade-off\n"
	ws := loadWorkspace(t, map[string]string{
		"workflows/tradeoff.md": described,
		"workflows/single.md":   "---\nwhenToUse: one situation\n---\n# Single\n",
		"workflows/broken.md":   "---\ntitle: [unclosed\n---\n# Broken\n",
	})
	ctx := context.Background()

	wf, err := taskcontext.LoadWorkflow(ctx, ws, "tradeoff")
	require.NoError(t, err)
	assert.Equal(t, taskcontext.Workflow{
		Name: "tradeoff", Content: described,
		Title: "Multi-Option Trade-off", Description: "Choose between approaches",
		WhenToUse: []string{"Picking a cache", "Sync or async"},
	}, wf)

	wf, err = taskcontext.LoadWorkflow(ctx, ws, "single")
	require.NoError(t, err)
	assert.Equal(t, []string{"one situation"}, wf.WhenToUse)

	// Front matter that does not decode leaves the summary empty; the
	// workflow is still served whole.
	wf, err = taskcontext.LoadWorkflow(ctx, ws, "broken")
	require.NoError(t, err)
	assert.Equal(t, taskcontext.Workflow{Name: "broken", Content: "---\ntitle: [unclosed\n---\n# Broken\n"}, wf)
}

func TestLoadWorkflowRefusesSymlink(t *testing.T) {
	ws := loadWorkspace(t, map[string]string{"docs/target.md": "# Target\n"})
	symlink(t, ws, "workflows/linked.md", filepath.Join(ws.Root(), "docs/target.md"))
	_, err := taskcontext.LoadWorkflow(context.Background(), ws, "linked")
	assert.Equal(t, taskdoc.CodeSymlink, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), `workflow "linked"`)
}
