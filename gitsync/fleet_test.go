package gitsync_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/taskmd/taskmd/internal/testkit/fleet"
)

// BenchmarkFleet runs machine processes, each with its own clone and
// agents, through one bare remote until every task of the plans is
// completed (internal/testkit/fleet), and reports the fleet's figures next
// to the floor measured in the same run: the fetch, commit and push
// cycles a second that as many processes get through on the remote. Each
// size runs on one branch and with plan refs (gitsync.WithPlanRefs). The
// full-size fleet (8 machines × 4 agents, 200 tasks over 8 plans) runs
// when TASKMD_FLEET=1 and not -short.
func BenchmarkFleet(b *testing.B) {
	sizes := []fleet.Options{{Machines: 2, Agents: 2, Tasks: 24, Plans: 2}}
	if os.Getenv("TASKMD_FLEET") == "1" && !testing.Short() {
		sizes = append(sizes, fleet.Options{Machines: 8, Agents: 4, Tasks: 200, Plans: 8})
	}
	var runs []fleet.Options
	for _, o := range sizes {
		runs = append(runs, o)
		o.PlanRefs = true
		runs = append(runs, o)
	}
	for _, o := range runs {
		shared := map[bool]string{false: "branch", true: "plan-refs"}[o.PlanRefs]
		b.Run(fmt.Sprintf("%dx%d/%d-tasks/%d-plans/%s", o.Machines, o.Agents, o.Tasks, o.Plans, shared), func(b *testing.B) {
			o.Dir = b.TempDir()
			var r fleet.Result
			for b.Loop() {
				var err error
				if r, err = fleet.Run(o); err != nil {
					b.Fatal(err)
				}
				if r.Failed > 0 || r.Unfinished > 0 {
					b.Fatalf("%d failed calls, %d tasks unfinished: %v", r.Failed, r.Unfinished, r.Errors)
				}
				o.Dir = b.TempDir()
			}
			b.ReportMetric(r.TasksPerSec, "tasks/s")
			b.ReportMetric(r.FloorPerSec, "floor-pushes/s")
			b.ReportMetric(r.MinShare(), "min-share")
			b.ReportMetric(r.RejectedPerPush, "rejected/push")
			b.ReportMetric(r.CPUPerTask, "cpu-s/task")
		})
	}
}
