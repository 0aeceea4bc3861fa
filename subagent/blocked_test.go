package subagent_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

const waiting = `# Release

## Tasks

### First
- Status: pending

### Second
- Status: pending
- Depends-On: #first, /other.md#x
`

// Start, Complete and SetStatus refuse to take up a task
// whose dependencies are not all done (TASK_BLOCKED naming each with its
// status), and write nothing.
func TestDependenciesBlockStartAndMoves(t *testing.T) {
	s, root := setup(t, map[string]string{
		"docs/release.md": waiting,
		"docs/other.md":   "# Other\n\n## Tasks\n\n### X\n- Status: completed\n- Completed: 2025-10-01\n- Note: done\n",
	})
	const second = "/release.md#second"
	before := filetest.Snapshot(t, root)
	calls := map[string]func() error{
		"start":    func() error { _, err := s.Start(bg, second); return err },
		"complete": func() error { _, err := s.Complete(bg, second, "done"); return err },
		"planning": func() error { _, err := s.SetStatus(bg, second, taskdoc.StatusPlanning, ""); return err },
		"set":      func() error { _, err := s.SetStatus(bg, second, taskdoc.StatusInProgress, ""); return err },
	}
	for name, call := range calls {
		err := call()
		require.ErrorIs(t, err, taskdoc.ErrTaskBlocked, name)
		assert.Contains(t, err.Error(), "/release.md#first (pending)", name)
		assert.NotContains(t, err.Error(), "/other.md#x", name+": a completed dependency is not named")
		assert.Equal(t, before, filetest.Snapshot(t, root), name)
	}

	_, err := s.Complete(bg, "/release.md#first", "first done")
	require.NoError(t, err)
	st, err := s.Start(bg, second)
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusInProgress, st.Task.Status)
	_, forced := st.Task.Field(taskdoc.KeyForced)
	assert.False(t, forced)
}

// A person's override (WithOverride) starts the task anyway and records
// it in the task's Forced field; the later Complete passes.
func TestDependenciesForcedStart(t *testing.T) {
	_, root := setup(t, map[string]string{"docs/release.md": waiting})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	s := subagent.New(ws, subagent.WithOverride("alice"))
	st, err := s.Start(bg, "/release.md#second")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusInProgress, st.Task.Status)
	v, _ := st.Task.Field(taskdoc.KeyForced)
	assert.Equal(t, "taken up before its dependencies were done: /release.md#first (pending), /other.md#x (no document)", v)
	assert.True(t, strings.Contains(filetest.Read(t, root, "docs/release.md"), "- Forced: taken up before"))
	_, err = s.Complete(bg, "/release.md#second", "done anyway")
	require.NoError(t, err)
}
