package taskflow_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestAtDecoratesOnce: the first At names the error's address; an At
// above it with the same address returns that very error, not a copy of a
// copy, so a failure is decorated once however many layers it crosses.
func TestAtDecoratesOnce(t *testing.T) {
	inner := &taskdoc.Error{Code: taskdoc.CodeTaskNotFound, Msg: `task "x" not found`}
	first := taskflow.At(inner, "/api/auth.md", "x")
	var e *taskdoc.Error
	require.True(t, errors.As(first, &e))
	assert.Equal(t, "/api/auth.md: task \"x\" not found", e.Msg)
	assert.Equal(t, "/api/auth.md", e.Path)
	assert.NotSame(t, inner, e, "the caller's error is not changed in place")

	again := taskflow.At(first, "/api/auth.md", "x")
	assert.Same(t, first, again, "a named error passes the layers above as it is")
	assert.Same(t, first, taskflow.At(first, "/api/auth.md", ""), "no slug: nothing to add")

	other := taskflow.At(first, "/api/other.md", "x")
	require.True(t, errors.As(other, &e))
	assert.Equal(t, "/api/other.md", e.Path, "another address is still named")
}
