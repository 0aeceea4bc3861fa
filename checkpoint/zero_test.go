package checkpoint_test

import (
	"testing"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/workspace"
)

// TestNotOpen: worker checkpoints made on a nil or zero workspace answer
// every call with WORKSPACE_NOT_OPEN, not a nil dereference.
func TestNotOpen(t *testing.T) {
	zerotest.Methods(t, checkpoint.New(nil), "w1")
	zerotest.Methods(t, checkpoint.New(&workspace.Workspace{}), "w1")
}
