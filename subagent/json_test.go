package subagent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartedJSON marshals a real Start (workflow, nested references) and
// a Complete: the names are snake_case and no byte offset appears.
func TestStartedJSON(t *testing.T) {
	tasks, _ := setup(t, map[string]string{
		"docs/api/auth.md":   "# Auth\n\n## Tasks\n\n### Sign\n\n- Status: pending\n- Workflow: tdd\n\nSee @/specs/jwt.md.\n",
		"docs/specs/jwt.md":  "# JWT\n\nUses @/specs/keys.md.\n",
		"docs/specs/keys.md": "# Keys\n",
		"workflows/tdd.md":   "---\ndescription: tests first\n---\n# TDD\n",
	})
	ctx := context.Background()
	started, err := tasks.Start(ctx, "/api/auth.md#sign")
	require.NoError(t, err)
	got, err := json.Marshal(started)
	require.NoError(t, err)
	assert.JSONEq(t, `{"document":"/api/auth.md",
		"task":{"title":"Sign","slug":"sign","level":3,"status":"in_progress",
			"fields":[{"key":"Status","value":"in_progress"},{"key":"Workflow","value":"tdd"}],
			"body":"See @/specs/jwt.md.","references":[{"raw":"@/specs/jwt.md","path":"/specs/jwt.md"}],
			"line":5,"version":"`+started.Task.Version+`"},
		"workflow":{"name":"tdd","content":"---\ndescription: tests first\n---\n# TDD\n","description":"tests first"},
		"referenced_documents":[{"path":"/specs/jwt.md","title":"JWT","content":"# JWT\n\nUses @/specs/keys.md.\n","depth":1,
			"children":[{"path":"/specs/keys.md","title":"Keys","content":"# Keys\n","depth":2}]}]}`, string(got))

	done, err := tasks.Complete(ctx, "/api/auth.md#sign", "signed")
	require.NoError(t, err)
	got, err = json.Marshal(done)
	require.NoError(t, err)
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(got, &fields))
	assert.JSONEq(t, `"/api/auth.md"`, string(fields["document"]))
	assert.JSONEq(t, `"signed"`, string(fields["note"]))
	assert.JSONEq(t, `"2025-10-14"`, string(fields["completed_date"]))
	assert.NotContains(t, fields, "replayed", "false is left out")
	assert.Len(t, fields, 4, "document, task, note, completed_date: %s", got)
}
