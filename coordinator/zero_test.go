package coordinator_test

import (
	"testing"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/workspace"
)

// TestNotOpen: a list made on a nil or zero workspace answers every call
// with WORKSPACE_NOT_OPEN, not a nil dereference.
func TestNotOpen(t *testing.T) {
	zerotest.Methods(t, coordinator.New(nil), "x")
	zerotest.Methods(t, coordinator.New(&workspace.Workspace{}), "x")
}
