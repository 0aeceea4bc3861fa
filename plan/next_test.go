package plan_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestSetPlanDependencyCycle: a SetPlan whose dependencies close a cycle is
// DEPENDENCY_CYCLE naming it, and nothing is written, whether the plan
// exists or not.
func TestSetPlanDependencyCycle(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	for _, tc := range []struct {
		name  string
		plan  string
		tasks []plan.PlannedTask
		cycle string
	}{
		{"three new tasks", "/auth.md", []plan.PlannedTask{
			{Title: "Alpha", DependsOn: []string{"Gamma"}},
			{Title: "Beta", DependsOn: []string{"#alpha"}},
			{Title: "Gamma", DependsOn: []string{"Beta"}},
		}, "#alpha -> #gamma -> #beta -> #alpha"},
		{"itself", "/auth.md", []plan.PlannedTask{
			{Title: "Alpha", DependsOn: []string{"Alpha"}},
		}, "#alpha -> #alpha"},
		{"new plan", "/fresh.md", []plan.PlannedTask{
			{Title: "One", DependsOn: []string{"Two"}},
			{Title: "Two", DependsOn: []string{"One", "/auth.md#setup-oauth"}},
		}, "#one -> #two -> #one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := freeze(t, root)
			_, err := p.SetPlan(ctx, tc.plan, tc.tasks)
			requireCode(t, err, taskdoc.CodeDependencyCycle)
			assert.Contains(t, err.Error(), tc.cycle)
			requireUntouched(t, root, before, "a cycle")
		})
	}
}

// TestSetPlanUnknownDependency: a dependency that names no task of the
// plan is TASK_NOT_FOUND, and nothing is written.
func TestSetPlanUnknownDependency(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	before := freeze(t, root)
	for _, deps := range [][]string{{"#nowhere"}, {"Setup OAuth", "No Such Task"}} {
		_, err := p.SetPlan(ctx, "/auth.md", []plan.PlannedTask{{Title: "Deploy", DependsOn: deps}})
		requireCode(t, err, taskdoc.CodeTaskNotFound, "%v", deps)
		requireUntouched(t, root, before, "an unknown dependency")
	}
	_, err := p.SetPlan(ctx, "/new.md", []plan.PlannedTask{{Title: "Deploy", DependsOn: []string{"#setup-oauth"}}})
	requireCode(t, err, taskdoc.CodeTaskNotFound)
	requireUntouched(t, root, before, "an unknown dependency in a new plan")
}

const otherPlan = `# Other

## Tasks

### Pending thing
- Status: pending

### Done thing
- Status: completed
- Completed: 2026-11-20
- Note: done long ago
`

// orderPlan has one task of every kind NextTasks decides on, in an order
// that is not the order of their statuses.
const orderPlan = `# Order

## Tasks

### Last first
- Status: pending
- Depends-On: #base

### Base
- Status: completed
- Completed: 2026-11-22
- Note: base laid

### Free
- Status: pending

### Waits for base and free
- Status: pending
- Depends-On: #base, #free

### Waits for other pending
- Status: pending
- Depends-On: /other.md#pending-thing

### Waits for other done
- Status: pending
- Depends-On: /other.md#done-thing, #skipped

### Waits for a missing document
- Status: pending
- Depends-On: /missing.md#anything

### Waits for a missing task
- Status: pending
- Depends-On: /other.md#no-such-task

### Skipped
- Status: skipped

### Paused
- Status: paused

### Blocked
- Status: blocked

### Failed
- Status: failed
- Error: it broke

### Stranded in progress
- Status: in_progress
- Depends-On: #free
- Assignee: ag_gone

### Stranded planning
- Status: planning
- Plan: think first

### Held
- Status: in_progress
- Assignee: ag_live
`

