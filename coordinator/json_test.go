package coordinator_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestJSONNames pins the JSON form of the coordinator's results: the names
// the MCP tools use (completed_date, next_task, archived_to), an archive
// error as its message, no byte offsets.
func TestJSONNames(t *testing.T) {
	task := func(slug string, status taskdoc.Status) taskdoc.Task {
		return taskdoc.Task{Title: slug, Slug: slug, Level: 3, Status: status, Line: 5,
			Span: taskdoc.Span{Start: 1, End: 50}, HeadingSpan: taskdoc.Span{Start: 1, End: 9}, Version: "v-" + slug}
	}
	next := &coordinator.Started{
		Task:         task("two", taskdoc.StatusInProgress),
		MainWorkflow: &taskcontext.Workflow{Name: "main", Content: "M"},
		References:   []taskcontext.LoadedDocument{{Path: "/a.md", Title: "A", Content: "# A\n", Depth: 1}},
		Missing:      []string{"gone"},
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"started", next, `{"task":{"title":"two","slug":"two","level":3,"status":"in_progress","line":5,"version":"v-two"},
			"main_workflow":{"name":"main","content":"M"},
			"referenced_documents":[{"path":"/a.md","title":"A","content":"# A\n","depth":1}],
			"missing":["gone"]}`},
		{"completed with next", coordinator.Completed{Task: task("one", taskdoc.StatusCompleted), Note: "done", Date: "2026-11-22", Next: next},
			`{"task":{"title":"one","slug":"one","level":3,"status":"completed","line":5,"version":"v-one"},
			"note":"done","completed_date":"2026-11-22",
			"next_task":{"task":{"title":"two","slug":"two","level":3,"status":"in_progress","line":5,"version":"v-two"},
				"main_workflow":{"name":"main","content":"M"},
				"referenced_documents":[{"path":"/a.md","title":"A","content":"# A\n","depth":1}],"missing":["gone"]}}`},
		{"completed and archived", coordinator.Completed{Task: task("one", taskdoc.StatusCompleted), Note: "n", Date: "2026-11-22",
			ArchivedTo: "archived/coordinator/active-2026-11-22-093000.md", Replayed: true},
			`{"task":{"title":"one","slug":"one","level":3,"status":"completed","line":5,"version":"v-one"},"note":"n","completed_date":"2026-11-22",
			"archived_to":"archived/coordinator/active-2026-11-22-093000.md","replayed":true}`},
		{"archive failed", &coordinator.Completed{Task: task("one", taskdoc.StatusCompleted), Note: "n", Date: "2026-11-22",
			Blocked: []string{"b"}, ArchiveError: errors.New("disk full")},
			`{"task":{"title":"one","slug":"one","level":3,"status":"completed","line":5,"version":"v-one"},"note":"n","completed_date":"2026-11-22",
			"blocked":["b"],"archive_error":"disk full"}`},
		{"archived", coordinator.Archived{Name: "archived/coordinator/active-2026-11-22-093000.md", Time: time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)},
			`{"name":"archived/coordinator/active-2026-11-22-093000.md","time":"2026-11-22T09:30:00Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
