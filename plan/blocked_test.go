package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

const waitingPlan = `# Release

## Tasks

### First
- Status: pending

### Second
- Status: pending
- Depends-On: #first, /other.md#x, /plans/nope.md#z
`

const sidePlan = "# Other\n\n## Tasks\n\n### X\n- Status: in_progress\n"

// A task whose dependencies are not all done cannot be claimed, moved to
// planning, in_progress or completed: each call is TASK_BLOCKED naming
// every unmet dependency with its status (or why it has none), and no
// file changes, the claims file included.
func TestDependenciesBlockClaimAndMoves(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/release.md": waitingPlan, "docs/other.md": sidePlan})
	me := register(t, p, "worker")
	const second = "/release.md#second"
	before := freeze(t, root)
	calls := map[string]func() error{
		"claim": func() error { _, err := p.Claim(ctx, second, me); return err },
		"set plan": func() error {
			_, err := p.SetApproach(ctx, second, plan.Claimant{}, "do it")
			return err
		},
	}
	for _, s := range []taskdoc.Status{taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusCompleted} {
		calls["to "+string(s)] = func() error {
			u := plan.StatusUpdate{Status: s}
			if s == taskdoc.StatusCompleted {
				u.Note = "done"
			}
			_, err := p.UpdateStatus(ctx, second, plan.Claimant{}, u)
			return err
		}
	}
	for name, call := range calls {
		err := call()
		requireCode(t, err, taskdoc.CodeTaskBlocked, name)
		assert.ErrorIs(t, err, taskdoc.ErrTaskBlocked, name)
		for _, want := range []string{"/release.md#first (pending)", "/other.md#x (in_progress)", "/plans/nope.md#z (no document)"} {
			assert.Contains(t, err.Error(), want, name)
		}
		requireUntouched(t, root, before, name)
	}

	// Moves that do not take the task up are not held back.
	_, err := p.UpdateStatus(ctx, second, plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusBlocked})
	require.NoError(t, err)
}

// Once every dependency is completed or skipped, the same calls succeed.
func TestDependenciesDoneAllowClaim(t *testing.T) {
	c := newClock()
	p, _ := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	me := register(t, p, "worker")
	_, err := p.Claim(ctx, "/auth.md#implement-jwt-signing", me)
	requireCode(t, err, taskdoc.CodeTaskBlocked)
	_, err = p.UpdateStatus(ctx, "/auth.md#setup-oauth", plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusSkipped})
	require.NoError(t, err)
	res, err := p.Claim(ctx, "/auth.md#implement-jwt-signing", me)
	require.NoError(t, err)
	require.True(t, res.Success)
	_, err = p.UpdateStatus(ctx, "/auth.md#implement-jwt-signing", plan.Claimant{Agent: me, Token: res.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
}

// A person may force the move (Claimant.Override): the task records the
// override in its Forced field, naming what was not done, and its later
// moves pass without forcing again.
func TestDependenciesForced(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	const jwt = "/auth.md#implement-jwt-signing"
	tk, err := p.UpdateStatus(ctx, jwt, plan.Person("alice"), plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusInProgress, tk.Status)
	assert.Equal(t, "taken up before its dependencies were done: /auth.md#setup-oauth (pending)",
		field(t, root, "docs/auth.md", "implement-jwt-signing", taskdoc.KeyForced))
	_, err = p.UpdateStatus(ctx, jwt, plan.Claimant{}, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "signed"})
	require.NoError(t, err)
}
