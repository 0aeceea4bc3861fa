package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// authDocument has one open and one completed task; the workspace has no
// coordinator list.
const authDocument = `# Authentication

Notes that no tool may touch.

## Tasks

### Implement JWT signing

- Status: completed
- Completed: 2026-11-01
- Note: done before

### Add token validation

- Status: pending

Validate tokens in middleware.
`

func errorFiles() map[string]string {
	files := scenarioFiles()
	files["docs/api/authentication.md"] = authDocument
	return files
}

// Every failure reaches the agent as a tool error whose text starts with its
// code, and changes no file.
func TestToolErrors(t *testing.T) {
	root := newRoot(t, errorFiles())
	c := startServer(t, root)
	const doc = "/api/authentication.md"
	noMainWorkflow := create("Research", "- Status: pending\n\nCompare options.")

	tests := []struct {
		name     string
		tool     string
		args     map[string]any
		code     string
		contains string
	}{
		// Addressing of the subagent tools.
		{"start without slug", "start_subagent_task", map[string]any{"document": doc}, "SUBAGENT_REQUIRES_SLUG", doc},
		{"complete without slug", "complete_subagent_task", map[string]any{"document": doc, "note": "n"}, "SUBAGENT_REQUIRES_SLUG", doc},
		{"coordinator path to start", "start_subagent_task", map[string]any{"document": "/coordinator/active.md#research"}, "INVALID_NAMESPACE_FOR_SUBAGENT", "/coordinator/"},
		{"coordinator path to complete", "complete_subagent_task", map[string]any{"document": "/coordinator/active.md#research", "note": "n"}, "INVALID_NAMESPACE_FOR_SUBAGENT", "/coordinator/"},
		{"coordinator path to subagent_task", "subagent_task", map[string]any{"document": "/coordinator/active.md", "operations": []any{noMainWorkflow}}, "INVALID_NAMESPACE_FOR_SUBAGENT", "/coordinator/"},
		{"unknown slug to start", "start_subagent_task", map[string]any{"document": doc + "#nope"}, "TASK_NOT_FOUND", "available: implement-jwt-signing, add-token-validation"},
		{"unknown slug to complete", "complete_subagent_task", map[string]any{"document": doc + "#nope", "note": "n"}, "TASK_NOT_FOUND", `"nope"`},
		{"unknown slug to edit", "subagent_task", map[string]any{"document": doc, "operations": []any{map[string]any{"operation": "edit", "task": "nope", "title": "T"}}}, "TASK_NOT_FOUND", `"nope"`},
		{"unknown document", "start_subagent_task", map[string]any{"document": "/api/missing.md#x"}, "DOCUMENT_NOT_FOUND", "/api/missing.md"},
		{"path leaving the root", "start_subagent_task", map[string]any{"document": "/../../etc/evil.md#x"}, "INVALID_ADDRESS", ""},
		{"completing twice", "complete_subagent_task", map[string]any{"document": doc + "#implement-jwt-signing", "note": "again"}, "INVALID_TRANSITION", "implement-jwt-signing"},
		// The status filter's enum refuses an unknown status before the tool runs.
		{"unknown status filter", "subagent_task", map[string]any{"document": doc, "operations": []any{map[string]any{"operation": "list", "status": "done"}}}, "INVALID_ARGUMENTS", "done"},

		// Slugs given to the coordinator tools.
		{"slug to start_coordinator_task", "start_coordinator_task", map[string]any{"document": "/coordinator/active.md#research"}, "COORDINATOR_NO_SLUG_ALLOWED", "#research"},
		{"slug to complete_coordinator_task", "complete_coordinator_task", map[string]any{"note": "n", "document": "#research"}, "COORDINATOR_NO_SLUG_ALLOWED", "#research"},
		{"subagent document to start_coordinator_task", "start_coordinator_task", map[string]any{"document": doc}, "INVALID_ADDRESS", doc},
		{"subagent task to coordinator edit", "coordinator_task", map[string]any{"operations": []any{map[string]any{"operation": "edit", "task": doc + "#add-token-validation", "title": "T"}}}, "INVALID_ADDRESS", doc},

		// Coordinator rules.
		{"first task without Main-Workflow", "coordinator_task", map[string]any{"operations": []any{noMainWorkflow}}, "MAIN_WORKFLOW_REQUIRED", ""},
		{"nothing to start", "start_coordinator_task", map[string]any{}, "NO_AVAILABLE_TASKS", ""},

		// Notes.
		{"empty note, subagent", "complete_subagent_task", map[string]any{"document": doc + "#add-token-validation", "note": ""}, "NOTE_REQUIRED", ""},
		{"blank note, subagent", "complete_subagent_task", map[string]any{"document": doc + "#add-token-validation", "note": " \n\t"}, "NOTE_REQUIRED", ""},
		{"empty note, coordinator", "complete_coordinator_task", map[string]any{"note": ""}, "NOTE_REQUIRED", ""},

		// Arguments refused by the input schema, before any handler runs.
		{"missing document", "start_subagent_task", map[string]any{}, "INVALID_ARGUMENTS", "document"},
		{"document not a string", "start_subagent_task", map[string]any{"document": 7}, "INVALID_ARGUMENTS", "document"},
		{"missing note", "complete_coordinator_task", map[string]any{}, "INVALID_ARGUMENTS", "note"},
		{"unknown argument", "complete_subagent_task", map[string]any{"document": doc + "#add-token-validation", "note": "n", "status": "done"}, "INVALID_ARGUMENTS", "status"},
		{"flag not a boolean", "start_coordinator_task", map[string]any{"return_task_context": "yes"}, "INVALID_ARGUMENTS", "return_task_context"},
		{"unknown operation", "coordinator_task", map[string]any{"operations": []any{map[string]any{"operation": "delete"}}}, "INVALID_ARGUMENTS", "delete"},
		{"clear is a coordinator operation", "subagent_task", map[string]any{"document": doc, "operations": []any{map[string]any{"operation": "clear"}}}, "INVALID_ARGUMENTS", "clear"},
		{"no operations", "coordinator_task", map[string]any{"operations": []any{}}, "INVALID_ARGUMENTS", "operations"},
		{"null operations", "subagent_task", map[string]any{"document": doc, "operations": nil}, "INVALID_ARGUMENTS", "operations"},
		{"unknown operation field", "subagent_task", map[string]any{"document": doc, "operations": []any{map[string]any{"operation": "list", "slug": "x"}}}, "INVALID_ARGUMENTS", "slug"},

		// Fields an operation does not take, refused before anything runs
		// (the first operation would have succeeded).
		{"status on a create", "subagent_task", map[string]any{"document": doc, "operations": []any{
			map[string]any{"operation": "list"},
			map[string]any{"operation": "create", "title": "T", "status": "pending"},
		}}, "INVALID_ARGUMENTS", "operation 2 (create) does not take [status]"},
		{"edit without task", "subagent_task", map[string]any{"document": doc, "operations": []any{map[string]any{"operation": "edit", "title": "T"}}}, "INVALID_ARGUMENTS", "needs task"},
		{"edit without change", "subagent_task", map[string]any{"document": doc, "operations": []any{map[string]any{"operation": "edit", "task": "add-token-validation"}}}, "INVALID_ARGUMENTS", "new title"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := filetest.Snapshot(t, root)
			msg := c.fail(tt.tool, tt.args)
			assert.True(t, strings.HasPrefix(msg, tt.code+": "), "want code %s, got %q", tt.code, msg)
			assert.Contains(t, msg, tt.contains)
			assert.Equal(t, before, filetest.Snapshot(t, root), "files changed")
		})
	}
}

