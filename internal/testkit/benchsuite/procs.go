package benchsuite

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/testkit/floor"
	"github.com/taskmd/taskmd/internal/testkit/procs"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// TasksPerProcess is how many tasks each process of a process case works.
const TasksPerProcess = 20

// The environment of a child process: the workspace, what it does
// ("plan" or "floor"), which of how many processes it is.
const (
	envRoot  = "TASKMD_BENCH_ROOT"
	envMode  = "TASKMD_BENCH_MODE"
	envIndex = "TASKMD_BENCH_INDEX"
	envProcs = "TASKMD_BENCH_PROCS"
	// envProfile, when set in the suite's own environment (Run sets it
	// with Options.ProfileDir), makes each child write a CPU profile to
	// <value>.<mode>-<pid>.pprof.
	envProfile = "TASKMD_BENCH_PROFILE"
)

// Child runs the process cases' child work when this process is such a
// child, and then exits; otherwise it returns at once. A program running
// the suite calls it first thing (TestMain, main).
func Child() {
	root := os.Getenv(envRoot)
	if root == "" {
		return
	}
	i, _ := strconv.Atoi(os.Getenv(envIndex))
	n, _ := strconv.Atoi(os.Getenv(envProcs))
	stop, err := profileChild(os.Getenv(envMode))
	if err == nil {
		err = child(root, os.Getenv(envMode), i, n)
		stop()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// profileChild starts a CPU profile of this child when the suite asks for
// one; stop ends it.
func profileChild(mode string) (stop func(), err error) {
	prefix := os.Getenv(envProfile)
	if prefix == "" {
		return func() {}, nil
	}
	f, err := os.Create(fmt.Sprintf("%s.%s-%d.pprof", prefix, mode, os.Getpid()))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// child warms up as a running server has (it has read the plan and locked
// it before; the floor has locked its lock file), says "ready", waits for
// a line on its standard input, works its tasks (i, i+n, i+2n, ...) and
// says "done".
func child(root, mode string, i, n int) error {
	ws, err := workspace.Open(root)
	if err != nil {
		return err
	}
	defer ws.Close()
	plans := plan.New(ws)
	id := fmt.Sprintf("proc-%d", i)
	file := filepath.Join(root, "docs", "plan.md")
	lock := flock.New(filepath.Join(root, ".floor.lock"))
	tasks := subagent.New(ws)
	if err := warmUp(ws, tasks, lock, isFloor(mode)); err != nil {
		return err
	}
	if err := procs.Ready(); err != nil {
		return err
	}
	for k := i; k < n*TasksPerProcess; k += n {
		addr := "/plan.md#" + Slug(k)
		switch mode {
		case "plan-floor", "complete-floor":
			writes := 1
			if mode == "plan-floor" {
				writes = 3
			}
			for range writes {
				if err := lockedRewrite(lock, file); err != nil {
					return err
				}
			}
			continue
		case "complete":
			if _, err := tasks.Complete(ctx, addr, "Done by "+id+"."); err != nil {
				return err
			}
			continue
		}
		res, err := plans.Claim(ctx, addr, id)
		if err != nil || !res.Success {
			return fmt.Errorf("claim %s: %v %+v", addr, err, res)
		}
		c := plan.Claimant{Agent: id, Token: res.Claim.Token}
		if _, err := plans.AddEntry(ctx, addr, c, journal.Entry{Type: journal.TypeProgress, Summary: "Half way."}); err != nil {
			return err
		}
		if _, err := plans.UpdateStatus(ctx, addr, c, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "Done by " + id + "."}); err != nil {
			return err
		}
	}
	fmt.Println("done")
	return nil
}

// warmUp makes a child of the operation read the plan through the
// workspace and lock it once, and a child of the floor lock its lock file
// once.
func warmUp(ws *workspace.Workspace, tasks *subagent.Tasks, lock *flock.Flock, floor bool) error {
	if floor {
		if err := lock.Lock(); err != nil {
			return err
		}
		return lock.Unlock()
	}
	if _, err := tasks.List(ctx, "/plan.md"); err != nil {
		return err
	}
	return ws.Lock(ctx, []string{"docs/plan.md"}, func(*workspace.Tx) error { return nil })
}

// isFloor reports whether a child's mode is a floor's.
func isFloor(mode string) bool { return strings.HasSuffix(mode, "-floor") }

// lockedRewrite is the floor of one write on a shared plan: lock, read,
// change a byte, durable write, unlock.
func lockedRewrite(lock *flock.Flock, file string) error {
	if err := lock.Lock(); err != nil {
		return err
	}
	defer lock.Unlock()
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	data[len(data)-2] ^= 1
	return floor.DurableWrite(file, data)
}

// processCases are n processes working TasksPerProcess tasks each of one
// document, all at once: completing them (subagent), against the same
// processes making one locked write of the document a task; and claiming,
// checkpointing and completing them as agents (plan), against three
// locked writes a task.
func processCases(dir string, n int) []Case {
	complete := fmt.Sprintf("complete/%d procs", n)
	agents := fmt.Sprintf("claim+checkpoint+complete/%d procs", n)
	return []Case{{
		Name:      complete,
		FloorName: "flock + read + durable write, a task",
		Op:        func(b *testing.B) { runProcesses(b, dir, complete, "complete", n) },
		Floor:     func(b *testing.B) { runProcesses(b, dir, complete+"-floor", "complete-floor", n) },
	}, {
		Name:      agents,
		FloorName: "3 × (flock + read + durable write), a task",
		Op:        func(b *testing.B) { runProcesses(b, dir, agents, "plan", n) },
		Floor:     func(b *testing.B) { runProcesses(b, dir, agents+"-floor", "plan-floor", n) },
	}}
}

// runProcesses times n child processes working one plan of
// n×TasksPerProcess tasks, one run per iteration, from the start signal
// to the last "done"; the plan's agents are registered before. It checks
// that no update was lost: every task completed, with its checkpoint.
func runProcesses(b *testing.B, dir, name, mode string, n int) {
	for b.Loop() {
		b.StopTimer()
		root := mkdir(b, dir, name)
		if err := writeSupport(root); err != nil {
			b.Fatal(err)
		}
		if err := writeFile(root, "docs/plan.md", Plan(n*TasksPerProcess)); err != nil {
			b.Fatal(err)
		}
		ws, err := workspace.Open(root)
		if err != nil {
			b.Fatal(err)
		}
		reg := agent.New(ws)
		for i := range n {
			if _, err := reg.Register(ctx, agent.Registration{ID: fmt.Sprintf("proc-%d", i), Name: "bench", Runtime: "bench"}); err != nil {
				b.Fatal(err)
			}
		}
		g, err := procs.Start(n, func(i int) []string {
			return []string{envRoot + "=" + root, envMode + "=" + mode, envIndex + "=" + strconv.Itoa(i), envProcs + "=" + strconv.Itoa(n)}
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := g.Go(); err != nil {
			b.Fatal(err)
		}
		lines, err := g.Wait()
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		for i, line := range lines {
			if line != "done" {
				b.Fatalf("child %d ended with %q", i, line)
			}
		}
		if mode == "plan" || mode == "complete" {
			checkAllDone(b, ws, n*TasksPerProcess, mode == "plan")
		}
		ws.Close()
		b.StartTimer()
	}
}

// checkAllDone fails b unless every task of the plan is completed, and
// has its checkpoint when withJournal is set.
func checkAllDone(b *testing.B, ws *workspace.Workspace, tasks int, withJournal bool) {
	data, err := ws.ReadData(ctx, "docs/plan.md")
	if err != nil {
		b.Fatal(err)
	}
	doc, err := taskdoc.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	j := journal.New(ws)
	for k := range tasks {
		tk, err := doc.Task(Slug(k))
		if err != nil || tk.Status != taskdoc.StatusCompleted {
			b.Fatalf("task %d lost its completion: %v %v", k, err, tk)
		}
		if !withJournal {
			continue
		}
		entries, err := j.List(ctx, "/plan.md#"+Slug(k), journal.Query{})
		if err != nil || len(entries) != 1 {
			b.Fatalf("task %d has %d checkpoints, not 1: %v", k, len(entries), err)
		}
	}
}
