package subagent_test

import (
	"testing"

	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/workspace"
)

// TestNotOpen: tasks made on a nil or zero workspace answer every call
// with WORKSPACE_NOT_OPEN, not a nil dereference.
func TestNotOpen(t *testing.T) {
	zerotest.Methods(t, subagent.New(nil), "/a.md#x")
	zerotest.Methods(t, subagent.New(&workspace.Workspace{}), "/a.md#x")
}