// TestNextTasksOrderAndDependencies: pending tasks whose dependencies are
// done, in document order, with cross-document dependencies pending or
// completed and dependencies on what does not exist never done; stranded
// tasks offered as such; paused, blocked, failed, final and held tasks
// not offered.
func TestNextTasksOrderAndDependencies(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/order.md": orderPlan, "docs/other.md": otherPlan})
	gone := register(t, p, "gone")
	live := register(t, p, "live")
	// Hand the two held tasks to real agents: gone claims and goes
	// offline, live keeps its claim.
	for slug, who := range map[string]string{"stranded-in-progress": gone, "held": live} {
		res, err := p.Claim(ctx, "/order.md#"+slug, who)
		require.NoError(t, err)
		require.True(t, res.Success)
	}
	c.Add(2 * time.Minute)
	_, err := p.Agents().Heartbeat(ctx, live, agentInfo())
	require.NoError(t, err)

	next, err := p.NextTasks(ctx, "/order.md")
	require.NoError(t, err)
	want := []plan.NextTask{
		{ID: "/order.md#last-first", Title: "Last first", Status: taskdoc.StatusPending,
			DependsOn: []string{"/order.md#base"}, DependenciesCompleted: true, CanParallelize: true},
		{ID: "/order.md#free", Title: "Free", Status: taskdoc.StatusPending,
			DependenciesCompleted: true, CanParallelize: true},
		{ID: "/order.md#waits-for-other-done", Title: "Waits for other done", Status: taskdoc.StatusPending,
			DependsOn: []string{"/other.md#done-thing", "/order.md#skipped"}, DependenciesCompleted: true, CanParallelize: true},
		{ID: "/order.md#stranded-in-progress", Title: "Stranded in progress", Status: taskdoc.StatusInProgress,
			DependsOn: []string{"/order.md#free"}, DependenciesCompleted: false, CanParallelize: true,
			Stranded: true, PreviousHolder: gone},
		{ID: "/order.md#stranded-planning", Title: "Stranded planning", Status: taskdoc.StatusPlanning,
			DependenciesCompleted: true, CanParallelize: true, Stranded: true},
	}
	assert.Equal(t, want, next)

	// The other document's pending task completes: the task waiting for
	// it is offered; the ones waiting for what does not exist never are.
	_, err = p.UpdateStatus(ctx, "/other.md#pending-thing", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "ok"})
	require.NoError(t, err)
	// And the free task completes: the task waiting for base and free is
	// offered, the stranded one's dependencies are completed now.
	_, err = p.UpdateStatus(ctx, "/order.md#free", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "ok"})
	require.NoError(t, err)
	next, err = p.NextTasks(ctx, "/order.md")
	require.NoError(t, err)
	assert.Equal(t, []string{"/order.md#last-first", "/order.md#waits-for-base-and-free", "/order.md#waits-for-other-pending",
		"/order.md#waits-for-other-done", "/order.md#stranded-in-progress", "/order.md#stranded-planning"}, ids(next))
	assert.True(t, next[4].DependenciesCompleted)

	// The dependency on a missing document is listed, and not done.
	filetest.Write(t, root, "docs/order.md", "# Order\n\n## Tasks\n\n### Waits for a missing document\n- Depends-On: /missing.md#anything\n\n### Waits\n- Depends-On: #waits-for-a-missing-document\n")
	next, err = p.NextTasks(ctx, "/order.md")
	require.NoError(t, err)
	assert.Empty(t, next)
}

