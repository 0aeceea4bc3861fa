package agent_test

import (
	"testing"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/workspace"
)

// TestNotOpen: a registry made on a nil or zero workspace answers every
// call with WORKSPACE_NOT_OPEN, not a nil dereference.
func TestNotOpen(t *testing.T) {
	zerotest.Methods(t, agent.New(nil), "w1")
	zerotest.Methods(t, agent.New(&workspace.Workspace{}), "w1")
}
