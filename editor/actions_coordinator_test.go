package editor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

const coordinatorList = `# Coordinator Tasks

## Tasks

### Design

- Status: completed
- Main-Workflow: tdd
- Completed: 2026-11-01
- Note: designed

### Build

- Status: pending

### Ship

- Status: pending
`

// actionNames are the names of acts.
func actionNames(acts []editor.Action) []editor.ActionName {
	var out []editor.ActionName
	for _, a := range acts {
		out = append(out, a.Name)
	}
	return out
}

// The coordinator's list is sequential: start only for the task its start
// takes, complete only for the task in progress, a slug optional for both.
func TestActionsCoordinatorIsSequential(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, map[string]string{coordinator.File: coordinatorList}, editor.WithClock(testClock))
	require.NoError(t, s.Open(ctx, coordinator.File, 1, coordinatorList))
	build := lineOf(t, coordinatorList, "### Build", 0)
	ship := lineOf(t, coordinatorList, "### Ship", 0)

	acts, err := s.Actions(ctx, coordinator.File, span(build, 0, build, 0))
	require.NoError(t, err)
	assert.Equal(t, []editor.ActionName{editor.ActionStart, editor.ActionBlock, editor.ActionAddTask}, actionNames(acts))
	acts, err = s.Actions(ctx, coordinator.File, span(ship, 0, ship, 0))
	require.NoError(t, err)
	assert.Equal(t, []editor.ActionName{editor.ActionBlock, editor.ActionAddTask}, actionNames(acts))

	_, err = s.Apply(ctx, editor.ActionRequest{Name: editor.ActionStart, Path: coordinator.File, Slug: "ship"})
	assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition)
	_, err = s.Apply(ctx, editor.ActionRequest{Name: editor.ActionComplete, Path: coordinator.File, Note: "x"})
	assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition, "nothing is in progress")
	_, err = s.Apply(ctx, editor.ActionRequest{Name: editor.ActionBlock, Path: coordinator.File})
	assert.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err))

	// Start without a slug takes "Build"; apply it as the editor does.
	de, err := s.Apply(ctx, editor.ActionRequest{Name: editor.ActionStart, Path: coordinator.File})
	require.NoError(t, err)
	flow := taskflow.Flow{Path: coordinator.Address, File: coordinator.File}
	doc, err := taskdoc.Parse([]byte(coordinatorList))
	require.NoError(t, err)
	want, _, err := flow.Start(doc, "build")
	require.NoError(t, err)
	started, err := editor.ApplyEdits(coordinatorList, de.Edits, editor.UTF16)
	require.NoError(t, err)
	require.Equal(t, string(want.Source), started)
	require.NoError(t, s.Change(coordinator.File, 2, []editor.Change{{Text: started}}))

	acts, err = s.Actions(ctx, coordinator.File, span(build, 0, build, 0))
	require.NoError(t, err)
	assert.Equal(t, []editor.ActionName{editor.ActionComplete, editor.ActionBlock, editor.ActionAddTask}, actionNames(acts))
	acts, err = s.Actions(ctx, coordinator.File, span(ship, 0, ship, 0))
	require.NoError(t, err)
	assert.Equal(t, []editor.ActionName{editor.ActionBlock, editor.ActionAddTask}, actionNames(acts))

	de, err = s.Apply(ctx, editor.ActionRequest{Name: editor.ActionComplete, Path: coordinator.File, Note: "built", Version: 2, CheckVersion: true})
	require.NoError(t, err)
	want, _, err = flow.Complete(want, "build", "built", testNow)
	require.NoError(t, err)
	got, err := editor.ApplyEdits(started, de.Edits, editor.UTF16)
	require.NoError(t, err)
	assert.Equal(t, string(want.Source), got, "the completion starts no other task")
}

func TestApplyCoordinatorMainWorkflow(t *testing.T) {
	ctx := context.Background()
	empty := "# Coordinator Tasks\n\n## Tasks\n"
	s, _ := newTestSession(t, map[string]string{coordinator.File: empty})
	acts, err := s.Actions(ctx, coordinator.File, span(2, 0, 2, 0))
	require.NoError(t, err)
	assert.Empty(t, acts, "a first task needs a Main-Workflow")
	_, err = s.Apply(ctx, editor.ActionRequest{Name: editor.ActionAddTask, Path: coordinator.File, Title: "First"})
	assert.Equal(t, taskdoc.CodeMainWorkflowRequired, taskdoc.CodeOf(err))
}

func TestArchive(t *testing.T) {
	ctx := context.Background()
	finished := strings.ReplaceAll(coordinatorList, "- Status: pending", "- Status: skipped")
	s, ws := newTestSession(t, map[string]string{coordinator.File: coordinatorList}, editor.WithClock(testClock))

	_, err := s.Archive(ctx)
	assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition, "work is left")
	acts, err := s.Actions(ctx, coordinator.File, span(0, 0, 0, 0))
	require.NoError(t, err)
	assert.Empty(t, acts)

	// Finished in the buffer, not on disk: save first.
	require.NoError(t, s.Open(ctx, coordinator.File, 1, finished))
	acts, err = s.Actions(ctx, coordinator.File, span(0, 0, 0, 0))
	require.NoError(t, err)
	require.Equal(t, []editor.ActionName{editor.ActionArchive}, actionNames(acts))
	assert.Empty(t, acts[0].Edits)
	_, err = s.Archive(ctx)
	assert.ErrorIs(t, err, taskdoc.ErrConflict)
	exists, err := ws.Exists(ctx, coordinator.File)
	require.NoError(t, err)
	assert.True(t, exists)

	// Saved: archived under the Session's clock.
	writeTestFiles(t, ws.Root(), map[string]string{coordinator.File: finished})
	require.NoError(t, s.Saved(coordinator.File))
	name, err := s.Archive(ctx)
	require.NoError(t, err)
	assert.Equal(t, "archived/coordinator/active-2026-11-23-093000.md", name)
	data, _, err := ws.Read(ctx, name)
	require.NoError(t, err)
	assert.Equal(t, finished, string(data))
	exists, err = ws.Exists(ctx, coordinator.File)
	require.NoError(t, err)
	assert.False(t, exists)

	_, err = s.Archive(ctx)
	assert.ErrorIs(t, err, taskdoc.ErrDocumentNotFound, "no list")
}
