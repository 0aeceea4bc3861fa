package subagent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestConflictCarriesCurrentVersion: an edit or a removal refused because
// the task changed since it was read names the version it has now, and a
// retry with that version goes through.
func TestConflictCarriesCurrentVersion(t *testing.T) {
	ctx := context.Background()
	tasks, root := setup(t, map[string]string{
		"docs/a.md": "# A\n\n## Tasks\n\n### One\n\n- Status: pending\n\nFirst.\n\n### Two\n\n- Status: pending\n",
	})
	read, err := tasks.View(ctx, "/a.md", "one")
	require.NoError(t, err)
	old := read[0].Version
	changed, err := tasks.Edit(ctx, "/a.md#one", taskdoc.Edit{Content: "- Status: pending\n\nChanged.", IfVersion: old})
	require.NoError(t, err)
	require.NotEqual(t, old, changed.Version)

	before := filetest.Read(t, root, "docs/a.md")
	_, err = tasks.Edit(ctx, "/a.md#one", taskdoc.Edit{Content: "- Status: pending\n\nMine.", IfVersion: old})
	var e *taskdoc.Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, taskdoc.CodeConflict, e.Code)
	assert.Equal(t, changed.Version, e.Current)
	assert.Equal(t, "one", e.Slug)
	_, err = tasks.Remove(ctx, "/a.md#one", taskdoc.Removal{IfVersion: old})
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, taskdoc.CodeConflict, e.Code)
	assert.Equal(t, changed.Version, e.Current)
	assert.Equal(t, before, filetest.Read(t, root, "docs/a.md"), "a refused call writes nothing")

	again, err := tasks.Edit(ctx, "/a.md#one", taskdoc.Edit{Content: "- Status: pending\n\nMine.", IfVersion: e.Current})
	require.NoError(t, err)
	assert.Equal(t, "Mine.", again.Body)
}
