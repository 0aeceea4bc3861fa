package taskdoc_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestJSONNames pins the JSON form of the result types: snake_case names,
// no byte offsets, statuses as their words. A renamed field fails here.
func TestJSONNames(t *testing.T) {
	task := taskdoc.Task{
		Title:  "Implement JWT signing",
		Slug:   "implement-jwt-signing",
		Level:  3,
		Status: taskdoc.StatusInProgress,
		Fields: []taskdoc.Field{
			{Key: "Status", Value: "in_progress", Span: taskdoc.Span{Start: 40, End: 62}},
			{Key: "Workflow", Value: "tdd", Span: taskdoc.Span{Start: 62, End: 78}},
		},
		Body:        "See @/specs/jwt.md#keys.",
		References:  []taskdoc.Reference{{Raw: "@/specs/jwt.md#keys", Path: "/specs/jwt.md", Section: "keys"}},
		Line:        7,
		Span:        taskdoc.Span{Start: 12, End: 120},
		HeadingSpan: taskdoc.Span{Start: 12, End: 40},
		Version:     "v1a2b",
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"task", task, `{"title":"Implement JWT signing","slug":"implement-jwt-signing","level":3,"status":"in_progress",
			"fields":[{"key":"Status","value":"in_progress"},{"key":"Workflow","value":"tdd"}],
			"body":"See @/specs/jwt.md#keys.","references":[{"raw":"@/specs/jwt.md#keys","path":"/specs/jwt.md","section":"keys"}],
			"line":7,"version":"v1a2b"}`},
		{"bare task", taskdoc.Task{Title: "T", Slug: "t", Level: 3, Status: taskdoc.StatusPending, Line: 3, Version: "v"},
			`{"title":"T","slug":"t","level":3,"status":"pending","line":3,"version":"v"}`},
		{"reference without section", taskdoc.Reference{Raw: "@/a.md", Path: "/a.md"}, `{"raw":"@/a.md","path":"/a.md"}`},
		{"address", taskdoc.Address{Path: "/api/auth.md", Slug: "setup"}, `{"path":"/api/auth.md","slug":"setup"}`},
		{"document address", taskdoc.Address{Path: "/api/auth.md"}, `{"path":"/api/auth.md"}`},
		{"dependency", taskdoc.Dependency{Document: "/api/auth.md", Slug: "setup"}, `{"document":"/api/auth.md","slug":"setup"}`},
		{"same-document dependency", taskdoc.Dependency{Slug: "setup"}, `{"slug":"setup"}`},
		{"heading", taskdoc.Heading{Level: 2, Text: "Tasks", Slug: "tasks", Line: 5, Span: taskdoc.Span{Start: 1, End: 9}, TopLevel: true},
			`{"level":2,"text":"Tasks","slug":"tasks","line":5,"top_level":true}`},
		{"front matter", taskdoc.FrontMatter{Raw: []byte("---\na: 1\n---\n"), Format: "yaml", Values: map[string]any{"a": 1}, Err: errors.New("x")},
			`{"format":"yaml","values":{"a":1}}`},
		{"error", &taskdoc.Error{Code: taskdoc.CodeConflict, Path: "/a.md", Slug: "t", Current: "v2", Msg: "task changed", Offset: 9, Err: errors.New("cause")},
			`{"code":"CONFLICT","path":"/a.md","slug":"t","current":"v2","message":"task changed: cause"}`},
		{"parse error", &taskdoc.Error{Code: taskdoc.CodeParse, Path: "/a.md", Line: 2, Column: 3, Offset: 14, Excerpt: "- x"},
			`{"code":"PARSE_ERROR","path":"/a.md","line":2,"column":3,"excerpt":"- x","message":"parse error in /a.md (line 2, column 3: \"- x\")"}`},
		{"not found", &taskdoc.Error{Code: taskdoc.CodeTaskNotFound, Slug: "x", Available: []string{"a", "b"}},
			`{"code":"TASK_NOT_FOUND","slug":"x","available":["a","b"],"message":"task \"x\" not found; available: a, b"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}

// TestDocumentJSON marshals a parsed document: no source bytes and no
// spans, the outline and tasks by name.
func TestDocumentJSON(t *testing.T) {
	doc, err := taskdoc.Parse([]byte("# A\n\n## Tasks\n\n### One\n\n- Status: pending\n"))
	require.NoError(t, err)
	got, err := json.Marshal(doc)
	require.NoError(t, err)
	assert.JSONEq(t, `{"front_matter":{},
		"headings":[{"level":1,"text":"A","slug":"a","line":1,"top_level":true},
			{"level":2,"text":"Tasks","slug":"tasks","line":3,"top_level":true},
			{"level":3,"text":"One","slug":"one","line":5,"top_level":true}],
		"tasks_heading":{"level":2,"text":"Tasks","slug":"tasks","line":3,"top_level":true},
		"tasks":[{"title":"One","slug":"one","level":3,"status":"pending","fields":[{"key":"Status","value":"pending"}],"line":5,"version":"`+doc.Tasks[0].Version+`"}],
		"newline":"\n"}`, string(got))
}
