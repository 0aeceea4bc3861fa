package gitsync_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// lease is the agent timeout of the lease tests, and so the length of
// their leases; skew the clock difference a reader allows (a quarter).
const (
	lease = time.Minute
	skew  = lease / 4
)

// clock is a machine's clock, moved by the test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: t0} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// leaseMachine opens the clone in dir with clock c and the lease tests'
// agent timeout, registering (again, after a restart) "agent-<name>".
func leaseMachine(t testing.TB, dir, name string, c *clock) *machine {
	t.Helper()
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	plans := plan.New(ws, plan.WithClock(c.Now), plan.WithAgentTimeout(lease))
	a, err := plans.Agents().Register(ctx, agent.Registration{ID: "agent-" + name, Name: name, Runtime: "test"})
	require.NoError(t, err)
	s, err := gitsync.New(ctx, ws, plans)
	require.NoError(t, err)
	return &machine{dir: dir, ws: ws, plans: plans, sync: s, agent: a.ID}
}

// cloneLeased clones remote and opens it as leaseMachine does.
func cloneLeased(t testing.TB, remote, name string, c *clock) *machine {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	run(t, filepath.Dir(dir), "clone", "-q", remote, dir)
	return leaseMachine(t, dir, name, c)
}

// later moves m's clock c on by d, and m's agent sends a heartbeat then.
func later(t testing.TB, m *machine, c *clock, d time.Duration) {
	t.Helper()
	c.Add(d)
	_, err := m.plans.Agents().Heartbeat(ctx, m.agent, agent.HeartbeatInfo{})
	require.NoError(t, err)
}

func claimOK(t testing.TB, m *machine, task string) *plan.Claim {
	t.Helper()
	res, err := m.sync.Claim(ctx, task, m.agent)
	require.NoError(t, err)
	require.True(t, res.Success, "%s: %+v", task, res)
	require.True(t, res.Pushed || res.Commit == "", "%s: %+v", task, res)
	return res.Claim
}

// leaseRefs lists the remote's lease refs.
func leaseRefs(t testing.TB, remote string) []string {
	t.Helper()
	var refs []string
	for _, line := range strings.Split(strings.TrimSpace(run(t, remote, "for-each-ref", "--format=%(refname)", "refs/taskmd/leases/")), "\n") {
		if line != "" {
			refs = append(refs, line)
		}
	}
	return refs
}

// TestLeaseLapsesAcrossMachines: a's claim holds on b while its lease
// runs, and until a quarter of a lease (the clock skew allowed) after it
// ended; then b takes the task over with a higher token, and a's writes
// with its old claim are STALE_CLAIM and change nothing on the remote.
func TestLeaseLapsesAcrossMachines(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	ca, cb := newClock(), newClock()
	a, b := cloneLeased(t, remote, "a", ca), cloneLeased(t, remote, "b", cb)
	old := claimOK(t, a, "/plan.md#task-1")
	assert.Len(t, leaseRefs(t, remote), 1, "the claim's push carried a's leases")

	later(t, b, cb, lease+skew) // the last moment a may still think it holds it
	res, err := b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	assert.False(t, res.Success)
	assert.Equal(t, a.agent, res.AlreadyClaimedBy)

	later(t, b, cb, time.Second)
	took := claimOK(t, b, "/plan.md#task-1")
	assert.Equal(t, a.agent, took.TookOverFrom)
	assert.Greater(t, took.Token, old.Token)
	assert.Equal(t, b.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))

	before := remoteFile(t, remote, doc)
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: old.Token},
		plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done by a"})
	assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	assert.Equal(t, before, remoteFile(t, remote, doc))
	_, _ = a.sync.Release(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: old.Token})
	assert.Equal(t, before, remoteFile(t, remote, doc), "a's release of the claim it lost writes nothing")

	done, err := b.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: b.agent, Token: took.Token},
		plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done by b"})
	require.NoError(t, err)
	assert.True(t, done.Pushed)
}

// TestRenewKeepsTheLease: a's agent heartbeats and a renews: b is refused
// past the first lease's end, and takes the task over only once the
// renewed one ended.
func TestRenewKeepsTheLease(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	ca, cb := newClock(), newClock()
	a, b := cloneLeased(t, remote, "a", ca), cloneLeased(t, remote, "b", cb)
	claimOK(t, a, "/plan.md#task-2")

	later(t, a, ca, lease/2)
	rep, err := a.sync.Renew(ctx)
	require.NoError(t, err)
	assert.True(t, rep.Pushed)
	assert.Len(t, leaseRefs(t, remote), 1, "a renews its own ref")
	assert.Equal(t, planOf(3), strings.Replace(remoteFile(t, remote, doc), "- Assignee: "+a.agent+"\n", "", 1),
		"renewing rewrote nothing of the plan")

	later(t, b, cb, lease+skew+time.Second) // past the first lease
	res, err := b.sync.Claim(ctx, "/plan.md#task-2", b.agent)
	require.NoError(t, err)
	assert.Equal(t, a.agent, res.AlreadyClaimedBy)
	later(t, b, cb, lease/2)
	claimOK(t, b, "/plan.md#task-2")
}

