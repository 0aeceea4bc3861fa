// Command bench generates workspaces and prints taskmd's benchmark suite
// as a table: each operation next to its floor, measured in the same run,
// and the ratio.
//
//	go run ./examples/bench                      # every case, about 3 minutes
//	go run ./examples/bench -quick               # small sizes, seconds
//	go run ./examples/bench -run 'complete/1000' -benchtime 2s
//	go run ./examples/bench -run list -profile /tmp/prof   # one CPU profile a case
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"testing"

	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
)

func main() {
	benchsuite.Child() // the process cases run this binary again
	testing.Init()
	run := flag.String("run", "", "only the cases whose name matches this regular expression")
	quick := flag.Bool("quick", false, "small sizes: a quick check that every case works")
	benchtime := flag.String("benchtime", "1s", "how long to run each operation and floor (a duration, or Nx for N runs)")
	profile := flag.String("profile", "", "a folder to write a CPU profile of each case's operation to")
	flag.Parse()
	if err := flag.Set("test.benchtime", *benchtime); err != nil {
		fail(err)
	}
	o := benchsuite.Options{ProfileDir: *profile}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fail(err)
		}
		o.Match = re
	}
	sizes := benchsuite.DefaultSizes()
	if *quick {
		sizes = benchsuite.Sizes{Tasks: []int{10, 100}, Documents: []int{100}, DesignDocs: 100, Cycle: 100, Crowd: 100, Processes: []int{1, 2}}
	}
	dir, err := os.MkdirTemp("", "taskmd-bench-*")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	fmt.Printf("taskmd benchmark suite: %s/%s, %d cores, workspaces in %s\n\n", runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), dir)
	benchsuite.WriteHeader(os.Stdout)
	err = benchsuite.Run(benchsuite.Cases(dir, sizes), o, func(r benchsuite.Result) {
		benchsuite.WriteRow(os.Stdout, r)
	})
	if err != nil {
		os.RemoveAll(dir)
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
