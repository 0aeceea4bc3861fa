package gitsync_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/procs"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// A racing child is one machine making changes of its own on a remote
// that others change too: its clone, which of the machines it is, and
// how many tasks it claims and completes.
const (
	envRaceDir   = "TASKMD_GITSYNC_RACE_DIR"
	envRaceIndex = "TASKMD_GITSYNC_RACE_INDEX"
	envRaceTasks = "TASKMD_GITSYNC_RACE_TASKS"
)

// raceChild runs a racing child's work when this process is one, and
// exits.
func raceChild() {
	dir := os.Getenv(envRaceDir)
	if dir == "" {
		return
	}
	i, _ := strconv.Atoi(os.Getenv(envRaceIndex))
	n, _ := strconv.Atoi(os.Getenv(envRaceTasks))
	times, err := race(dir, i, n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, _ := json.Marshal(times)
	fmt.Println(string(out))
	os.Exit(0)
}

// race claims and completes tasks i*n+1 to i*n+n of docs/plan.md, tasks
// no other machine touches, and returns when each change reached the
// remote (Unix nanoseconds). Any call that fails or does not push is an
// error.
func race(dir string, i, n int) ([]int64, error) {
	ws, err := workspace.Open(dir)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	plans := plan.New(ws) // the real clock, as a fleet runs: leases live, batches paced
	s, err := gitsync.New(ctx, ws, plans)
	if err != nil {
		return nil, err
	}
	id := fmt.Sprintf("agent-m%d", i) // registered by liveMachine
	if err := procs.Ready(); err != nil {
		return nil, err
	}
	var times []int64
	for k := i*n + 1; k <= i*n+n; k++ {
		addr := fmt.Sprintf("/plan.md#task-%d", k)
		res, err := s.Claim(ctx, addr, id)
		if err != nil || !res.Success || !res.Pushed {
			return nil, fmt.Errorf("claim %s: %v %+v", addr, err, res)
		}
		times = append(times, time.Now().UnixNano())
		done, err := s.UpdateStatus(ctx, addr, plan.Claimant{Agent: id, Token: res.Claim.Token},
			plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "Done."})
		if err != nil || !done.Pushed {
			return nil, fmt.Errorf("complete %s: %v %+v", addr, err, done)
		}
		times = append(times, time.Now().UnixNano())
	}
	return times, nil
}

// TestFairRetries: 4 machines, each a process with its own clone, make
// changes of their own on one remote as fast as they can. Every call
// succeeds (load on the remote is no failure), and while all four are
// racing no machine pushes less than a third of its fair share: a machine
// that keeps losing the race is served too.
func TestFairRetries(t *testing.T) {
	if testing.Short() {
		t.Skip("4 processes × 24 changes through git")
	}
	const machines, tasks = 4, 12
	remote := newRemote(t, map[string]string{doc: planOf(machines * tasks), ".gitignore": ".taskmd/\n"})
	dirs := make([]string, machines)
	for i := range dirs {
		dirs[i] = liveMachine(t, remote, fmt.Sprint("m", i)).dir
	}
	g, err := procs.Start(machines, func(i int) []string {
		return []string{envRaceDir + "=" + dirs[i], envRaceIndex + "=" + strconv.Itoa(i), envRaceTasks + "=" + strconv.Itoa(tasks)}
	})
	require.NoError(t, err)
	t.Cleanup(g.Kill)
	require.NoError(t, g.Go())
	lines, err := g.Wait()
	require.NoError(t, err, "every call succeeds")
	times := make([][]int64, machines)
	for i, line := range lines {
		require.NoError(t, json.Unmarshal([]byte(line), &times[i]), "child %d printed %q", i, line)
		require.Len(t, times[i], 2*tasks)
	}
	// The race lasts until the first machine is done.
	end := slices.Min([]int64{times[0][2*tasks-1], times[1][2*tasks-1], times[2][2*tasks-1], times[3][2*tasks-1]})
	counts := make([]int, machines)
	total := 0
	for i, ts := range times {
		for _, at := range ts {
			if at <= end {
				counts[i]++
			}
		}
		total += counts[i]
	}
	// Pushes are won at random: a third of the fair share is the bound
	// that a run never misses by chance (half is what a run of 8 machines
	// × 4 agents measures, BenchmarkFleet's min-share); a machine starved
	// gets none.
	fair := float64(total) / machines
	t.Logf("changes each machine pushed while all raced: %v", counts)
	for i, n := range counts {
		assert.GreaterOrEqual(t, float64(n), fair/3, "machine %d pushed %d changes of %d while all raced: %v", i, n, total, counts)
	}
	final := remoteFile(t, remote, doc)
	for k := 1; k <= machines*tasks; k++ {
		assert.Equal(t, taskdoc.StatusCompleted, taskIn(t, final, fmt.Sprintf("task-%d", k)).Status)
	}
}
