package worker_test

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

// The child processes of this file are this test binary run again with
// envChild set to what they do: "ack" acknowledges the pending pivot of
// the workspaces listed in envRoots one after the other (killed by its
// parent at some moment, or by itself at its envKillAt-th file read);
// "serve" acknowledges every pivot asked of its worker (the benchmark of
// pivots between processes).
const (
	envChild  = "TASKMD_WORKER_CHILD"
	envRoots  = "TASKMD_WORKER_ROOTS"
	envKillAt = "TASKMD_WORKER_KILL_AT"
)

// TestMain turns the binary into a child when asked to.
func TestMain(m *testing.M) {
	switch os.Getenv(envChild) {
	case "ack":
		os.Exit(ackChild())
	case "serve":
		os.Exit(serveChild())
	}
	os.Exit(m.Run())
}

// crashT0 is the clock of every process of these tests: the agents the parent
// registered stay online in the children.
var crashT0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return crashT0 }

// The worker of a prepared workspace, its two tasks, and the agent that
// would like the worker's task.
const (
	crashWorker = "w-crash"
	crashOther  = "w-other"
	taskFrom    = "/shop.md#add-rate-limiting"
	taskTo      = "/shop.md#fix-login-bug"
)

const crashPlan = `# Shop

## Tasks

### Add rate limiting
- Status: pending

Limit /users to 100 requests a minute.

### Fix login bug
- Status: pending
`

// crashCheckpoint is what the worker acknowledges with, in the child and
// in the parent's retry alike.
var crashCheckpoint = checkpoint.Checkpoint{
	Completed:  []string{"middleware written"},
	Remaining:  []string{"tests"},
	Resumption: "Write the tests of the middleware.",
}

// preparePivot writes the shop plan into root, registers the worker (and the
// other agent), lets the worker claim and start taskFrom, and asks it to
// pivot to taskTo. It returns the worker's claim.
func preparePivot(tb testing.TB, root string) plan.Claimant {
	tb.Helper()
	require.NoError(tb, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	require.NoError(tb, os.WriteFile(filepath.Join(root, "docs", "shop.md"), []byte(crashPlan), 0o644))
	ws, err := workspace.Open(root)
	require.NoError(tb, err)
	defer ws.Close()
	pv := worker.New(ws, worker.WithClock(fixedClock))
	for _, id := range []string{crashWorker, crashOther} {
		_, err := pv.Plans().Agents().Register(ctx, agent.Registration{ID: id, Name: id, Runtime: "test"})
		require.NoError(tb, err)
	}
	res, err := pv.Plans().Claim(ctx, taskFrom, crashWorker)
	require.NoError(tb, err)
	require.True(tb, res.Success)
	me := plan.Claimant{Agent: crashWorker, Token: res.Claim.Token}
	_, err = pv.Plans().UpdateStatus(ctx, taskFrom, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(tb, err)
	_, err = pv.Plans().Agents().Heartbeat(ctx, crashWorker, agent.HeartbeatInfo{CurrentTask: taskFrom, Status: "busy"})
	require.NoError(tb, err)
	_, err = pv.Request(ctx, crashWorker, worker.Pivot{Reason: "login is broken", NewTask: taskTo})
	require.NoError(tb, err)
	return me
}

// ackChild acknowledges the pivot of each workspace of envRoots in turn,
// with the claim token of preparePivot (1, the first claim of the plan). It
// says "ready" and waits for a line before it starts; with envKillAt set
// to k it sends itself SIGKILL at its k-th file read.
func ackChild() int {
	roots := filepath.SplitList(os.Getenv(envRoots))
	killAt, _ := strconv.Atoi(os.Getenv(envKillAt))
	pivots := make([]*worker.Pivots, len(roots))
	for i, root := range roots {
		ws, err := workspace.Open(root)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer ws.Close()
		pivots[i] = worker.New(ws, worker.WithClock(fixedClock))
	}
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		fmt.Fprintln(os.Stderr, "waiting for the start:", err)
		return 2
	}
	if killAt > 0 {
		reads := 0
		hooks.Read = func(string) error {
			if reads++; reads == killAt {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // the signal is on its way
			}
			return nil
		}
	}
	for i, pv := range pivots {
		if _, err := pv.Acknowledge(ctx, crashWorker, plan.Claimant{Agent: crashWorker, Token: 1}, crashCheckpoint); err != nil {
			fmt.Fprintln(os.Stderr, "acknowledge:", err)
			return 1
		}
		fmt.Println("acked", i)
	}
	return 0
}

// startAckChild starts an ack child on roots and returns it once it is
// ready, with a function that starts it and its standard output.
func startAckChild(t *testing.T, roots []string, killAt int) (cmd *exec.Cmd, start func(), out *bufio.Reader, stderr *strings.Builder) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"=ack", envRoots+"="+strings.Join(roots, string(filepath.ListSeparator)),
		envKillAt+"="+strconv.Itoa(killAt),
		// no second of sleep at the exit of a child built with -race
		"GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	stderr = &strings.Builder{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	pipe, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	out = bufio.NewReader(pipe)
	line, err := out.ReadString('\n')
	require.NoError(t, err, stderr.String())
	require.Equal(t, "ready\n", line)
	return cmd, func() { fmt.Fprintln(stdin, "go") }, out, stderr
}

