package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestLeaseRunsOutAfterTimeout: a holder that stops heartbeating keeps its
// task up to and including the timeout after its last heartbeat, and loses
// it to another agent a moment later; with WithAgentTimeout the lease is
// that long. The take-over is recorded, and every write the old holder
// makes with its claim is STALE_CLAIM, with nothing written.
func TestLeaseRunsOutAfterTimeout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration // 0: the default
		lease   time.Duration
	}{
		{"default", 0, 60 * time.Second},
		{"WithAgentTimeout", 7 * time.Second, 7 * time.Second},
		{"WithAgentTimeout long", 10 * time.Minute, 10 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			_, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
			var opts []plan.Option
			if tc.timeout > 0 {
				opts = append(opts, plan.WithAgentTimeout(tc.timeout))
			}
			p := openWith(t, root, c, opts...)
			a := register(t, p, "a")
			b := register(t, p, "b")
			const task = "/auth.md#setup-oauth"

			// a works a while, heartbeating, then goes quiet.
			res, err := p.Claim(ctx, task, a)
			require.NoError(t, err)
			require.True(t, res.Success)
			ca := plan.Claimant{Agent: a, Token: res.Claim.Token}
			_, err = p.UpdateStatus(ctx, task, ca, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
			require.NoError(t, err)
			c.Add(3 * time.Second)
			_, err = p.Agents().Heartbeat(ctx, a, agent.HeartbeatInfo{CurrentTask: task, Status: "busy"})
			require.NoError(t, err)
			lastBeat := c.Now()

			beatB := func() {
				_, err := p.Agents().Heartbeat(ctx, b, agent.HeartbeatInfo{Status: "idle"})
				require.NoError(t, err)
			}
			// Just before the lease runs out, and exactly at its end, a
			// still holds the task.
			for _, at := range []time.Duration{tc.lease - time.Second, tc.lease - time.Nanosecond, tc.lease} {
				c.Add(lastBeat.Add(at).Sub(c.Now()))
				beatB()
				lost, err := p.Claim(ctx, task, b)
				require.NoError(t, err)
				assert.Equal(t, plan.ClaimResult{AlreadyClaimedBy: a}, lost, "%v after the last heartbeat", at)
				next, err := p.NextTasks(ctx, "/auth.md")
				require.NoError(t, err)
				assert.Equal(t, []string{"/auth.md#write-docs"}, ids(next), "a's task is not offered while it is online")
				prog, err := p.Progress(ctx, "/auth.md")
				require.NoError(t, err)
				assert.Equal(t, []plan.TaskState{{ID: task, Title: "Setup OAuth", Status: taskdoc.StatusInProgress, Holder: a, HolderOnline: true}}, prog.Current)
			}
			assert.Equal(t, int64(1), claimsOf(t, root, "docs/auth.md").LastToken, "a refused claim uses no token")

			// A nanosecond later it is over.
			c.Add(time.Nanosecond)
			beatB()
			prog, err := p.Progress(ctx, "/auth.md")
			require.NoError(t, err)
			assert.Equal(t, []plan.TaskState{{ID: task, Title: "Setup OAuth", Status: taskdoc.StatusInProgress, Holder: a}}, prog.Current)
			next, err := p.NextTasks(ctx, "/auth.md")
			require.NoError(t, err)
			require.Equal(t, []string{task, "/auth.md#write-docs"}, ids(next))
			assert.True(t, next[0].Stranded)
			assert.Equal(t, a, next[0].PreviousHolder)

			took, err := p.Claim(ctx, task, b)
			require.NoError(t, err)
			want := &plan.Claim{Task: task, Agent: b, Token: 2, Claimed: c.Now(), TookOverFrom: a}
			assert.Equal(t, plan.ClaimResult{Success: true, Claim: want}, took)
			st := claimsOf(t, root, "docs/auth.md")
			assert.Equal(t, int64(2), st.LastToken)
			assert.Equal(t, a, st.Tasks["setup-oauth"].TookOverFrom)
			assert.Equal(t, b, st.Tasks["setup-oauth"].Agent)
			assert.Equal(t, b, field(t, root, "docs/auth.md", "setup-oauth", taskdoc.KeyAssignee))
			assert.Equal(t, taskdoc.StatusInProgress, taskOf(t, root, "docs/auth.md", "setup-oauth").Status, "the task stays in progress for its new holder")

			// a wakes up, heartbeats (it is online again) and carries on
			// with its old claim: every write is refused and nothing
			// changes on disk.
			_, err = p.Agents().Heartbeat(ctx, a, agent.HeartbeatInfo{CurrentTask: task, Status: "busy"})
			require.NoError(t, err)
			before := freeze(t, root)
			requireStale(t, p, task, ca, b)
			requireStale(t, p, task, plan.Claimant{Agent: a}, b) // no token: b holds it
			again, err := p.Claim(ctx, task, a)
			require.NoError(t, err)
			assert.Equal(t, plan.ClaimResult{AlreadyClaimedBy: b}, again, "b is online: a cannot take it back")
			requireUntouched(t, root, before, "the old holder's writes")

			// b's claim works.
			cb := plan.Claimant{Agent: b, Token: took.Claim.Token}
			_, err = p.SetApproach(ctx, task, cb, "resume from the journal")
			require.NoError(t, err)
			_, err = p.AddEntry(ctx, task, cb, journal.Entry{Type: journal.TypeRecovery, Summary: "picked up"})
			require.NoError(t, err)
		})
	}
}

