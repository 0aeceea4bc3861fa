package taskflow_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestDependsOn(t *testing.T) {
	dep := taskdoc.Address{Path: "/api/auth.md", Slug: "keys"}
	for _, tt := range []struct {
		field string
		file  string // the document the task is in
		want  bool
	}{
		{"#keys", "docs/api/auth.md", true},
		{"#keys", "docs/other.md", false},
		{"/api/auth.md#keys", "docs/other.md", true},
		{"api/auth.md#keys", "docs/other.md", true},
		{"#keys, not-an-address", "docs/api/auth.md", true},
		{"??, /api/auth.md#keys", "docs/other.md", true},
		{"??, /api/auth.md#other", "docs/other.md", false},
		{"#keys#x", "docs/api/auth.md", false},
	} {
		task := &taskdoc.Task{Slug: "t", Fields: []taskdoc.Field{{Key: taskdoc.KeyDependsOn, Value: tt.field}}}
		assert.Equal(t, tt.want, taskflow.DependsOn(task, tt.file, dep), "%q in %s", tt.field, tt.file)
	}
	list := taskdoc.Address{Path: "/coordinator/active.md", Slug: "a"}
	task := &taskdoc.Task{Slug: "t", Fields: []taskdoc.Field{{Key: taskdoc.KeyDependsOn, Value: "/Coordinator/active.md#a"}}}
	assert.True(t, taskflow.DependsOn(task, "docs/x.md", list))
}

// Remove asks for the dependents elsewhere only when the checks before
// them passed and the removal is not forced, so a retry of a removal is
// TASK_NOT_FOUND and a failed scan fails the call.
func TestRemoveAsksElsewhere(t *testing.T) {
	doc, err := taskdoc.Parse([]byte("## Tasks\n\n### A\n\n### B\n\n- Depends-On: #a\n\n### C\n"))
	require.NoError(t, err)
	f := taskflow.Flow{Path: "/x.md", File: "docs/x.md"}
	asked := 0
	elsewhere := func(deps []string, err error) func() ([]string, error) {
		return func() ([]string, error) { asked++; return deps, err }
	}
	_, _, err = f.Remove(doc, "gone", taskdoc.Removal{}, elsewhere([]string{"/y.md#d"}, nil))
	assert.Equal(t, taskdoc.CodeTaskNotFound, taskdoc.CodeOf(err))
	_, _, err = f.Remove(doc, "a", taskdoc.Removal{Force: true}, elsewhere(nil, nil))
	assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err), "a dependent in the document")
	assert.Zero(t, asked)

	_, _, err = f.Remove(doc, "c", taskdoc.Removal{}, elsewhere([]string{"/y.md#d"}, nil))
	assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	assert.ErrorContains(t, err, "/y.md#d")
	_, _, err = f.Remove(doc, "c", taskdoc.Removal{}, elsewhere(nil, errors.New("disk on fire")))
	assert.Equal(t, taskdoc.CodeIO, taskdoc.CodeOf(err))
	assert.Equal(t, 2, asked)

	nd, removed, err := f.Remove(doc, "c", taskdoc.Removal{Force: true}, elsewhere([]string{"/y.md#d"}, nil))
	require.NoError(t, err)
	assert.Equal(t, "c", removed.Slug)
	assert.Len(t, nd.Tasks, 2)
	assert.Equal(t, 2, asked, "a forced removal reads no other document")
}