// TestTokensGrowAcrossMachines: a claim's token is above every token any
// machine gave in the plan, also after the earlier claim was let go.
func TestTokensGrowAcrossMachines(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(4), ".gitignore": ".taskmd/\n"})
	c := newClock()
	a, b := cloneLeased(t, remote, "a", c), cloneLeased(t, remote, "b", c)
	var last int64
	for i, m := range []*machine{a, a, b, a, b} {
		task := "/plan.md#task-" + string(rune('1'+i%4))
		cl := claimOK(t, m, task)
		assert.Greater(t, cl.Token, last, "claim %d (%s by %s)", i, task, m.agent)
		last = cl.Token
		_, err := m.sync.Release(ctx, task, plan.Claimant{Agent: m.agent, Token: cl.Token})
		require.NoError(t, err)
	}
}

// TestRestartedAgentGetsItsTasks: a's agent held two tasks and a was
// stopped; b took one over once the lease ended. a, opened again with the
// same agent, is answered with its own claim on the task nobody took, is
// offered it first, is told b holds the other and is refused on its old
// token there.
func TestRestartedAgentGetsItsTasks(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(4), ".gitignore": ".taskmd/\n"})
	ca, cb := newClock(), newClock()
	a, b := cloneLeased(t, remote, "a", ca), cloneLeased(t, remote, "b", cb)
	kept := claimOK(t, a, "/plan.md#task-3")
	taken := claimOK(t, a, "/plan.md#task-1")
	later(t, b, cb, lease+skew+time.Second)
	claimOK(t, b, "/plan.md#task-1")

	ca.Add(lease + skew + time.Second)
	a = leaseMachine(t, a.dir, "a", ca) // restarted: the same agent registers again
	res, err := a.sync.Claim(ctx, "/plan.md#task-3", a.agent)
	require.NoError(t, err)
	require.True(t, res.Success)
	assert.Equal(t, kept.Token, res.Claim.Token, "its own claim, as it was")
	assert.Empty(t, res.Commit, "nothing to commit")

	res, err = a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.Equal(t, b.agent, res.AlreadyClaimedBy)
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: taken.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)

	next, err := a.sync.NextTasks(ctx, "/plan.md", a.agent)
	require.NoError(t, err)
	require.NotEmpty(t, next)
	assert.Equal(t, "/plan.md#task-3", next[0].ID, "its own task first")
	for _, n := range next {
		assert.NotEqual(t, "/plan.md#task-1", n.ID, "b holds it")
	}
}

// TestNextTasksOnAClone: b is not offered the task a holds under a live
// lease; once the lease ended it is, naming a's agent.
func TestNextTasksOnAClone(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	ca, cb := newClock(), newClock()
	a, b := cloneLeased(t, remote, "a", ca), cloneLeased(t, remote, "b", cb)
	claimOK(t, a, "/plan.md#task-2")

	ids := func(next []plan.NextTask) []string {
		var out []string
		for _, n := range next {
			out = append(out, n.ID)
		}
		return out
	}
	next, err := b.sync.NextTasks(ctx, "/plan.md", b.agent)
	require.NoError(t, err)
	assert.Equal(t, []string{"/plan.md#task-1", "/plan.md#task-3"}, ids(next))

	later(t, b, cb, lease+skew+time.Second)
	next, err = b.sync.NextTasks(ctx, "/plan.md", b.agent)
	require.NoError(t, err)
	assert.Equal(t, []string{"/plan.md#task-1", "/plan.md#task-2", "/plan.md#task-3"}, ids(next))
	assert.Equal(t, a.agent, next[1].PreviousHolder)
	for _, n := range next {
		res, err := b.sync.Claim(ctx, n.ID, b.agent)
		require.NoError(t, err)
		assert.True(t, res.Success, "every task offered can be claimed: %s", n.ID)
	}
}

// TestMachineIDIsStable: a clone keeps its machine id (one lease ref
// however often it is opened); two clones have two.
func TestMachineIDIsStable(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	c := newClock()
	a := cloneLeased(t, remote, "a", c)
	claimOK(t, a, "/plan.md#task-1")
	a = leaseMachine(t, a.dir, "a", c)
	claimOK(t, a, "/plan.md#task-2")
	assert.Len(t, leaseRefs(t, remote), 1)
	b := cloneLeased(t, remote, "b", c)
	claimOK(t, b, "/plan.md#task-3")
	assert.Len(t, leaseRefs(t, remote), 2)
}

