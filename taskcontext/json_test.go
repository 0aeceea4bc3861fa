package taskcontext_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskcontext"
)

// TestJSONNames pins the JSON form of what Load and Budgeted return. A
// renamed field fails here.
func TestJSONNames(t *testing.T) {
	wf := &taskcontext.Workflow{Name: "tdd", Content: "# TDD\n", Title: "TDD", Description: "tests first", WhenToUse: []string{"new code"}}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"workflow", wf, `{"name":"tdd","content":"# TDD\n","title":"TDD","description":"tests first","when_to_use":["new code"]}`},
		{"bare workflow", taskcontext.Workflow{Name: "x", Content: ""}, `{"name":"x","content":""}`},
		{"context", taskcontext.Context{
			MainWorkflow: wf,
			References: []taskcontext.LoadedDocument{{Path: "/a.md", Title: "A", Content: "# A\n", Depth: 1,
				Children: []taskcontext.LoadedDocument{{Path: "/b.md#s", Title: "S", Content: "## S\n", Depth: 2}}}},
			Missing: []string{"@/gone.md"},
		}, `{"main_workflow":{"name":"tdd","content":"# TDD\n","title":"TDD","description":"tests first","when_to_use":["new code"]},
			"referenced_documents":[{"path":"/a.md","title":"A","content":"# A\n","depth":1,
				"children":[{"path":"/b.md#s","title":"S","content":"## S\n","depth":2}]}],
			"missing":["@/gone.md"]}`},
		{"empty context", taskcontext.Context{}, `{}`},
		{"checkpoint", taskcontext.Checkpoint{Sequence: 2, Type: "progress", Time: time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC),
			Agent: "w1", Summary: "half", FilesChanged: []string{"a.go"}, Detail: "d"},
			`{"sequence":2,"type":"progress","time":"2026-11-22T09:30:00Z","agent":"w1","summary":"half","files_changed":["a.go"],"detail":"d"}`},
		{"outcome", taskcontext.Outcome{Task: "/a.md#x", Text: "done"}, `{"task":"/a.md#x","text":"done"}`},
		{"part", taskcontext.Part{Kind: taskcontext.KindReference, Name: "/a.md", Text: "t", Rank: 1, Shorten: true},
			`{"kind":"reference","name":"/a.md","text":"t","rank":1,"shorten":true}`},
		{"cut", taskcontext.Cut{Kind: taskcontext.KindCheckpointDetail, Name: "3", Tokens: 12},
			`{"kind":"checkpoint detail","name":"3","tokens":12,"shortened":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
