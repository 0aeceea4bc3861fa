package worker_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/watch"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

// benchPivots prepares a workspace whose worker holds taskFrom (its
// pending pivot acknowledged, so that the rounds start clean) and opens
// its pivots.
func benchPivots(b *testing.B) (root string, pv *worker.Pivots, me plan.Claimant) {
	b.Helper()
	root = b.TempDir()
	me = preparePivot(b, root)
	ws, err := workspace.Open(root)
	require.NoError(b, err)
	b.Cleanup(func() { ws.Close() })
	pv = worker.New(ws, worker.WithClock(fixedClock))
	ack, err := pv.Acknowledge(ctx, crashWorker, me, crashCheckpoint)
	require.NoError(b, err)
	// The worker holds taskTo now; each round pivots it to the other task.
	return root, pv, plan.Claimant{Agent: crashWorker, Token: ack.NewClaim.Token}
}

// benchRound is the pivot of round i: from the task the worker holds to the
// other one.
func benchRound(i int) worker.Pivot {
	from, to := taskTo, taskFrom
	if i%2 == 1 {
		from, to = taskFrom, taskTo
	}
	return worker.Pivot{Reason: "round " + strconv.Itoa(i), Task: from, NewTask: to}
}

// roundCheckpoint differs each round, so that every round saves one.
func roundCheckpoint(i int) checkpoint.Checkpoint {
	cp := crashCheckpoint
	cp.Notes = "round " + strconv.Itoa(i)
	return cp
}

// BenchmarkPivotInProcess: Request, Acknowledge (in another goroutine, as
// a worker would), and Wait until it returns the acknowledgement.
func BenchmarkPivotInProcess(b *testing.B) {
	_, pv, me := benchPivots(b)
	wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	i := 0
	for b.Loop() {
		req, err := pv.Request(ctx, crashWorker, benchRound(i))
		if err != nil {
			b.Fatal(err)
		}
		acked := make(chan worker.Request, 1)
		go func() {
			ack, err := pv.Acknowledge(ctx, crashWorker, me, roundCheckpoint(i))
			if err != nil {
				b.Error(err)
			}
			acked <- ack
		}()
		got, err := pv.Wait(wctx, crashWorker, req.ID, time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		ack := <-acked
		if got.State != worker.StateAcknowledged || ack.NewClaim == nil {
			b.Fatalf("round %d: %+v", i, got)
		}
		me = plan.Claimant{Agent: crashWorker, Token: ack.NewClaim.Token}
		i++
	}
}

// BenchmarkPivotBetweenProcesses: the parent requests and waits; a child
// process, the worker, watches its folder, sees the request with Pending
// and acknowledges it.
func BenchmarkPivotBetweenProcesses(b *testing.B) {
	root, pv, me := benchPivots(b)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"=serve", envRoots+"="+root,
		envKillAt+"="+strconv.FormatInt(me.Token, 10), "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	cmd.Stderr = os.Stderr
	pipe, err := cmd.StdoutPipe()
	require.NoError(b, err)
	require.NoError(b, cmd.Start())
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(pipe).ReadString('\n')
	require.NoError(b, err)
	require.Equal(b, "ready\n", line)

	wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	i := 0
	for b.Loop() {
		req, err := pv.Request(ctx, crashWorker, benchRound(i))
		if err != nil {
			b.Fatal(err)
		}
		got, err := pv.Wait(wctx, crashWorker, req.ID, time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		if got.State != worker.StateAcknowledged {
			b.Fatalf("round %d: %+v", i, got)
		}
		i++
	}
}

// serveChild is the worker of BenchmarkPivotBetweenProcesses: it holds a
// task with the claim token of envKillAt and acknowledges every pivot
// asked of it, with a checkpoint naming the pivot's reason, until killed.
func serveChild() int {
	root := os.Getenv(envRoots)
	token, _ := strconv.ParseInt(os.Getenv(envKillAt), 10, 64)
	ws, err := workspace.Open(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer ws.Close()
	pv := worker.New(ws, worker.WithClock(fixedClock))
	me := plan.Claimant{Agent: crashWorker, Token: token}
	dir := filepath.Join(root, filepath.FromSlash(checkpoint.FolderWorkers), crashWorker)
	fmt.Println("ready")
	for {
		var req *worker.Request
		_, err := watch.Until(ctx, dir, time.Hour, nil, func() (bool, error) {
			r, err := pv.Pending(ctx, crashWorker)
			req = r
			return r != nil, err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "watch:", err)
			return 1
		}
		if req == nil {
			continue
		}
		cp := crashCheckpoint
		cp.Notes = req.Reason
		ack, err := pv.Acknowledge(ctx, crashWorker, me, cp)
		if err != nil {
			fmt.Fprintln(os.Stderr, "acknowledge:", err)
			return 1
		}
		if ack.NewClaim != nil {
			me.Token = ack.NewClaim.Token
		}
	}
}

// BenchmarkCheckpointSave is the floor of a pivot: one worker checkpoint
// saved, alone.
func BenchmarkCheckpointSave(b *testing.B) {
	ws, err := workspace.Open(b.TempDir())
	require.NoError(b, err)
	b.Cleanup(func() { ws.Close() })
	w := checkpoint.New(ws, checkpoint.WithClock(fixedClock))
	i := 0
	for b.Loop() {
		cp := roundCheckpoint(i)
		cp.Worker = crashWorker
		if _, err := w.Save(ctx, cp); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
