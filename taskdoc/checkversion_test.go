package taskdoc_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

func TestCheckVersion(t *testing.T) {
	task := taskdoc.Task{Slug: "one", Version: "v2"}
	assert.NoError(t, task.CheckVersion("/a.md", ""), "no version asked for")
	assert.NoError(t, task.CheckVersion("/a.md", "v2"))
	err := task.CheckVersion("/a.md", "v1")
	require.ErrorIs(t, err, taskdoc.ErrConflict)
	var e *taskdoc.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, "v2", e.Current)
	assert.Equal(t, "/a.md", e.Path)
	assert.Equal(t, "one", e.Slug)
	assert.Contains(t, e.Error(), "version v1, now v2")
}