// TestNextTasksHints: CanParallelize says whether other work of the plan
// may go on at the same time; DependenciesCompleted is true for every
// offered pending task.
func TestNextTasksHints(t *testing.T) {
	c := newClock()
	chain := `# Chain

## Tasks

### One
- Status: pending

### Two
- Status: pending
- Depends-On: #one

### Side
- Status: blocked
`
	p, _ := setup(t, c, map[string]string{"docs/chain.md": chain})
	a := register(t, p, "a")

	next, err := p.NextTasks(ctx, "/chain.md")
	require.NoError(t, err)
	assert.Equal(t, []plan.NextTask{{ID: "/chain.md#one", Title: "One", Status: taskdoc.StatusPending,
		DependenciesCompleted: true, CanParallelize: false}}, next, "one task offered, nothing else going on")

	res, err := p.Claim(ctx, "/chain.md#one", a)
	require.NoError(t, err)
	next, err = p.NextTasks(ctx, "/chain.md")
	require.NoError(t, err)
	assert.Empty(t, next, "two waits for one, which a holds")

	// a completes one: two is offered, alone.
	me := plan.Claimant{Agent: a, Token: res.Claim.Token}
	_, err = p.UpdateStatus(ctx, "/chain.md#one", me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "one done"})
	require.NoError(t, err)
	next, err = p.NextTasks(ctx, "/chain.md")
	require.NoError(t, err)
	assert.Equal(t, []plan.NextTask{{ID: "/chain.md#two", Title: "Two", Status: taskdoc.StatusPending,
		DependsOn: []string{"/chain.md#one"}, DependenciesCompleted: true, CanParallelize: false}}, next,
		"the completed task's holder does not count as work going on")

	// The side task is unblocked and held by a: two can go on beside it.
	_, err = p.UpdateStatus(ctx, "/chain.md#side", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusPending})
	require.NoError(t, err)
	_, err = p.Claim(ctx, "/chain.md#side", a)
	require.NoError(t, err)
	next, err = p.NextTasks(ctx, "/chain.md")
	require.NoError(t, err)
	require.Len(t, next, 1)
	assert.True(t, next[0].CanParallelize, "side is held by an online agent")

	// a goes offline: side is offered again (pending, not stranded) beside two.
	c.Add(61 * time.Second)
	next, err = p.NextTasks(ctx, "/chain.md")
	require.NoError(t, err)
	assert.Equal(t, []plan.NextTask{
		{ID: "/chain.md#two", Title: "Two", Status: taskdoc.StatusPending, DependsOn: []string{"/chain.md#one"}, DependenciesCompleted: true, CanParallelize: true},
		{ID: "/chain.md#side", Title: "Side", Status: taskdoc.StatusPending, DependenciesCompleted: true, CanParallelize: true, PreviousHolder: a},
	}, next)
}

// TestNextTasksErrors: a plan that does not exist, an address that names
// a task; a Depends-On field that does not read keeps its pending task
// from being offered (never done), and does not hide the rest of the plan;
// a stranded task with such a field is offered all the same.
func TestNextTasksErrors(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{
		"docs/auth.md": authPlan,
		"docs/bad.md": "# Bad\n\n## Tasks\n\n### Broken\n- Depends-On: not an address\n\n### Fine\n- Status: pending\n\n" +
			"### Started\n- Status: in_progress\n- Depends-On: nor this\n",
	})
	before := freeze(t, root)
	_, err := p.NextTasks(ctx, "/nope.md")
	requireCode(t, err, taskdoc.CodeDocumentNotFound)
	_, err = p.NextTasks(ctx, "/auth.md#setup-oauth")
	requireCode(t, err, taskdoc.CodeInvalidAddress)
	next, err := p.NextTasks(ctx, "/bad.md")
	require.NoError(t, err)
	assert.Equal(t, []plan.NextTask{
		{ID: "/bad.md#fine", Title: "Fine", Status: taskdoc.StatusPending, DependenciesCompleted: true, CanParallelize: true},
		{ID: "/bad.md#started", Title: "Started", Status: taskdoc.StatusInProgress, DependenciesCompleted: false, CanParallelize: true, Stranded: true},
	}, next)
	requireUntouched(t, root, before, "NextTasks")
}

// One finished task's unreadable Depends-On does not hide the plan.
func TestNextTasksSkipsABadFieldOnAFinishedTask(t *testing.T) {
	src := "# P\n\n## Tasks\n\n### Old\n- Status: completed\n- Completed: 2026-01-01\n- Note: done\n- Depends-On: see the old tracker, item 12\n\n### New\n- Status: pending\n"
	p, _ := setup(t, newClock(), map[string]string{"docs/p.md": src})
	next, err := p.NextTasks(ctx, "/p.md")
	require.NoError(t, err)
	require.Len(t, next, 1)
	assert.Equal(t, "/p.md#new", next[0].ID)
}