// TestHandWrittenAssigneeHolds: an Assignee that no machine's lease names
// (a person wrote it) holds, however late: a person removes it.
func TestHandWrittenAssigneeHolds(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: strings.Replace(planOf(2), "### Task 1\n- Status: pending\n",
		"### Task 1\n- Status: pending\n- Assignee: alice\n", 1), ".gitignore": ".taskmd/\n"})
	c := newClock()
	b := cloneLeased(t, remote, "b", c)
	later(t, b, c, 100*lease)
	res, err := b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	assert.Equal(t, "alice", res.AlreadyClaimedBy)
	next, err := b.sync.NextTasks(ctx, "/plan.md", b.agent)
	require.NoError(t, err)
	require.Len(t, next, 1)
	assert.Equal(t, "/plan.md#task-2", next[0].ID)
}

// TestRenewOffline: a renewal that cannot reach the remote says so and
// changes nothing; the next one sends the leases.
func TestRenewOffline(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), ".gitignore": ".taskmd/\n"})
	c := newClock()
	a := cloneLeased(t, remote, "a", c)
	claimOK(t, a, "/plan.md#task-1")
	before := run(t, remote, "for-each-ref")
	run(t, a.dir, "remote", "set-url", "origin", filepath.Join(t.TempDir(), "unreachable.git"))
	later(t, a, c, lease/3)
	rep, err := a.sync.Renew(ctx)
	require.NoError(t, err)
	assert.False(t, rep.Pushed)
	assert.NotEmpty(t, rep.Offline)
	assert.Equal(t, before, run(t, remote, "for-each-ref"))
	run(t, a.dir, "remote", "set-url", "origin", remote)
	rep, err = a.sync.Renew(ctx)
	require.NoError(t, err)
	assert.True(t, rep.Pushed)
	assert.NotEqual(t, before, run(t, remote, "for-each-ref"))
}

// TestRemoteWithoutAtomicPush: a remote that cannot take an atomic push
// gets the claim, then the leases.
func TestRemoteWithoutAtomicPush(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), ".gitignore": ".taskmd/\n"})
	run(t, remote, "config", "receive.advertiseAtomic", "false")
	c := newClock()
	a := cloneLeased(t, remote, "a", c)
	claimOK(t, a, "/plan.md#task-1")
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
	assert.Len(t, leaseRefs(t, remote), 1)
}

// TestClaimByAnAgentOfAnotherClone: an agent registered on a only claims
// through a; b answers AGENT_NOT_FOUND, also for the task it holds.
func TestClaimByAnAgentOfAnotherClone(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), ".gitignore": ".taskmd/\n"})
	c := newClock()
	a, b := cloneLeased(t, remote, "a", c), cloneLeased(t, remote, "b", c)
	claimOK(t, a, "/plan.md#task-1")
	for _, task := range []string{"/plan.md#task-1", "/plan.md#task-2"} {
		res, err := b.sync.Claim(ctx, task, a.agent)
		assert.Equal(t, agent.CodeAgentNotFound, taskdoc.CodeOf(err), "%s: %+v", task, res)
		assert.False(t, res.Success)
	}
}

// TestDamagedMachineID: a machine file that is not an id is PARSE_ERROR
// naming it; removed, the next New makes a new id.
func TestDamagedMachineID(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(1), ".gitignore": ".taskmd/\n"})
	c := newClock()
	a := cloneLeased(t, remote, "a", c)
	name := filepath.Join(a.dir, ".taskmd", "gitsync", "machine")
	require.NoError(t, os.WriteFile(name, []byte("../../heads/main\n"), 0o644))
	_, err := gitsync.New(ctx, a.ws, a.plans)
	assert.Equal(t, taskdoc.CodeParse, taskdoc.CodeOf(err), "%v", err)
	assert.Contains(t, err.Error(), ".taskmd/gitsync/machine")
	require.NoError(t, os.Remove(name))
	_, err = gitsync.New(ctx, a.ws, a.plans)
	require.NoError(t, err)
	id, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Regexp(t, `^m-[0-9a-f]{12}\n$`, string(id))
}

