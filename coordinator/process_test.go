package coordinator_test

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Child processes are this test binary run again with one of these
// variables naming the workspace root.
const (
	envRaceRoot  = "TASKMD_COORDINATOR_RACE_ROOT"
	envCrashRoot = "TASKMD_COORDINATOR_CRASH_ROOT"
)

// TestMain turns the binary into a child process when asked to.
func TestMain(m *testing.M) {
	if root := os.Getenv(envRaceRoot); root != "" {
		os.Exit(raceChild(root))
	}
	if root := os.Getenv(envCrashRoot); root != "" {
		os.Exit(crashChild(root))
	}
	os.Exit(m.Run())
}

// raceChild starts and completes tasks until the list is gone, printing
// "completed <slug>" for each task it completed and "archived <name>" when
// its completion archived the list.
func raceChild(root string) int {
	ws, err := workspace.Open(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer ws.Close()
	list := coordinator.New(ws)
	for {
		if _, err := list.Start(bg, coordinator.StartOptions{}); err != nil {
			if errors.Is(err, taskdoc.ErrNoAvailableTasks) {
				return 0
			}
			fmt.Fprintln(os.Stderr, "start:", err)
			return 1
		}
		done, err := list.Complete(bg, fmt.Sprintf("by process %d", os.Getpid()), coordinator.CompleteOptions{})
		if errors.Is(err, taskdoc.ErrNoAvailableTasks) {
			return 0
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "complete:", err)
			return 1
		}
		fmt.Printf("completed %s\n", done.Task.Slug)
		if done.ArchivedTo != "" {
			fmt.Printf("archived %s\n", done.ArchivedTo)
		}
	}
}

// crashChild says it is ready, then completes the current task (the last
// one, which archives the list) while the parent kills it at a random
// moment.
func crashChild(root string) int {
	ws, err := workspace.Open(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	list := coordinator.New(ws)
	fmt.Println("ready")
	done, err := list.Complete(bg, "last note", coordinator.CompleteOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "complete:", err)
		return 1
	}
	fmt.Println("archived", done.ArchivedTo)
	return 0
}

func child(t testing.TB, env, root string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+root)
	return cmd
}

// TestProcessesRaceOnOneList: four processes start and complete tasks of one
// list at the same time. Every task is completed exactly once, by exactly
// one process, and the list is archived exactly once.
func TestProcessesRaceOnOneList(t *testing.T) {
	const tasks, procs = 40, 4
	list, _, root := openList(t, nil)
	batch := []taskdoc.NewTask{first("task 0")}
	for i := 1; i < tasks; i++ {
		batch = append(batch, plain(fmt.Sprintf("task %d", i)))
	}
	_, err := list.Create(bg, batch...)
	require.NoError(t, err)

	outputs := make([]string, procs)
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			cmd := child(t, envRaceRoot, root)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			assert.NoError(t, err, "process %d: %s", p, stderr.String())
			outputs[p] = string(out)
		})
	}
	wg.Wait()

	completedBy := map[string]int{}
	var archivedTo []string
	for _, out := range outputs {
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if slug, ok := strings.CutPrefix(line, "completed "); ok {
				completedBy[slug]++
			} else if name, ok := strings.CutPrefix(line, "archived "); ok {
				archivedTo = append(archivedTo, name)
			}
		}
	}
	require.Len(t, completedBy, tasks, "every task completed")
	for slug, n := range completedBy {
		assert.Equal(t, 1, n, "task %s completed once", slug)
	}
	require.Len(t, archivedTo, 1, "archived once")
	assert.Equal(t, archivedTo, archives(t, root))
	_, exists := readFile(t, root, activeFile)
	assert.False(t, exists)
	archived := parseFile(t, root, archivedTo[0])
	require.Len(t, archived.Tasks, tasks)
	for _, task := range archived.Tasks {
		assert.Equal(t, taskdoc.StatusCompleted, task.Status, task.Slug)
		assert.Contains(t, field(t, task, "Note"), "by process", task.Slug)
		assert.Equal(t, 1, strings.Count(task.Content(), "Note:"), "one note on %s", task.Slug)
	}
}