// The stages a killed acknowledgement may leave, in order.
const (
	stageUntouched = iota // nothing written yet
	stageSaved            // the checkpoint is saved, the task still the worker's
	stagePaused           // the task is paused and let go, the new one not claimed
	stageClaimed          // the new task is claimed, the request still pending
	stageDone             // acknowledged
	stages
)

var stageNames = [stages]string{"untouched", "saved", "paused", "claimed", "acknowledged"}

// inspectKilled checks what a killed acknowledgement left in root and returns
// its stage: the worker's checkpoint is whole or absent, the task is the
// worker's or paused pointing at the checkpoint, never held by another
// agent (the other agent's claim fails while the worker holds it).
func inspectKilled(t *testing.T, root string) int {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	pv := worker.New(ws, worker.WithClock(fixedClock))

	cps, err := pv.Workers().List(ctx, crashWorker, 0)
	require.NoError(t, err)
	require.LessOrEqual(t, len(cps), 1, "one checkpoint at most: a retry of Save writes none")
	names, err := ws.List(ctx, checkpoint.FolderWorkers+"/"+crashWorker)
	require.NoError(t, err)
	for _, name := range names {
		if strings.HasSuffix(name, ".md") {
			data, _, err := ws.Read(ctx, name)
			require.NoError(t, err)
			_, err = checkpoint.Parse(data)
			require.NoError(t, err, "checkpoint %s is whole", name)
		}
	}

	data, err := os.ReadFile(filepath.Join(root, "docs", "shop.md"))
	require.NoError(t, err)
	doc, err := taskdoc.Parse(data)
	require.NoError(t, err)
	from, err := doc.Task("add-rate-limiting")
	require.NoError(t, err)
	to, err := doc.Task("fix-login-bug")
	require.NoError(t, err)
	fromAssignee, _ := from.Field(taskdoc.KeyAssignee)
	toAssignee, _ := to.Field(taskdoc.KeyAssignee)
	assert.Contains(t, []string{"", crashWorker}, toAssignee)

	req, err := pv.Pending(ctx, crashWorker)
	require.NoError(t, err)

	switch from.Status {
	case taskdoc.StatusInProgress:
		require.Equal(t, crashWorker, fromAssignee, "the task is still the worker's")
		_, hasCP := from.Field(taskdoc.KeyCheckpoint)
		assert.False(t, hasCP)
		require.NotNil(t, req, "the request is pending")
		assert.Empty(t, toAssignee)
		res, err := pv.Plans().Claim(ctx, taskFrom, crashOther)
		require.NoError(t, err)
		require.False(t, res.Success, "the task is never held by two agents")
		assert.Equal(t, crashWorker, res.AlreadyClaimedBy)
		if len(cps) == 0 {
			return stageUntouched
		}
		return stageSaved
	case taskdoc.StatusPaused:
		assert.Empty(t, fromAssignee, "a paused task is let go")
		cpPath, ok := from.Field(taskdoc.KeyCheckpoint)
		require.True(t, ok, "a paused task points at its checkpoint")
		require.Len(t, cps, 1)
		assert.Equal(t, checkpoint.WorkerFile(crashWorker, cps[0].Sequence), cpPath)
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(cpPath)))
		require.NoError(t, err, "the checkpoint the task points at exists")
		assert.Equal(t, "pivoted", cps[0].Phase)
		if req == nil {
			assert.Equal(t, crashWorker, toAssignee)
			return stageDone
		}
		if toAssignee == crashWorker {
			return stageClaimed
		}
		return stagePaused
	default:
		t.Fatalf("task %s is %s", taskFrom, from.Status)
		return 0
	}
}

