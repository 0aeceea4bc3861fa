package budget_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// parseTask parses one task with the given metadata and body, as a
// document would hold it.
func parseTask(t testing.TB, content string) *taskdoc.Task {
	t.Helper()
	doc, err := taskdoc.Parse([]byte("# Plan\n\n## Tasks\n\n### Do it\n\n" + content))
	require.NoError(t, err)
	require.Len(t, doc.Tasks, 1)
	return &doc.Tasks[0]
}
