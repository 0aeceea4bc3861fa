package workspace_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// TestNotOpen: a nil *Workspace and a zero Workspace{} answer every method
// with WORKSPACE_NOT_OPEN, and so does a Tx that Lock did not make.
func TestNotOpen(t *testing.T) {
	t.Run("nil", func(t *testing.T) { zerotest.Methods(t, (*workspace.Workspace)(nil), "docs/a.md") })
	t.Run("zero", func(t *testing.T) { zerotest.Methods(t, &workspace.Workspace{}, "docs/a.md") })
	t.Run("tx", func(t *testing.T) { zerotest.Methods(t, &workspace.Tx{}, "docs/a.md") })
	assert.ErrorIs(t, (*workspace.Workspace)(nil).Check(), taskdoc.ErrNotOpen)
	assert.Equal(t, "", (*workspace.Workspace)(nil).Root())
}
