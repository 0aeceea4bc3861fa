package taskdoc_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestTOMLFrontMatterValues pins what the TOML decoder (BurntSushi/toml
// v1) gives for each kind of value, and where its errors point.
func TestTOMLFrontMatterValues(t *testing.T) {
	fm, err := taskdoc.ParseFrontMatter([]byte("+++\ntitle = \"JWT\"\ncount = 3\nratio = 0.5\ndone = true\ntags = [\"a\", \"b\"]\nwhen = 2026-11-22T09:30:00Z\n[owner]\nname = \"x\"\n+++\n# Doc\n"))
	require.NoError(t, err)
	assert.Equal(t, "toml", fm.Format)
	assert.Equal(t, map[string]any{
		"title": "JWT", "count": int64(3), "ratio": 0.5, "done": true,
		"tags":  []any{"a", "b"},
		"when":  time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC),
		"owner": map[string]any{"name": "x"},
	}, fm.Values)

	fm, err = taskdoc.ParseFrontMatter([]byte("+++\ntitle = \"JWT\"\ncount = = 3\n+++\n"))
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, taskdoc.CodeParse, e.Code)
	assert.Equal(t, 3, e.Line, "the line the decoder names: %v", err)
	assert.Nil(t, fm.Values)
}