// A batch stops at its first failing operation. Consecutive creates are one
// update, so none of them is written; operations_completed says how many
// operations were applied, and the structured content carries their results.
func TestBatchStopsAtFirstError(t *testing.T) {
	tests := []struct {
		name      string
		ops       []any
		completed int
		code      string
		failedOp  string
	}{
		{"creates are written together", []any{
			create("First", "Fine."),
			create("Add token validation", "Already exists."),
			create("Third", "Fine too."),
		}, 0, "DUPLICATE_TASK", "operations 1-3 (creates, written together: none of them was added)"},
		{"operations before the failure stay applied", []any{
			map[string]any{"operation": "list"},
			map[string]any{"operation": "edit", "task": "add-token-validation", "content": "- Status: blocked\n\nWaiting for keys."},
			create("", "No title."),
			map[string]any{"operation": "list"},
		}, 2, "INVALID_TASK", "operation 3 (create)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newRoot(t, errorFiles())
			c := startServer(t, root)
			res := c.call("subagent_task", map[string]any{"document": "/api/authentication.md", "operations": tt.ops})
			require.True(t, res.IsError, text(res))
			assert.True(t, strings.HasPrefix(text(res), tt.code+": "), text(res))
			assert.Contains(t, text(res), tt.failedOp)

			structured, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			var out batchJSON
			require.NoError(t, json.Unmarshal(structured, &out))
			assert.Equal(t, tt.completed, out.OperationsCompleted)
			require.Len(t, out.Results, tt.completed+1)
			for _, r := range out.Results[:tt.completed] {
				assert.Empty(t, r.Error)
			}
			assert.True(t, strings.HasPrefix(out.Results[tt.completed].Error, tt.code+": "), out.Results[tt.completed].Error)

			source := filetest.Read(t, root, "docs/api/authentication.md")
			assert.NotContains(t, source, "### First")
			assert.NotContains(t, source, "### Third")
			if tt.completed == 2 {
				assert.Contains(t, source, "- Status: blocked\n\nWaiting for keys.")
			} else {
				assert.Equal(t, authDocument, source)
			}
		})
	}
}
