package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// The view tools take the task lists the way task-list agents
// write them: view_coordinator_task {slug: "a,b"} and
// view_subagent_task {document: "/doc.md#a,b"}, besides the slugs list.
func TestViewTakesCommaSeparatedSlugs(t *testing.T) {
	root := newRoot(t, scenarioFiles())
	c := startServer(t, root)
	var batch batchJSON
	c.ok("coordinator_task", map[string]any{"operations": []any{
		create("Phase 1", "- Main-Workflow: tdd-incremental-orchestration\n- Workflow: multi-option-tradeoff\n\nResearch."),
		create("Phase 2", "Build."),
		create("Phase 3", "Ship."),
	}}, &batch)
	c.ok("subagent_task", map[string]any{"document": "/api/auth.md", "operations": []any{
		create("Sign", "Sign tokens."),
		create("Verify", "Verify tokens."),
		create("Refresh", "Refresh tokens."),
	}}, &batch)

	tests := []struct {
		name  string
		tool  string
		args  map[string]any
		slugs []string
	}{
		{"coordinator slug list", "view_coordinator_task", map[string]any{"slug": "phase-3, phase-1"}, []string{"phase-3", "phase-1"}},
		{"coordinator one slug", "view_coordinator_task", map[string]any{"slug": "phase-2"}, []string{"phase-2"}},
		{"coordinator slugs", "view_coordinator_task", map[string]any{"slugs": []string{"phase-2", "phase-1"}}, []string{"phase-2", "phase-1"}},
		{"coordinator all", "view_coordinator_task", map[string]any{}, []string{"phase-1", "phase-2", "phase-3"}},
		{"subagent address list", "view_subagent_task", map[string]any{"document": "/api/auth.md#refresh,sign"}, []string{"refresh", "sign"}},
		{"subagent slugs with commas", "view_subagent_task", map[string]any{"document": "/api/auth.md", "slugs": []string{"verify,sign"}}, []string{"verify", "sign"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var view viewJSON
			c.ok(tt.tool, tt.args, &view)
			var got []string
			for _, task := range view.Tasks {
				got = append(got, task.Slug)
			}
			assert.Equal(t, tt.slugs, got)
			assert.Equal(t, len(tt.slugs), view.Count)
		})
	}

	// The detail fields of the reference server's view.
	var view viewJSON
	c.ok("view_coordinator_task", map[string]any{"slug": "phase-1,phase-2"}, &view)
	require.Len(t, view.Tasks, 2)
	first, second := view.Tasks[0], view.Tasks[1]
	assert.True(t, first.HasWorkflow)
	assert.Equal(t, "multi-option-tradeoff", first.WorkflowName)
	assert.Equal(t, "tdd-incremental-orchestration", first.MainWorkflowName)
	assert.Equal(t, 7, first.WordCount, first.Content) // "- Main-Workflow: tdd-... - Workflow: multi-... Research."
	assert.False(t, second.HasWorkflow)
	assert.Empty(t, second.WorkflowName)

	// An unknown slug in a list is the usual error.
	msg := c.fail("view_coordinator_task", map[string]any{"slug": "phase-1,nope"})
	assert.Regexp(t, `^TASK_NOT_FOUND: `, msg)
}

// An agent that writes the docs/ folder into an address, as other
// task servers want it, is told the address it probably meant,
// and nothing changes.
func TestDocsPrefixHint(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/api/auth.md": "# Auth\n\n## Tasks\n\n### Sign\n\n- Status: pending\n\nSign tokens.\n"})
	before := filetest.Snapshot(t, root)
	c := startServer(t, root)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"start_subagent_task", map[string]any{"document": "/docs/api/auth.md#sign"}, "did you mean /api/auth.md#sign?"},
		{"complete_subagent_task", map[string]any{"document": "/docs/api/auth.md#sign", "note": "Done."}, "did you mean /api/auth.md#sign?"},
		{"view_subagent_task", map[string]any{"document": "/docs/api/auth.md"}, "did you mean /api/auth.md?"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			msg := c.fail(tt.tool, tt.args)
			assert.Regexp(t, `^DOCUMENT_NOT_FOUND: `, msg)
			assert.Contains(t, msg, tt.want)
		})
	}
	// A document that is missing without the prefix gets no hint.
	assert.NotContains(t, c.fail("start_subagent_task", map[string]any{"document": "/api/nope.md#sign"}), "did you mean")
	assert.Equal(t, before, filetest.Snapshot(t, root))
}