// TestGoroutinesRaceOnOneList is the in-process form of the race above.
func TestGoroutinesRaceOnOneList(t *testing.T) {
	const tasks, workers = 24, 4
	list, _, root := openList(t, nil)
	batch := []taskdoc.NewTask{first("task 0")}
	for i := 1; i < tasks; i++ {
		batch = append(batch, plain(fmt.Sprintf("task %d", i)))
	}
	_, err := list.Create(bg, batch...)
	require.NoError(t, err)
	var mu sync.Mutex
	completed := map[string]int{}
	archivedCount := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				done, err := list.Complete(bg, "done", coordinator.CompleteOptions{})
				if errors.Is(err, taskdoc.ErrNoAvailableTasks) {
					return
				}
				if !assert.NoError(t, err) {
					return
				}
				mu.Lock()
				completed[done.Task.Slug]++
				if done.ArchivedTo != "" {
					archivedCount++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	assert.Len(t, completed, tasks)
	for slug, n := range completed {
		assert.Equal(t, 1, n, slug)
	}
	assert.Equal(t, 1, archivedCount)
	assert.Len(t, archives(t, root), 1)
}

// TestCrashWhileArchiving kills a process at random moments while it
// completes the last task and archives the list. Whatever the moment, the
// next operation leaves exactly one archive holding every note, and no
// active list.
func TestCrashWhileArchiving(t *testing.T) {
	rounds := 100
	if testing.Short() {
		rounds = 20
	}
	window := calibrateCrashWindow(t)
	outcomes := map[string]int{}
	for i := range rounds {
		list, _, root := openList(t, map[string]string{activeFile: lastTaskInProgress})
		killAfter(t, child(t, envCrashRoot, root), time.Duration(rand.Int64N(int64(window))))
		outcomes[crashState(t, root)]++

		// The next operation repairs whatever the crash left.
		_, err := list.List(bg)
		require.NoError(t, err, "round %d", i)
		if _, exists := readFile(t, root, activeFile); exists {
			// Killed before the last completion was written: nothing was
			// archived, and completing again finishes the job.
			assert.Empty(t, archives(t, root), "round %d", i)
			assert.Equal(t, taskdoc.StatusInProgress, statuses(t, root, activeFile)["c"], "round %d", i)
			_, err = list.Complete(bg, "last note", coordinator.CompleteOptions{})
			require.NoError(t, err)
		}
		names := archives(t, root)
		require.Len(t, names, 1, "round %d: exactly one archive", i)
		archived := parseFile(t, root, names[0])
		require.Len(t, archived.Tasks, 3, "round %d", i)
		for j, note := range []string{"note a", "note b", "last note"} {
			assert.Equal(t, note, field(t, archived.Tasks[j], "Note"), "round %d", i)
		}
		_, exists := readFile(t, root, activeFile)
		assert.False(t, exists, "round %d", i)
	}
	t.Logf("states after the kill over %d rounds: %v", rounds, outcomes)
}

// lastTaskInProgress is a list with two tasks done and the last one in
// progress.
const lastTaskInProgress = `# Coordinator Tasks

## Tasks

### a

- Status: completed
- Main-Workflow: tdd-incremental-orchestration
- Completed: 2026-11-21
- Note: note a

### b

- Status: completed
- Completed: 2026-11-21
- Note: note b

### c

- Status: in_progress
`

// killAfter starts cmd, waits for its "ready" line, lets it run for d and
// kills it.
func killAfter(t *testing.T, cmd *exec.Cmd, d time.Duration) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line)
	time.Sleep(d)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
}

// calibrateCrashWindow measures how long a child takes from "ready" to exit
// when not killed, so that kills spread over the whole completion.
func calibrateCrashWindow(t *testing.T) time.Duration {
	var longest time.Duration
	for range 3 {
		list, _, root := openList(t, nil)
		_, err := list.Create(bg, first("a"))
		require.NoError(t, err)
		cmd := child(t, envCrashRoot, root)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		r := bufio.NewReader(out)
		_, err = r.ReadString('\n')
		require.NoError(t, err)
		start := time.Now()
		_, err = r.ReadString('\n')
		require.NoError(t, err)
		longest = max(longest, time.Since(start))
		require.NoError(t, cmd.Wait())
	}
	return longest + longest/4
}

// crashState names what a kill left on disk.
func crashState(t *testing.T, root string) string {
	_, active := readFile(t, root, activeFile)
	n := len(archives(t, root))
	switch {
	case active && n == 0 && statuses(t, root, activeFile)["c"] == taskdoc.StatusCompleted:
		return "completed, not archived"
	case active && n == 0:
		return "not completed"
	case active:
		return "archive copied, list not removed"
	default:
		return "archived"
	}
}
