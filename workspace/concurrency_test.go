package workspace

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const docName = "docs/counters.md"

func TestConcurrentGoroutinesLoseNoUpdate(t *testing.T) {
	const goroutines, updates, pad = 32, 50, 200
	ws, dir := newWorkspace(t)
	writeFile(t, dir, docName, counterDoc(make([]int, goroutines), pad))
	var wg sync.WaitGroup
	for i := range goroutines {
		wg.Go(func() {
			// Half the goroutines use a Workspace of their own: the process
			// lock is shared by all of them.
			w := ws
			if i%2 == 1 {
				own, err := Open(dir)
				if !assert.NoError(t, err) {
					return
				}
				defer own.Close()
				w = own
			}
			for range updates {
				_, err := w.Update(context.Background(), docName, setCount(i))
				if !assert.NoError(t, err) {
					return
				}
			}
		})
	}
	wg.Wait()

	data, _, err := ws.Read(context.Background(), docName)
	require.NoError(t, err)
	counts, err := taskCounts(data, goroutines)
	require.NoError(t, err)
	for i, n := range counts {
		assert.Equal(t, updates, n, "worker %d", i)
	}
	_, err = readCounts(data, goroutines, pad)
	assert.NoError(t, err, "field edits left every other byte alone")
	assert.Empty(t, tempFiles(t, dir))
}

// Child processes are this test binary run again with helperEnv set to a
// role; see TestHelperProcess.
const (
	helperEnv  = "TASKMD_WORKSPACE_HELPER"
	rootEnv    = "TASKMD_WORKSPACE_ROOT"
	workerEnv  = "TASKMD_WORKSPACE_WORKER"
	countEnv   = "TASKMD_WORKSPACE_COUNT"
	workersEnv = "TASKMD_WORKSPACE_WORKERS"
	padEnv     = "TASKMD_WORKSPACE_PAD"
)

func helper(t testing.TB, role, root string, worker, count, workers, pad int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+role, rootEnv+"="+root,
		workerEnv+"="+strconv.Itoa(worker), countEnv+"="+strconv.Itoa(count),
		workersEnv+"="+strconv.Itoa(workers), padEnv+"="+strconv.Itoa(pad))
	return cmd
}

