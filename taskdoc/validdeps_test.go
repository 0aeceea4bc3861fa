package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestValidDependencies: an entry that is no task address is passed over,
// the others are read as Dependencies reads them.
func TestValidDependencies(t *testing.T) {
	task := taskdoc.Task{Slug: "b", Fields: []taskdoc.Field{{Key: taskdoc.KeyDependsOn, Value: "#a, not-an-address /api/x.md#c,,#"}}}
	_, err := task.Dependencies()
	require.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err))
	assert.Equal(t, []taskdoc.Dependency{{Slug: "a"}, {Document: "/api/x.md", Slug: "c"}}, task.ValidDependencies())

	none := taskdoc.Task{Slug: "c"}
	assert.Empty(t, none.ValidDependencies())
}
