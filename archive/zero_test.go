package archive_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/archive"
	"github.com/taskmd/taskmd/internal/testkit/zerotest"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestNotOpen: the functions of archive answer a nil workspace with
// WORKSPACE_NOT_OPEN, not a nil dereference.
func TestNotOpen(t *testing.T) {
	zerotest.Funcs(t, map[string]any{
		"Coordinator": archive.Coordinator,
		"Recover":     archive.Recover,
		"List":        archive.List,
		"Read":        archive.Read,
		"Document":    archive.Document,
	}, "/a.md")
	// Documents lists through query.Archived, which opens the root by its
	// path: a nil workspace is a typed error there, not yet NOT_OPEN.
	_, err := archive.Documents(context.Background(), nil)
	var e *taskdoc.Error
	assert.True(t, errors.As(err, &e), "%v", err)
}
