package taskcontext_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskcontext"
)

// TestJSONNames pins the JSON form of what Load returns and of a Cut. A
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
		{"cut", taskcontext.Cut{Kind: "checkpoint detail", Name: "3", Tokens: 12},
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
