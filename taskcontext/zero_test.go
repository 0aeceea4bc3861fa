package taskcontext_test

import (
	"testing"

	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/taskcontext"
)

// TestNotOpen: the loaders answer a nil workspace with WORKSPACE_NOT_OPEN,
// not a nil dereference.
func TestNotOpen(t *testing.T) {
	zerotest.Funcs(t, map[string]any{
		"Load":           taskcontext.Load,
		"LoadReferences": taskcontext.LoadReferences,
		"LoadWorkflow":   taskcontext.LoadWorkflow,
	}, "tdd")
}
