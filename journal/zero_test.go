package journal_test

import (
	"testing"

	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/workspace"
)

// TestNotOpen: journals made on a nil or zero workspace answer every call
// with WORKSPACE_NOT_OPEN, not a nil dereference.
func TestNotOpen(t *testing.T) {
	zerotest.Methods(t, journal.New(nil), "/a.md#x")
	zerotest.Methods(t, journal.New(&workspace.Workspace{}), "/a.md#x")
}
