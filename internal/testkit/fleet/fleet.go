// Package fleet measures plans shared by many machines through one git
// remote (package gitsync): a bare remote, a clone per machine, and a
// process per machine whose agents take tasks until every plan is done.
// Run prints nothing; it returns the run's figures next to its floor, the
// fetch, commit and push cycles that the same processes make on the same
// remote with nothing else. examples/fleet prints them as a table, and
// gitsync's BenchmarkFleet reports them.
//
// A program that runs a fleet calls Child first thing (TestMain, main):
// the machines are copies of the running binary, told what to do by their
// environment.
package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/testkit/procs"
	"github.com/taskmd/taskmd/taskdoc"
)

// Options is the size of a run.
type Options struct {
	Machines int // processes, each with its own clone
	Agents   int // agents a machine (goroutines)
	Tasks    int // tasks in all, spread over the plans
	Plans    int // plan documents, plans/p1.md to plans/pN.md
	// PlanRefs shares each plan on a ref of its own (gitsync.WithPlanRefs).
	PlanRefs bool
	// PlanAMachine starts every agent of machine i on plan i (mod Plans);
	// otherwise each agent of a machine starts on a plan of its own.
	PlanAMachine bool
	// FloorCycles is how many fetch, commit and push cycles each floor
	// process pushes (default 20).
	FloorCycles int
	// Dir is where the remote and the clones go; a new temporary folder
	// (removed afterwards) when "".
	Dir string
	// Timeout bounds the run (default 10 minutes): a machine still working
	// then stops, and its tasks count as unfinished.
	Timeout time.Duration
}

// Result is a run's figures.
type Result struct {
	Options
	Seconds     float64 // from the start signal until the last machine stopped
	TasksPerSec float64 // tasks completed a second, by the whole fleet
	Completed   []int   // tasks completed by each machine
	Calls       int     // gitsync calls made
	Failed      int     // calls that returned an error
	// RejectedPerPush is how many pushes the remote rejected (another
	// machine pushed first) for each one it took.
	RejectedPerPush float64
	CPUPerTask      float64 // CPU seconds (machines and their git commands) per task completed
	// Wait50, Wait95 and WaitMax are how long a call that changed a task
	// (a claim, a start, a completion) took, in seconds: the median, the
	// 95th percentile and the longest.
	Wait50, Wait95, WaitMax float64
	Unfinished              int // tasks of the remote's plans not completed at the end
	// FloorPerSec is the floor: the fetch, commit and push cycles a second
	// that Machines processes get through on one remote, each committing
	// a file of its own (a rejected push is fetched and made again).
	FloorPerSec float64
	Errors      []string // the first errors the machines met, for a person
}

// MinShare is the least share of the fair one (Tasks/Machines) that any
// machine completed: 1 when every machine did as much, 0 when one did
// nothing.
func (r Result) MinShare() float64 {
	if len(r.Completed) == 0 || r.Tasks == 0 {
		return 0
	}
	least := r.Completed[0]
	for _, n := range r.Completed {
		least = min(least, n)
	}
	return float64(least) * float64(len(r.Completed)) / float64(r.Tasks)
}

// The environment of a machine process.
const (
	envMode   = "TASKMD_FLEET_MODE" // "machine" or "floor"
	envDir    = "TASKMD_FLEET_DIR"  // its clone
	envIndex  = "TASKMD_FLEET_INDEX"
	envAgents = "TASKMD_FLEET_AGENTS"
	envPlans  = "TASKMD_FLEET_PLANS"
	envRefs   = "TASKMD_FLEET_PLAN_REFS" // "1" for plan refs
	envOne    = "TASKMD_FLEET_PLAN_A_MACHINE"
	envCycles = "TASKMD_FLEET_CYCLES"
	envUntil  = "TASKMD_FLEET_UNTIL" // the deadline, Unix nanoseconds
)

