package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

const waitingList = `# Active

## Tasks

### Design
- Status: pending
- Main-Workflow: tdd-incremental-orchestration

### Build
- Status: pending
- Depends-On: /api.md#spec
`

const apiPlan = "# API\n\n## Tasks\n\n### Spec\n- Status: pending\n"

// Start of a list task whose dependency (in another document) is not done
// is TASK_BLOCKED and writes nothing; Complete of the task before it
// completes that one and leaves the blocked one pending (Blocked names it)
// instead of starting it.
func TestDependenciesBlockCoordinatorStart(t *testing.T) {
	list, _, root := openList(t, map[string]string{activeFile: waitingList, "docs/api.md": apiPlan})
	_, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	done, err := list.Complete(bg, "designed", coordinator.CompleteOptions{})
	require.NoError(t, err)
	assert.Nil(t, done.Next)
	assert.Equal(t, []string{"build"}, done.Blocked)
	assert.Equal(t, taskdoc.StatusPending, statuses(t, root, activeFile)["build"])

	before := filetest.Snapshot(t, root)
	_, err = list.Start(bg, coordinator.StartOptions{})
	e := requireCode(t, err, taskdoc.CodeTaskBlocked)
	assert.Contains(t, e.Error(), "/api.md#spec (pending)")
	_, err = list.SetStatus(bg, "build", taskdoc.StatusInProgress, "")
	requireCode(t, err, taskdoc.CodeTaskBlocked)
	assert.Equal(t, before, filetest.Snapshot(t, root))

	st, err := list.Start(bg, coordinator.StartOptions{Force: true})
	require.NoError(t, err)
	assert.Equal(t, "build", st.Task.Slug)
	assert.Equal(t, "taken up before its dependencies were done: /api.md#spec (pending)", field(t, st.Task, taskdoc.KeyForced))
}

// Create and Edit of list tasks refuse a dependency on a task that does
// not exist in another document (TASK_NOT_FOUND naming it), writing
// nothing.
func TestCoordinatorDependencyNotFound(t *testing.T) {
	list, _, root := openList(t, map[string]string{activeFile: waitingList, "docs/api.md": apiPlan})
	before := filetest.Snapshot(t, root)
	_, err := list.Create(bg, taskdoc.NewTask{Title: "Ship", Content: "- Depends-On: /plans/nope.md#z"})
	e := requireCode(t, err, taskdoc.CodeTaskNotFound)
	assert.Contains(t, e.Error(), "/plans/nope.md#z")
	_, err = list.Edit(bg, "build", taskdoc.Edit{Content: "- Status: pending\n- Depends-On: /api.md#nope\n"})
	e = requireCode(t, err, taskdoc.CodeTaskNotFound)
	assert.Equal(t, []string{"spec"}, e.Available)
	assert.Equal(t, before, filetest.Snapshot(t, root))
}
