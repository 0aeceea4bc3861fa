package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// SetPlan refuses a dependency on a task of another document that does not
// exist (no such document, or no such task in it: TASK_NOT_FOUND naming
// it), and one that closes a cycle through other documents
// (DEPENDENCY_CYCLE naming it); nothing is written, not even the new plan.
func TestSetPlanCrossDocumentDependencies(t *testing.T) {
	c := newClock()
	side := "# Side\n\n## Tasks\n\n### X\n- Status: pending\n- Depends-On: /release.md#ship\n"
	p, root := setup(t, c, map[string]string{"docs/side.md": side})
	before := freeze(t, root)
	cases := []struct {
		dep  string
		code taskdoc.Code
		msg  string
	}{
		{"/plans/nope.md#z", taskdoc.CodeTaskNotFound, "depends on /plans/nope.md#z, but there is no document /plans/nope.md"},
		{"/side.md#nope", taskdoc.CodeTaskNotFound, `/side.md has no task "nope"`},
		{"/side.md#x", taskdoc.CodeDependencyCycle, "/release.md#ship -> /side.md#x -> /release.md#ship"},
	}
	for _, tc := range cases {
		_, err := p.SetPlan(ctx, "/release.md", []plan.PlannedTask{{Title: "Ship", DependsOn: []string{tc.dep}}})
		requireCode(t, err, tc.code, tc.dep)
		assert.Contains(t, err.Error(), tc.msg)
		requireUntouched(t, root, before, tc.dep)
	}
	tasks, err := p.SetPlan(ctx, "/release.md", []plan.PlannedTask{{Title: "Ship"}, {Title: "Announce", DependsOn: []string{"/side.md#x"}}})
	require.NoError(t, err)
	assert.Len(t, tasks, 2)
}