// TestHelperProcess is not a test: it is the body of the child processes.
// Roles:
//   - update: COUNT increments of worker WORKER's count, then exit.
//   - loop: increments forever, printing "ok" after each, until killed.
//   - read: read and check the document until a file "stop" appears; print
//     the number of reads.
//   - flip: COUNT critical sections on a file that comes and goes; see
//     runFlip.
//   - bench, bench-floor: see runBenchHelper.
func TestHelperProcess(t *testing.T) {
	role := os.Getenv(helperEnv)
	if role == "" {
		t.Skip("only runs as a child process")
	}
	env := func(k string) int { n, _ := strconv.Atoi(os.Getenv(k)); return n }
	root, worker, count, workers, pad := os.Getenv(rootEnv), env(workerEnv), env(countEnv), env(workersEnv), env(padEnv)
	ws, err := Open(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := runHelper(ws, role, worker, count, workers, pad); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runHelper(ws *Workspace, role string, worker, count, workers, pad int) error {
	ctx := context.Background()
	update := setCount(worker)
	switch role {
	case "update":
		for range count {
			if _, err := ws.Update(ctx, docName, update); err != nil {
				return err
			}
		}
	case "loop":
		fmt.Println("ready")
		for {
			if _, err := ws.Update(ctx, docName, update); err != nil {
				return err
			}
			fmt.Println("ok")
		}
	case "read":
		reads := 0
		for {
			if _, err := os.Stat(filepath.Join(ws.Root(), "stop")); err == nil {
				fmt.Println(reads)
				return nil
			}
			data, _, err := ws.Read(ctx, docName)
			if err != nil {
				return err
			}
			if _, err := readCounts(data, workers, pad); err != nil {
				return fmt.Errorf("read %d: %w", reads, err)
			}
			if _, err := taskCounts(data, workers); err != nil {
				return fmt.Errorf("read %d does not parse: %w", reads, err)
			}
			reads++
		}
	case "flip":
		return runFlip(ws, count)
	case "bench", "bench-floor":
		return runBenchHelper(ws, role, worker, count)
	default:
		return fmt.Errorf("unknown role %q", role)
	}
	return nil
}

func TestConcurrentProcessesLoseNoUpdate(t *testing.T) {
	const workers, updates, pad = 4, 100, 2000
	_, dir := newWorkspace(t)
	writeFile(t, dir, docName, counterDoc(make([]int, workers), pad))

	reader := helper(t, "read", dir, 0, 0, workers, pad)
	readerOut, err := reader.StdoutPipe()
	require.NoError(t, err)
	reader.Stderr = os.Stderr
	require.NoError(t, reader.Start())

	var wg sync.WaitGroup
	for i := range workers {
		cmd := helper(t, "update", dir, i, updates, workers, pad)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		require.NoError(t, cmd.Start())
		wg.Go(func() { assert.NoError(t, cmd.Wait(), "worker %d", i) })
	}
	wg.Wait()
	writeFile(t, dir, "stop", nil)
	out, err := io.ReadAll(readerOut)
	require.NoError(t, err)
	require.NoError(t, reader.Wait(), "every read parses")
	reads, err := strconv.Atoi(string(out[:len(out)-1]))
	require.NoError(t, err)
	t.Logf("reader checked %d versions", reads)
	assert.Positive(t, reads)

	data, err := os.ReadFile(filepath.Join(dir, docName))
	require.NoError(t, err)
	counts, err := readCounts(data, workers, pad)
	require.NoError(t, err)
	assert.Equal(t, []int{updates, updates, updates, updates}, counts)
	assert.Empty(t, tempFiles(t, dir))
}

// TestCrashLeavesAValidState kills updating processes at random moments and
// checks after each round that the document is exactly one state an update
// produced, and that no acknowledged update was lost: the count is at least
// the number of updates children reported done, and at most that plus one
// per killed child (an update done but not yet reported).
func TestCrashLeavesAValidState(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 200 processes")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs SIGKILL")
	}
	const children, rounds, pad = 4, 50, 20000 // 4 × 50 = 200 kills
	ws, dir := newWorkspace(t)
	writeFile(t, dir, docName, counterDoc([]int{0}, pad))
	acked := 0
	for round := range rounds {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range children {
			cmd := helper(t, "loop", dir, 0, 0, 1, pad)
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			cmd.Stderr = os.Stderr
			require.NoError(t, cmd.Start())
			lines := bufio.NewScanner(out)
			require.True(t, lines.Scan(), "child started")
			require.Equal(t, "ready", lines.Text())
			wg.Go(func() {
				time.Sleep(time.Duration(1+rand.IntN(20)) * time.Millisecond)
				assert.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
				n := 0
				for lines.Scan() {
					n++
				}
				err := cmd.Wait()
				var exit *exec.ExitError
				if assert.ErrorAs(t, err, &exit, "child died of the kill, not of an error") {
					assert.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal())
				}
				mu.Lock()
				acked += n
				mu.Unlock()
			})
		}
		wg.Wait()

		data, err := os.ReadFile(filepath.Join(dir, docName))
		require.NoError(t, err, "round %d", round)
		counts, err := readCounts(data, 1, pad)
		require.NoError(t, err, "round %d", round)
		_, err = taskCounts(data, 1)
		require.NoError(t, err, "round %d", round)
		require.GreaterOrEqual(t, counts[0], acked, "round %d: an acknowledged update was lost", round)
		require.LessOrEqual(t, counts[0], acked+children*(round+1), "round %d", round)
	}
	t.Logf("%d kills, %d acknowledged updates, %d temporary files left by the kills",
		children*rounds, acked, len(tempFiles(t, dir)))

	_, err := ws.Update(context.Background(), docName, setCount(0))
	require.NoError(t, err, "the document is usable after the crashes")
	assert.Empty(t, tempFiles(t, dir), "leftover temporary files are cleaned up")
}
