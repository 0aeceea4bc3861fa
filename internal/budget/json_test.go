package budget_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/budget"
)

// TestJSONNames pins the JSON form of what Budgeted reads and returns. A
// renamed field fails here.
func TestJSONNames(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"checkpoint", budget.Checkpoint{Sequence: 2, Type: "progress", Time: time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC),
			Agent: "w1", Summary: "half", FilesChanged: []string{"a.go"}, Detail: "d"},
			`{"sequence":2,"type":"progress","time":"2026-11-22T09:30:00Z","agent":"w1","summary":"half","files_changed":["a.go"],"detail":"d"}`},
		{"outcome", budget.Outcome{Task: "/a.md#x", Text: "done"}, `{"task":"/a.md#x","text":"done"}`},
		{"part", budget.Part{Kind: budget.KindReference, Name: "/a.md", Text: "t", Rank: 1, Shorten: true},
			`{"kind":"reference","name":"/a.md","text":"t","rank":1,"shorten":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
