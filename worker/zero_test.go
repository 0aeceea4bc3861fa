package worker_test

import (
	"testing"

	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

// TestNotOpen: pivots and clarifications made on a nil or zero workspace
// answer every call with WORKSPACE_NOT_OPEN, not a nil dereference.
func TestNotOpen(t *testing.T) {
	zerotest.Methods(t, worker.New(nil), "w1")
	zerotest.Methods(t, worker.New(&workspace.Workspace{}), "w1")
	zerotest.Methods(t, worker.NewClarifications(nil), "w1")
	zerotest.Methods(t, worker.NewClarifications(&workspace.Workspace{}), "w1")
}