// retryAck acknowledges again in the parent and checks the final state: the
// state of one acknowledgement with crashCheckpoint.
func retryAck(t *testing.T, root string) {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	pv := worker.New(ws, worker.WithClock(fixedClock))
	ack, err := pv.Acknowledge(ctx, crashWorker, plan.Claimant{Agent: crashWorker, Token: 1}, crashCheckpoint)
	require.NoError(t, err)
	assert.Equal(t, worker.StateAcknowledged, ack.State)
	assert.Equal(t, checkpoint.WorkerFile(crashWorker, 1), ack.Checkpoint)
	require.NotNil(t, ack.NewClaim)
	assert.Equal(t, taskTo, ack.NewClaim.Task)
	assert.Equal(t, stageDone, inspectKilled(t, root))
	data, err := os.ReadFile(filepath.Join(root, "docs", "shop.md"))
	require.NoError(t, err)
	assert.Equal(t, `# Shop

## Tasks

### Add rate limiting
- Status: paused
- Checkpoint: checkpoints/workers/w-crash/000001.md

Limit /users to 100 requests a minute.

### Fix login bug
- Status: pending
- Assignee: w-crash
`, string(data))
	// The task left is free: another agent takes it and resumes it.
	res, err := pv.Plans().Claim(ctx, taskFrom, crashOther)
	require.NoError(t, err)
	assert.True(t, res.Success)
}

// TestKilledAtEveryRead kills an acknowledging worker at each of its file
// reads in turn (each read comes after the write of the step before, so
// every step boundary is hit), until one acknowledgement runs to its end.
func TestKilledAtEveryRead(t *testing.T) {
	seen := map[int]int{}
	for k := 1; ; k++ {
		require.Less(t, k, 200, "an acknowledgement reads fewer than 200 files")
		root := t.TempDir()
		preparePivot(t, root)
		cmd, start, out, stderr := startAckChild(t, []string{root}, k)
		start()
		line, _ := out.ReadString('\n')
		err := cmd.Wait()
		if err == nil {
			require.Equal(t, "acked 0\n", line)
			assert.Equal(t, stageDone, inspectKilled(t, root))
			t.Logf("the acknowledgement reads %d files; stages hit by kills: %v", k-1, stageCounts(seen))
			break
		}
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "%v", err)
		require.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal(), "read %d: %v: %s", k, err, stderr.String())
		seen[inspectKilled(t, root)]++
		retryAck(t, root)
	}
	for s := stageUntouched; s < stageDone; s++ {
		assert.Positive(t, seen[s], "some kill left the stage %s", stageNames[s])
	}
}

// TestKilledAtRandom kills an acknowledging worker after random short
// delays: the child acknowledges several workspaces one after the other,
// so that a kill lands inside some acknowledgement, at any instruction,
// writes included.
func TestKilledAtRandom(t *testing.T) {
	const runs, perChild = 20, 3
	// How long one child takes to acknowledge perChild workspaces.
	roots := make([]string, perChild)
	for i := range roots {
		roots[i] = t.TempDir()
		preparePivot(t, roots[i])
	}
	cmd, start, out, stderr := startAckChild(t, roots, 0)
	began := time.Now()
	start()
	for i := range perChild {
		line, err := out.ReadString('\n')
		require.NoError(t, err, stderr.String())
		require.Equal(t, fmt.Sprintf("acked %d\n", i), line)
	}
	span := time.Since(began)
	require.NoError(t, cmd.Wait(), stderr.String())
	t.Logf("%d acknowledgements in a child: %v", perChild, span)

	seen := map[int]int{}
	for run := range runs {
		roots := make([]string, perChild)
		for i := range roots {
			roots[i] = t.TempDir()
			preparePivot(t, roots[i])
		}
		cmd, start, _, _ := startAckChild(t, roots, 0)
		start()
		time.Sleep(time.Duration(rand.Int64N(int64(span))))
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL), "run %d", run)
		cmd.Wait()
		for _, root := range roots {
			seen[inspectKilled(t, root)]++
			retryAck(t, root)
		}
	}
	t.Logf("stages left by %d kills (%d workspaces each): %v", runs, perChild, stageCounts(seen))
}

func stageCounts(seen map[int]int) map[string]int {
	out := map[string]int{}
	for s, n := range seen {
		out[stageNames[s]] = n
	}
	return out
}
