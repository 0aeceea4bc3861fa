package gitsync_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// machineOf is the machine id the clone in dir keeps.
func machineOf(t testing.TB, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".taskmd", "gitsync", "machine"))
	require.NoError(t, err)
	return strings.TrimSpace(string(data))
}

// leaseBody is the lease file on the remote's ref of machine id.
func leaseBody(t testing.TB, remote, id string) string {
	t.Helper()
	return run(t, remote, "log", "-1", "--format=%B", "refs/taskmd/leases/"+id)
}

// TestCopiedMachineIDTakesANewOne: b's folder keeps a's machine file (a
// copied clone). b's claim does not overwrite a's lease ref: b takes an id
// of its own. Once a stops renewing, another machine takes a's task over,
// while b's, renewed, stays b's.
func TestCopiedMachineIDTakesANewOne(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	ca, cb, cc := newClock(), newClock(), newClock()
	a := cloneLeased(t, remote, "a", ca)
	claimOK(t, a, "/plan.md#task-1")
	id := machineOf(t, a.dir)

	dir := filepath.Join(t.TempDir(), "b")
	run(t, filepath.Dir(dir), "clone", "-q", remote, dir)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".taskmd", "gitsync"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".taskmd", "gitsync", "machine"), []byte(id+"\n"), 0o644))
	b := leaseMachine(t, dir, "b", cb)
	claimOK(t, b, "/plan.md#task-2")

	assert.NotEqual(t, id, machineOf(t, b.dir), "b took an id of its own")
	assert.Len(t, leaseRefs(t, remote), 2)
	assert.Contains(t, leaseBody(t, remote, id), `"task":"task-1"`, "a's lease is as a pushed it")
	assert.Contains(t, leaseBody(t, remote, machineOf(t, b.dir)), `"task":"task-2"`)

	// a is gone; b heartbeats and renews past a's lease.
	for range 3 {
		later(t, b, cb, lease/2)
		rep, err := b.sync.Renew(ctx)
		require.NoError(t, err)
		require.True(t, rep.Pushed)
	}
	c := cloneLeased(t, remote, "c", cc)
	later(t, c, cc, lease+skew+time.Second)
	took := claimOK(t, c, "/plan.md#task-1")
	assert.Equal(t, a.agent, took.TookOverFrom)
	res, err := c.sync.Claim(ctx, "/plan.md#task-2", c.agent)
	require.NoError(t, err)
	assert.False(t, res.Success, "b renews its lease: %+v", res)
	assert.Equal(t, b.agent, res.AlreadyClaimedBy)
}

// TestCopiedCloneRenews: b is a copy of a's whole folder (its git folder
// too), so both start as the machine that pushed a's lease ref last. The
// first to push again keeps the id; the other's push is refused by the
// remote (its ref moved), and it takes a new id and pushes its leases
// there: every lease ref is written by one clone, and a's lease, renewed,
// holds a's task.
func TestCopiedCloneRenews(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	ca, cb, cc := newClock(), newClock(), newClock()
	a := cloneLeased(t, remote, "a", ca)
	claimOK(t, a, "/plan.md#task-1")
	id := machineOf(t, a.dir)

	dir := filepath.Join(t.TempDir(), "b")
	out, err := exec.Command("cp", "-a", a.dir, dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	b := leaseMachine(t, dir, "b", cb)
	claimOK(t, b, "/plan.md#task-2")
	assert.Equal(t, id, machineOf(t, b.dir), "b pushed first: the id is still b's")

	rep, err := a.sync.Renew(ctx)
	require.NoError(t, err)
	assert.True(t, rep.Pushed)
	assert.NotEqual(t, id, machineOf(t, a.dir), "a's renewal found its ref moved: a took a new id")
	assert.Contains(t, leaseBody(t, remote, id), `"task":"task-2"`, "b's leases were not overwritten")
	assert.Contains(t, leaseBody(t, remote, machineOf(t, a.dir)), `"task":"task-1"`)

	// a keeps renewing; b's copy of a's claim is never renewed.
	for range 3 {
		later(t, a, ca, lease/2)
		_, err := a.sync.Renew(ctx)
		require.NoError(t, err)
		later(t, b, cb, lease/2)
		_, err = b.sync.Renew(ctx)
		require.NoError(t, err)
	}
	c := cloneLeased(t, remote, "c", cc)
	later(t, c, cc, lease+skew+time.Second)
	res, err := c.sync.Claim(ctx, "/plan.md#task-1", c.agent)
	require.NoError(t, err)
	assert.False(t, res.Success, "a renews its lease: %+v", res)
	assert.Equal(t, a.agent, res.AlreadyClaimedBy)
}
