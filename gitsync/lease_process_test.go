package gitsync_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// A holder process is a machine whose agent claims tasks and keeps them:
// it heartbeats and renews its leases until it is killed.
const (
	envHolderDir   = "TASKMD_GITSYNC_HOLDER_DIR"
	envHolderTasks = "TASKMD_GITSYNC_HOLDER_TASKS"
)

// shortLease is the agent timeout, and so the lease, of the process
// tests: the time a killed machine's tasks wait for a taker.
const shortLease = 2 * time.Second

// openReal opens the clone in dir on the real clock with the short lease,
// registering agent id (again, after a restart).
func openReal(dir, id string) (*workspace.Workspace, *plan.Plans, *gitsync.Sync, error) {
	ws, err := workspace.Open(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	plans := plan.New(ws, plan.WithAgentTimeout(shortLease))
	if _, err := plans.Agents().Register(ctx, agent.Registration{ID: id, Name: id, Runtime: "test"}); err != nil {
		ws.Close()
		return nil, nil, nil, err
	}
	s, err := gitsync.New(ctx, ws, plans)
	if err != nil {
		ws.Close()
		return nil, nil, nil, err
	}
	return ws, plans, s, nil
}

// holderChild claims the tasks named in its environment for agent-a,
// prints their tokens as one JSON line, then heartbeats and renews every
// sixth of the lease until it is killed.
func holderChild(dir string) int {
	ws, plans, s, err := openReal(dir, "agent-a")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer ws.Close()
	tokens := map[string]int64{}
	for _, task := range strings.Split(os.Getenv(envHolderTasks), ",") {
		res, err := s.Claim(ctx, task, "agent-a")
		if err != nil || !res.Success || !res.Pushed {
			fmt.Fprintln(os.Stderr, "claim", task, err, res)
			return 1
		}
		tokens[task] = res.Claim.Token
	}
	out, _ := json.Marshal(tokens)
	fmt.Println(string(out))
	for {
		time.Sleep(shortLease / 6)
		if _, err := plans.Agents().Heartbeat(ctx, "agent-a", agent.HeartbeatInfo{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if _, err := s.Renew(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
}

// TestKilledMachineTasksTakenOver: machine a, a process, claims two tasks
// and keeps renewing; while it runs b cannot take them. a is killed
// (SIGKILL); b takes one over within two leases of the kill. a, started
// again with the same agent, is refused with STALE_CLAIM on its old token
// for the task b took, and gets back the one nobody took, with its token.
func TestKilledMachineTasksTakenOver(t *testing.T) {
	if testing.Short() {
		t.Skip("a machine process killed, and a wait of up to two leases")
	}
	remote := newRemote(t, map[string]string{doc: planOf(3), ".gitignore": ".taskmd/\n"})
	dirA := filepath.Join(t.TempDir(), "a")
	run(t, filepath.Dir(dirA), "clone", "-q", remote, dirA)
	dirB := filepath.Join(t.TempDir(), "b")
	run(t, filepath.Dir(dirB), "clone", "-q", remote, dirB)
	wsB, _, b, err := openReal(dirB, "agent-b")
	require.NoError(t, err)
	t.Cleanup(func() { wsB.Close() })

	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), envHolderDir+"="+dirA, envHolderTasks+"=/plan.md#task-1,/plan.md#task-2")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, "holder: %s", stderr.String())
	var tokens map[string]int64
	require.NoError(t, json.Unmarshal([]byte(line), &tokens))

	// Alive, it holds its tasks for longer than a lease.
	deadline := time.Now().Add(shortLease + shortLease/2)
	for time.Now().Before(deadline) {
		res, err := b.Claim(ctx, "/plan.md#task-1", "agent-b")
		require.NoError(t, err)
		require.Equal(t, "agent-a", res.AlreadyClaimedBy, "%+v", res)
		time.Sleep(shortLease / 4)
	}

	require.NoError(t, cmd.Process.Kill())
	killed := time.Now()
	_ = cmd.Wait()
	var took gitsync.ClaimResult
	for {
		took, err = b.Claim(ctx, "/plan.md#task-1", "agent-b")
		require.NoError(t, err)
		if took.Success || time.Since(killed) > 3*shortLease {
			break
		}
		time.Sleep(shortLease / 20)
	}
	waited := time.Since(killed)
	require.True(t, took.Success, "not taken over %v after the kill: %+v", waited, took)
	assert.LessOrEqual(t, waited, 2*shortLease, "taken over %v after the kill", waited)
	assert.Equal(t, "agent-a", took.Claim.TookOverFrom)
	assert.Greater(t, took.Claim.Token, tokens["/plan.md#task-1"])
	t.Logf("taken over %v after the kill (lease %v)", waited.Round(time.Millisecond), shortLease)

	wsA, _, a, err := openReal(dirA, "agent-a") // a restarts
	require.NoError(t, err)
	t.Cleanup(func() { wsA.Close() })
	_, err = a.UpdateStatus(ctx, "/plan.md#task-1", plan.Claimant{Agent: "agent-a", Token: tokens["/plan.md#task-1"]},
		plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done by a"})
	assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(err), "%v", err)
	res, err := a.Claim(ctx, "/plan.md#task-2", "agent-a")
	require.NoError(t, err)
	require.True(t, res.Success, "%+v", res)
	assert.Equal(t, tokens["/plan.md#task-2"], res.Claim.Token, "its own claim back")
	done, err := a.UpdateStatus(ctx, "/plan.md#task-2", plan.Claimant{Agent: "agent-a", Token: res.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "done by a"})
	require.NoError(t, err)
	assert.True(t, done.Pushed)
	final := remoteFile(t, remote, doc)
	assert.Equal(t, "agent-b", assigneeIn(t, final, "task-1"))
	assert.Equal(t, taskdoc.StatusCompleted, taskIn(t, final, "task-2").Status)
}