// Child runs a machine's work when this process is one, and then exits;
// otherwise it returns at once.
func Child() {
	mode := os.Getenv(envMode)
	if mode == "" {
		return
	}
	atoi := func(k string) int { n, _ := strconv.Atoi(os.Getenv(k)); return n }
	until, _ := strconv.ParseInt(os.Getenv(envUntil), 10, 64)
	ctx, cancel := context.WithDeadline(context.Background(), time.Unix(0, until))
	defer cancel()
	var (
		rep any
		err error
	)
	switch mode {
	case "machine":
		rep, err = machine(ctx, os.Getenv(envDir), atoi(envIndex), atoi(envAgents), atoi(envPlans), os.Getenv(envRefs) == "1", os.Getenv(envOne) == "1")
	case "floor":
		rep, err = floorCycles(ctx, os.Getenv(envDir), atoi(envIndex), atoi(envCycles))
	default:
		err = fmt.Errorf("fleet: unknown mode %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, _ := json.Marshal(rep)
	fmt.Println(string(out))
	os.Exit(0)
}

// Run makes the remote and the clones, runs the fleet and then the floor,
// and returns their figures.
func Run(o Options) (Result, error) {
	if o.Machines < 1 || o.Agents < 1 || o.Plans < 1 || o.Tasks < o.Plans {
		return Result{}, fmt.Errorf("fleet: needs at least one machine, agent and plan, and a task a plan: %+v", o)
	}
	if o.FloorCycles <= 0 {
		o.FloorCycles = 20
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Minute
	}
	res := Result{Options: o}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "taskmd-fleet-*")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	remote, err := makeRemote(dir, o)
	if err != nil {
		return res, err
	}
	clones := make([]string, o.Machines)
	for i := range clones {
		clones[i] = filepath.Join(dir, fmt.Sprintf("m%d", i))
		if _, err := git(dir, "clone", "-q", remote, clones[i]); err != nil {
			return res, err
		}
	}
	until := strconv.FormatInt(time.Now().Add(o.Timeout).UnixNano(), 10)
	var reports []machineReport
	secs, cpu, err := runGroup(o.Machines, func(i int) []string {
		return []string{envMode + "=machine", envDir + "=" + clones[i], envIndex + "=" + strconv.Itoa(i),
			envAgents + "=" + strconv.Itoa(o.Agents), envPlans + "=" + strconv.Itoa(o.Plans), envUntil + "=" + until,
			envRefs + "=" + map[bool]string{true: "1"}[o.PlanRefs], envOne + "=" + map[bool]string{true: "1"}[o.PlanAMachine]}
	}, &reports)
	if err != nil {
		return res, err
	}
	res.Seconds = secs
	var pushed, rejected int
	var waits []float64
	for _, r := range reports {
		waits = append(waits, r.Waits...)
		res.Completed = append(res.Completed, r.Completed)
		res.Calls += r.Calls
		res.Failed += r.Failed
		pushed += r.Pushed
		rejected += r.Rejected
		if len(res.Errors) < 10 {
			res.Errors = append(res.Errors, r.Errors...)
		}
	}
	done := 0
	for _, n := range res.Completed {
		done += n
	}
	if res.Unfinished, err = unfinished(remote, o.Plans); err != nil {
		return res, err
	}
	if secs > 0 {
		res.TasksPerSec = float64(done) / secs
	}
	if len(waits) > 0 {
		slices.Sort(waits)
		// The nearest rank: the smallest wait that q of the calls did not exceed.
		at := func(q float64) float64 { return waits[max(0, int(math.Ceil(q*float64(len(waits))))-1)] }
		res.Wait50, res.Wait95, res.WaitMax = at(0.5), at(0.95), waits[len(waits)-1]
	}
	if pushed > 0 {
		res.RejectedPerPush = float64(rejected) / float64(pushed)
	}
	if done > 0 {
		res.CPUPerTask = cpu.Seconds() / float64(done)
	}
	res.FloorPerSec, err = runFloor(dir, remote, o)
	return res, err
}

// runGroup starts n machine processes with env(i), releases them at once,
// waits for them and decodes each one's last line into *out. It returns
// the seconds from the start signal to the last one's end and the CPU
// time they and their commands used.
func runGroup[T any](n int, env func(i int) []string, out *[]T) (float64, time.Duration, error) {
	g, err := procs.Start(n, env)
	if err != nil {
		return 0, 0, err
	}
	defer g.Kill()
	start := time.Now()
	if err := g.Go(); err != nil {
		return 0, 0, err
	}
	lines, err := g.Wait()
	secs := time.Since(start).Seconds()
	if err != nil {
		return 0, 0, err
	}
	*out = make([]T, len(lines))
	for i, line := range lines {
		if err := json.Unmarshal([]byte(line), &(*out)[i]); err != nil {
			return 0, 0, fmt.Errorf("fleet: machine %d printed %q: %w", i, line, err)
		}
	}
	return secs, g.CPU(), nil
}

// runFloor runs o.Machines floor processes, each in a clone of its own,
// and returns the cycles a second they pushed together.
func runFloor(dir, remote string, o Options) (float64, error) {
	clones := make([]string, o.Machines)
	for i := range clones {
		clones[i] = filepath.Join(dir, fmt.Sprintf("floor%d", i))
		if _, err := git(dir, "clone", "-q", remote, clones[i]); err != nil {
			return 0, err
		}
	}
	until := strconv.FormatInt(time.Now().Add(o.Timeout).UnixNano(), 10)
	var reports []floorReport
	secs, _, err := runGroup(o.Machines, func(i int) []string {
		return []string{envMode + "=floor", envDir + "=" + clones[i], envIndex + "=" + strconv.Itoa(i),
			envCycles + "=" + strconv.Itoa(o.FloorCycles), envUntil + "=" + until}
	}, &reports)
	if err != nil || secs == 0 {
		return 0, err
	}
	pushed := 0
	for _, r := range reports {
		pushed += r.Pushed
	}
	return float64(pushed) / secs, nil
}

// floorReport is what a floor process prints.
type floorReport struct {
	Pushed   int `json:"pushed"`
	Rejected int `json:"rejected"`
}

// floorCycles pushes cycles commits of a file of its own from the clone
// dir: fetch, take the remote's branch, write, commit, push; a rejected
// push is made again from the fetch.
func floorCycles(ctx context.Context, dir string, i, cycles int) (floorReport, error) {
	var rep floorReport
	name := fmt.Sprintf("floor-%d.txt", i)
	if err := procs.Ready(); err != nil {
		return rep, err
	}
	for rep.Pushed < cycles && ctx.Err() == nil {
		if _, err := git(dir, "fetch", "-q", "origin"); err != nil {
			return rep, err
		}
		if _, err := git(dir, "reset", "-q", "--hard", "origin/main"); err != nil {
			return rep, err
		}
		line := fmt.Sprintf("cycle %d\n", rep.Pushed+rep.Rejected)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(line), 0o644); err != nil {
			return rep, err
		}
		if _, err := git(dir, "add", name); err != nil {
			return rep, err
		}
		if _, err := git(dir, "commit", "-q", "-m", "floor", "--", name); err != nil {
			return rep, err
		}
		if _, err := git(dir, "push", "-q", "origin", "HEAD:refs/heads/main"); err != nil {
			rep.Rejected++
			continue
		}
		rep.Pushed++
	}
	return rep, nil
}

