package mcptools

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// A planned task's field that the plan would not read back as its field
// is refused before anything is written: a key longer than a metadata
// key may be (64 characters). The longest key is written, and the same
// call again is a retry that writes nothing.
func TestSetPlanFieldsReadBack(t *testing.T) {
	root := t.TempDir()
	s := serveSessions(t, root, newManualClock().Now, 1)[0]
	const plan = "/auth.md"
	s.ok("workflow_create", map[string]any{"name": "Auth", "path": plan}, nil)
	before := filetest.Snapshot(t, root)
	for _, fields := range []map[string]any{
		{strings.Repeat("K", 65): "v"},
	} {
		args := map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "Sign tokens", "fields": fields}}}
		assert.Equal(t, "INVALID_ARGUMENTS", s.fail("workflow_set_plan", args), "%v", fields)
		assert.Equal(t, before, filetest.Snapshot(t, root), "%v wrote", fields)
	}

	longest := strings.Repeat("K", 64)
	args := map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "Sign tokens", "fields": map[string]any{longest: "v"}}}}
	s.ok("workflow_set_plan", args, nil)
	written := filetest.Read(t, root, "docs/auth.md")
	assert.Contains(t, written, "- "+longest+": v\n")
	s.ok("workflow_set_plan", args, nil)
	assert.Equal(t, written, filetest.Read(t, root, "docs/auth.md"), "a retry writes nothing")
}

// Blocked is a field the task systems keep (SetStatus records why a
// blocked task waits in it, and a move out of blocked removes it): a
// planned task cannot be given it, in any case, and nothing is written.
func TestSetPlanRefusesBlockedField(t *testing.T) {
	root := t.TempDir()
	s := serveSessions(t, root, newManualClock().Now, 1)[0]
	const plan = "/auth.md"
	s.ok("workflow_create", map[string]any{"name": "Auth", "path": plan}, nil)
	before := filetest.Snapshot(t, root)
	for _, key := range []string{"Blocked", "blocked"} {
		args := map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "Sign tokens", "fields": map[string]any{key: "waiting for keys"}}}}
		_, toolErr, err := s.try("workflow_set_plan", args)
		assert.NoError(t, err)
		assert.True(t, strings.HasPrefix(toolErr, "INVALID_ARGUMENTS: "), "%s: %s", key, toolErr)
		assert.Contains(t, toolErr, "the task systems' own", key)
		assert.Equal(t, before, filetest.Snapshot(t, root), "%s wrote", key)
	}
}

// The agent protocol's files_likely_affected may be an empty list, and
// its parallel_group and repository_path empty: no field is written for
// them, where the call was INVALID_ARGUMENTS ("has no value").
func TestSetPlanEmptyProtocolFields(t *testing.T) {
	root := t.TempDir()
	s := serveSessions(t, root, newManualClock().Now, 1)[0]
	args := map[string]any{"workflow_id": "/auth.md", "tasks": []map[string]any{{"name": "Sign tokens",
		"files_likely_affected": []string{}, "parallel_group": "", "repository_path": "", "estimated_complexity": "low"}}}
	s.ok("workflow_set_plan", args, nil)
	want := "# Auth\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n- Complexity: low\n"
	assert.Equal(t, want, filetest.Read(t, root, "docs/auth.md"))
	s.ok("workflow_set_plan", args, nil)
	assert.Equal(t, want, filetest.Read(t, root, "docs/auth.md"), "a retry writes nothing")
}
