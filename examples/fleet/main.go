// Command fleet measures a fleet of machines sharing plans through one git
// remote (package gitsync): it makes a bare remote and a clone per
// machine in a temporary folder, runs a process per machine whose agents
// claim the next task a plan offers, start and complete it until every
// plan is done, and prints
// the figures next to the floor, the fetch, commit and push cycles a
// second that as many processes get through on the same remote.
//
//	go run ./examples/fleet -machines 8 -agents 4 -tasks 200 -plans 8
//
// -plan-refs shares each plan on a ref of its own (gitsync.WithPlanRefs);
// -plan-a-machine starts all the agents of machine i on plan i.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/testkit/fleet"
)

func main() {
	fleet.Child() // the machines run this binary again
	var o fleet.Options
	flag.IntVar(&o.Machines, "machines", 2, "machine processes, each with a clone of its own")
	flag.IntVar(&o.Agents, "agents", 4, "agents a machine")
	flag.IntVar(&o.Tasks, "tasks", 100, "tasks in all, spread over the plans")
	flag.IntVar(&o.Plans, "plans", 1, "plan documents")
	flag.BoolVar(&o.PlanRefs, "plan-refs", false, "share each plan on a ref of its own (gitsync.WithPlanRefs)")
	flag.BoolVar(&o.PlanAMachine, "plan-a-machine", false, "start every agent of machine i on plan i, instead of each agent on a plan of its own")
	flag.IntVar(&o.FloorCycles, "floor-cycles", 20, "pushes each floor process makes")
	flag.DurationVar(&o.Timeout, "timeout", 10*time.Minute, "how long the machines may work")
	flag.StringVar(&o.Dir, "dir", "", "a folder for the remote and the clones (kept); a temporary one when empty")
	flag.Parse()
	r, err := fleet.Run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fleet:", err)
		os.Exit(1)
	}
	shared, start := "one branch", "each agent on a plan of its own"
	if o.PlanRefs {
		shared = "plan refs"
	}
	if o.PlanAMachine {
		start = "a machine's agents on one plan"
	}
	fmt.Printf("taskmd fleet: %s/%s, %d cores, a local bare remote; %s, %s at first\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), shared, start)
	fmt.Println("machines  agents  plans  tasks  seconds  tasks/s  min share  failed calls  rejected/push  CPU s/task  unfinished  floor pushes/s")
	fmt.Printf("%8d  %6d  %5d  %5d  %7.1f  %7.2f  %9.2f  %12d  %13.2f  %10.3f  %10d  %14.1f\n",
		r.Machines, r.Agents, r.Plans, r.Tasks, r.Seconds, r.TasksPerSec, r.MinShare(), r.Failed,
		r.RejectedPerPush, r.CPUPerTask, r.Unfinished, r.FloorPerSec)
	done := make([]string, len(r.Completed))
	for i, n := range r.Completed {
		done[i] = fmt.Sprint(n)
	}
	fmt.Printf("\ncompleted by each machine: %s (%d calls)\n", strings.Join(done, " "), r.Calls)
	fmt.Printf("a call that changes a task takes %.2f s (median), %.2f s (95%%), %.2f s at most\n", r.Wait50, r.Wait95, r.WaitMax)
	for _, e := range r.Errors {
		fmt.Println("error:", e)
	}
	if r.Failed > 0 || r.Unfinished > 0 {
		os.Exit(1)
	}
}
