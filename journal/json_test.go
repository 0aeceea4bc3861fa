package journal_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/journal"
)

// TestJSONNames pins the JSON form of journal entries.
func TestJSONNames(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"entry", journal.Entry{Sequence: 3, Time: at, Agent: "w1", Type: journal.Type("progress"), Summary: "half",
			Detail: "log", FilesChanged: []string{"a.go"}, Key: "k1"},
			`{"sequence":3,"time":"2026-11-22T09:30:00Z","agent":"w1","type":"progress","summary":"half","detail":"log","files_changed":["a.go"],"key":"k1"}`},
		{"bare entry", journal.Entry{Sequence: 1, Time: at, Type: journal.Type("plan"), Summary: "s"},
			`{"sequence":1,"time":"2026-11-22T09:30:00Z","type":"plan","summary":"s"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