// makeRemote makes a bare repository whose main branch holds the plans,
// and returns its path.
func makeRemote(dir string, o Options) (string, error) {
	remote := filepath.Join(dir, "remote.git")
	if _, err := git(dir, "init", "-q", "--bare", "-b", "main", remote); err != nil {
		return "", err
	}
	src := filepath.Join(dir, "first")
	if _, err := git(dir, "clone", "-q", remote, src); err != nil {
		return "", err
	}
	if _, err := git(src, "checkout", "-q", "-b", "main"); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(src, "docs", "plans"), 0o755); err != nil {
		return "", err
	}
	files := map[string]string{".gitignore": ".taskmd/\n"}
	for p := range o.Plans {
		n := o.Tasks / o.Plans
		if p < o.Tasks%o.Plans {
			n++
		}
		files["docs/"+PlanFile(p)] = planOf(p, n)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(src, filepath.FromSlash(name)), []byte(content), 0o644); err != nil {
			return "", err
		}
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "the plans"}, {"push", "-q", "origin", "main"}} {
		if _, err := git(src, args...); err != nil {
			return "", err
		}
	}
	return remote, nil
}

// PlanFile is the path of plan p (from 0) in the workspace, docs/ of the
// repository: "plans/p1.md".
func PlanFile(p int) string { return fmt.Sprintf("plans/p%d.md", p+1) }

// planOf is plan p's document: n pending tasks.
func planOf(p, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Plan %d\n\nWork shared by a fleet of machines.\n\n## Tasks\n", p+1)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\n### Task %d\n- Status: pending\n\nDo part %d of plan %d.\n", i, i, p+1)
	}
	return b.String()
}

// unfinished counts the tasks of the remote's plans that are not
// completed.
func unfinished(remote string, plans int) (int, error) {
	n := 0
	for p := range plans {
		src, err := git(remote, "show", "main:docs/"+PlanFile(p))
		if err != nil {
			return 0, err
		}
		doc, err := taskdoc.Parse([]byte(src))
		if err != nil {
			return 0, fmt.Errorf("fleet: the remote's %s: %w", PlanFile(p), err)
		}
		for _, tk := range doc.Tasks {
			if tk.Status != taskdoc.StatusCompleted {
				n++
			}
		}
	}
	return n, nil
}

// git runs git in dir with a fixed identity and no global configuration.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=fleet", "GIT_AUTHOR_EMAIL=fleet@localhost",
		"GIT_COMMITTER_NAME=fleet", "GIT_COMMITTER_EMAIL=fleet@localhost", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}