// requireStale checks that every write of c on task is STALE_CLAIM naming
// holder, the agent that took it over.
func requireStale(t *testing.T, p *plan.Plans, task string, c plan.Claimant, holder string) {
	t.Helper()
	check := func(op string, err error) {
		t.Helper()
		requireCode(t, err, plan.CodeStaleClaim, op)
		assert.Contains(t, err.Error(), holder, "%s: the error says who holds the task", op)
	}
	_, err := p.UpdateStatus(ctx, task, c, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done by the old holder"})
	check("UpdateStatus completed", err)
	_, err = p.UpdateStatus(ctx, task, c, plan.StatusUpdate{Status: taskdoc.StatusPaused})
	check("UpdateStatus paused", err)
	_, err = p.UpdateStatus(ctx, task, c, plan.StatusUpdate{Status: taskdoc.StatusFailed, Error: "gave up"})
	check("UpdateStatus failed", err)
	_, err = p.SetApproach(ctx, task, c, "the old holder's way")
	check("SetApproach", err)
	_, err = p.AddEntry(ctx, task, c, journal.Entry{Type: journal.TypeProgress, Summary: "old holder's progress", Key: "k1"})
	check("AddEntry", err)
	if c.Token != 0 {
		check("Release", p.Release(ctx, task, c))
	}
}

// TestUnregisteredHolderTakenOverAtOnce: a holder that unregisters (or
// whose record is gone) loses its task to the next claim at once, with no
// wait for a timeout.
func TestUnregisteredHolderTakenOverAtOnce(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	b := register(t, p, "b")
	const task = "/auth.md#write-docs"
	res, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	ca := plan.Claimant{Agent: a, Token: res.Claim.Token}
	_, err = p.SetApproach(ctx, task, ca, "outline first")
	require.NoError(t, err)
	require.NoError(t, p.Agents().Unregister(ctx, a))

	next, err := p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	require.Equal(t, []string{"/auth.md#setup-oauth", task}, ids(next))
	assert.Equal(t, plan.NextTask{ID: task, Title: "Write docs", Status: taskdoc.StatusPlanning,
		DependenciesCompleted: true, CanParallelize: true, Stranded: true, PreviousHolder: a}, next[1])

	took, err := p.Claim(ctx, task, b) // same instant
	require.NoError(t, err)
	assert.Equal(t, plan.ClaimResult{Success: true, Claim: &plan.Claim{Task: task, Agent: b, Token: 2, Claimed: t0, TookOverFrom: a}}, took)
	assert.Equal(t, b, field(t, root, "docs/auth.md", "write-docs", taskdoc.KeyAssignee))
	assert.Equal(t, "outline first", field(t, root, "docs/auth.md", "write-docs", taskdoc.KeyApproach), "the plan stays for the new holder")

	before := freeze(t, root)
	requireStale(t, p, task, ca, b)
	requireUntouched(t, root, before, "the unregistered holder's writes")

	// An unregistered agent cannot claim at all.
	_, err = p.Claim(ctx, "/auth.md#setup-oauth", a)
	requireCode(t, err, agent.CodeAgentNotFound)
	requireUntouched(t, root, before, "a claim by an unregistered agent")
}

// TestReleasedTaskIsFreeAndOldClaimStale: after a release the task is
// offered (stranded when started), a claim gets a new token with no
// TookOverFrom, and the released claim is stale.
func TestReleasedTaskIsFreeAndOldClaimStale(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	b := register(t, p, "b")
	const task = "/auth.md#setup-oauth"
	res, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	ca := plan.Claimant{Agent: a, Token: res.Claim.Token}
	_, err = p.UpdateStatus(ctx, task, ca, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	require.NoError(t, p.Release(ctx, task, ca))
	assert.NotContains(t, filetest.Read(t, root, "docs/auth.md"), "Assignee")
	assert.Equal(t, taskdoc.StatusInProgress, taskOf(t, root, "docs/auth.md", "setup-oauth").Status)

	next, err := p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	require.Equal(t, []string{task, "/auth.md#write-docs"}, ids(next))
	assert.True(t, next[0].Stranded)
	assert.Empty(t, next[0].PreviousHolder, "a released task has no holder whose claim lapsed")

	// The released claim writes nothing more, even before another claim;
	// only its Release is a retry.
	before := freeze(t, root)
	_, err = p.UpdateStatus(ctx, task, ca, plan.StatusUpdate{Status: taskdoc.StatusPaused})
	requireCode(t, err, plan.CodeStaleClaim)
	_, err = p.UpdateStatus(ctx, task, ca, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done anyway"})
	requireCode(t, err, plan.CodeStaleClaim)
	_, err = p.SetApproach(ctx, task, ca, "another way")
	requireCode(t, err, plan.CodeStaleClaim)
	_, err = p.AddEntry(ctx, task, ca, journal.Entry{Type: journal.TypeProgress, Summary: "more"})
	requireCode(t, err, plan.CodeStaleClaim)
	require.NoError(t, p.Release(ctx, task, ca))
	requireUntouched(t, root, before, "writes of a released claim")

	took, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.Equal(t, &plan.Claim{Task: task, Agent: b, Token: 2, Claimed: t0}, took.Claim)
	before = freeze(t, root)
	requireStale(t, p, task, ca, b)
	requireUntouched(t, root, before, "writes on a released claim")
}

func ids(next []plan.NextTask) []string {
	out := []string{}
	for _, n := range next {
		out = append(out, n.ID)
	}
	return out
}

// TestStaleClaimMessages: the fence's messages say why a claim is stale.
func TestStaleClaimMessages(t *testing.T) {
	c := newClock()
	p, _ := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	const task = "/auth.md#setup-oauth"
	first, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	require.NoError(t, p.Release(ctx, task, plan.Claimant{Agent: a, Token: first.Claim.Token}))
	second, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	require.Equal(t, int64(2), second.Claim.Token)

	_, err = p.UpdateStatus(ctx, task, plan.Claimant{Agent: a, Token: 1}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	requireCode(t, err, plan.CodeStaleClaim)
	assert.True(t, strings.Contains(err.Error(), "replaced by its claim 2"), "%v", err)
	_, err = p.UpdateStatus(ctx, task, plan.Claimant{Agent: a}, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	requireCode(t, err, plan.CodeStaleClaim)
	assert.True(t, strings.Contains(err.Error(), "present that claim's token"), "%v", err)
}

// TestClaimsFileUnreadableAndRemoved: a claims file that does not decode
// is PARSE_ERROR naming it for every call that needs the claims, and
// nothing is written; removing it releases every claim of the plan.
func TestClaimsFileUnreadableAndRemoved(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	a := register(t, p, "a")
	b := register(t, p, "b")
	const task = "/auth.md#setup-oauth"
	res, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	ca := plan.Claimant{Agent: a, Token: res.Claim.Token}
	name := claims.FileOf("docs/auth.md")
	good := filetest.Read(t, root, name)
	filetest.Write(t, root, name, good[:len(good)/2])
	before := freeze(t, root)

	parseError := func(what string, err error) {
		t.Helper()
		requireCode(t, err, taskdoc.CodeParse, what)
		assert.Contains(t, err.Error(), name, what)
	}
	_, err = p.Claim(ctx, "/auth.md#write-docs", b)
	parseError("Claim", err)
	_, err = p.UpdateStatus(ctx, task, ca, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	parseError("UpdateStatus", err)
	_, err = p.SetApproach(ctx, task, ca, "x")
	parseError("SetApproach", err)
	_, err = p.AddEntry(ctx, task, ca, journal.Entry{Type: journal.TypeProgress, Summary: "x"})
	parseError("AddEntry", err)
	parseError("Release", p.Release(ctx, task, ca))
	_, err = p.NextTasks(ctx, "/auth.md")
	parseError("NextTasks", err)
	_, err = p.Progress(ctx, "/auth.md")
	parseError("Progress", err)
	requireUntouched(t, root, before, "an unreadable claims file")

	// Removed: every token is void (a's old claim is stale), but the
	// Assignee field still names a, online: Claim refuses the task to any
	// other agent, and NextTasks, agreeing, does not offer it.
	require.NoError(t, os.Remove(filepath.Join(root, filepath.FromSlash(name))))
	_, err = p.UpdateStatus(ctx, task, ca, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	requireCode(t, err, plan.CodeStaleClaim)
	lost, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.Equal(t, plan.ClaimResult{AlreadyClaimedBy: a}, lost)
	next, err := p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	assert.Equal(t, []string{"/auth.md#write-docs"}, ids(next), "a task Claim refuses is not offered")
	prog, err := p.Progress(ctx, "/auth.md")
	require.NoError(t, err)
	assert.Equal(t, []plan.TaskState{}, prog.Current, "a pending task is not under way")

	// a claims it again, with a new claim (tokens start again at 1).
	again, err := p.Claim(ctx, task, a)
	require.NoError(t, err)
	assert.Equal(t, plan.ClaimResult{Success: true, Claim: &plan.Claim{Task: task, Agent: a, Token: 1, Claimed: t0}}, again)

	// Once a is offline, b takes it over.
	c.Add(61 * time.Second)
	_, err = p.Agents().Heartbeat(ctx, b, agentInfo())
	require.NoError(t, err)
	next, err = p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	assert.Equal(t, []string{task, "/auth.md#write-docs"}, ids(next))
	took, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.Equal(t, plan.ClaimResult{Success: true, Claim: &plan.Claim{Task: task, Agent: b, Token: 2, Claimed: c.Now(), TookOverFrom: a}}, took)
}

// TestShownButNotRecordedHolder: a task whose Assignee names an online
// agent that holds no claim of it (the claims file removed, a hand edit)
// is refused by Claim to every other agent, so NextTasks does not offer it
// and Progress shows that agent as its holder; once that agent is offline
// the task is offered and claimed.
func TestShownButNotRecordedHolder(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, nil)
	a := register(t, p, "a")
	b := register(t, p, "b")
	filetest.Write(t, root, "docs/auth.md", strings.Replace(authPlan, "### Write docs\n- Status: pending\n",
		"### Write docs\n- Status: in_progress\n- Assignee: "+a+"\n", 1))
	const task = "/auth.md#write-docs"

	res, err := p.Claim(ctx, task, b)
	require.NoError(t, err)
	require.Equal(t, plan.ClaimResult{AlreadyClaimedBy: a}, res)
	next, err := p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	assert.Equal(t, []string{"/auth.md#setup-oauth"}, ids(next), "NextTasks agrees with Claim")
	assert.True(t, next[0].CanParallelize, "a works on write-docs")
	prog, err := p.Progress(ctx, "/auth.md")
	require.NoError(t, err)
	assert.Equal(t, []plan.TaskState{{ID: task, Title: "Write docs", Status: taskdoc.StatusInProgress, Holder: a, HolderOnline: true}}, prog.Current)

	c.Add(61 * time.Second)
	_, err = p.Agents().Heartbeat(ctx, b, agentInfo())
	require.NoError(t, err)
	next, err = p.NextTasks(ctx, "/auth.md")
	require.NoError(t, err)
	require.Equal(t, []string{"/auth.md#setup-oauth", task}, ids(next))
	assert.Equal(t, plan.NextTask{ID: task, Title: "Write docs", Status: taskdoc.StatusInProgress, DependenciesCompleted: true,
		CanParallelize: true, Stranded: true, PreviousHolder: a}, next[1])
	res, err = p.Claim(ctx, task, b)
	require.NoError(t, err)
	assert.True(t, res.Success)
}