// TestAgentRestartsOnAnotherClone: a's agent held task-1 and a stopped;
// the same agent id registers on b. Its claim on b, once a's lease ended,
// is shared with b's lease, so that c does not take the task over while
// the agent works on b; the write a's old incarnation makes with its old
// token is STALE_CLAIM; b's NextTasks offers what b's Claim takes.
func TestAgentRestartsOnAnotherClone(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), ".gitignore": ".taskmd/\n"})
	ca, cb, cc := newClock(), newClock(), newClock()
	a := cloneLeased(t, remote, "a", ca)
	old := claimOK(t, a, "/plan.md#task-1")

	dir := filepath.Join(t.TempDir(), "b")
	run(t, filepath.Dir(dir), "clone", "-q", remote, dir)
	b := leaseMachine(t, dir, "a", cb) // agent-a, registered on b now
	held, err := b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	assert.Equal(t, a.agent, held.AlreadyClaimedBy, "a's lease runs: %+v", held)
	next, err := b.sync.NextTasks(ctx, "/plan.md", b.agent)
	require.NoError(t, err)
	require.Len(t, next, 1)
	assert.Equal(t, "/plan.md#task-2", next[0].ID)

	later(t, b, cb, lease+skew+time.Second)
	next, err = b.sync.NextTasks(ctx, "/plan.md", b.agent)
	require.NoError(t, err)
	var offered bool
	for _, n := range next {
		offered = offered || n.ID == "/plan.md#task-1"
	}
	res, err := b.sync.Claim(ctx, "/plan.md#task-1", b.agent)
	require.NoError(t, err)
	require.True(t, res.Success, "%+v", res)
	assert.True(t, offered, "NextTasks offers the task Claim takes: %+v", next)
	assert.Greater(t, res.Claim.Token, old.Token)

	// c, at once: b's claim was shared with its lease, it holds.
	c := cloneLeased(t, remote, "c", cc)
	later(t, c, cc, lease+skew+time.Second)
	got, err := c.sync.Claim(ctx, "/plan.md#task-1", c.agent)
	require.NoError(t, err)
	assert.False(t, got.Success, "c took over the task agent-a works on through b: %+v", got)

	// a comes back: its old token is refused.
	_, err = a.sync.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: a.agent, Token: old.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
}

// TestForgedLeaseRefs: lease refs that a machine did not write as its
// own (a file naming another machine, a token no claim could reach, one
// below zero) are left out: a claim's token stays above the last one and
// positive, and the claim is shared with its machine's own lease.
func TestForgedLeaseRefs(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	c := newClock()
	a := cloneLeased(t, remote, "a", c)
	first := claimOK(t, a, "/plan.md#task-1")
	id := strings.TrimSpace(string(must(os.ReadFile(filepath.Join(a.dir, ".taskmd", "gitsync", "machine")))))
	forge := func(ref, body string) {
		tree := strings.TrimSpace(runInput(t, remote, "", "mktree"))
		commit := strings.TrimSpace(runInput(t, remote, body, "commit-tree", tree, "-F", "-"))
		run(t, remote, "update-ref", ref, commit)
	}
	forge("refs/taskmd/leases/m-000000000001", `{"machine":"`+id+`","tokens":{"docs/plan.md":5},"leases":[]}`)
	forge("refs/taskmd/leases/m-000000000002", `{"machine":"m-000000000002","tokens":{"docs/plan.md":9223372036854775807},"leases":[]}`)
	forge("refs/taskmd/leases/m-000000000003", `{"machine":"m-000000000003","tokens":{"docs/plan.md":-7},"leases":[]}`)

	second := claimOK(t, a, "/plan.md#task-2")
	assert.Greater(t, second.Token, first.Token)
	third := claimOK(t, a, "/plan.md#task-3")
	assert.Greater(t, third.Token, second.Token)
	own := run(t, remote, "log", "-1", "--format=%B", "refs/taskmd/leases/"+id)
	assert.Contains(t, own, `"task":"task-3"`, "the claim was shared with a's own lease")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestOversizedLeaseFileIgnored: a lease ref whose file is over the bound
// (a valid one, padded) is left out before it is decoded: its tokens
// raise no claim's.
func TestOversizedLeaseFileIgnored(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	a := cloneLeased(t, remote, "a", newClock())
	forge := func(id string, pad int) {
		body := `{"machine":"` + id + `","pad":"` + strings.Repeat("x", pad) + `","tokens":{"docs/plan.md":1000},"leases":[]}`
		tree := strings.TrimSpace(runInput(t, remote, "", "mktree"))
		commit := strings.TrimSpace(runInput(t, remote, body, "commit-tree", tree, "-F", "-"))
		run(t, remote, "update-ref", "refs/taskmd/leases/"+id, commit)
	}
	forge("m-000000000001", 2<<20)
	first := claimOK(t, a, "/plan.md#task-1")
	assert.Less(t, first.Token, int64(1000), "the file over the bound is not read")

	forge("m-000000000002", 1000) // a small one is read
	second := claimOK(t, a, "/plan.md#task-2")
	assert.Greater(t, second.Token, int64(1000))
}
