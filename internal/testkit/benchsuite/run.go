package benchsuite

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"
)

// Result is a case's operation and floor, measured in turns (Rounds of
// each, op then floor), each the round with the median time: a disk's
// fsync time drifts over seconds, and turns give both the same disk.
type Result struct {
	Case      string
	Op        testing.BenchmarkResult
	FloorName string
	Floor     testing.BenchmarkResult
}

// Ratio is the operation's time over the floor's: 1.0 is the floor.
func (r Result) Ratio() float64 {
	f := r.Floor.NsPerOp()
	if f == 0 {
		return math.Inf(1)
	}
	return float64(r.Op.NsPerOp()) / float64(f)
}

// Options say which cases Run measures and where it writes profiles.
type Options struct {
	Match *regexp.Regexp // only cases whose name matches; nil is all
	// ProfileDir, when set, receives a CPU profile of each case's
	// operation: <case name with / as _>.pprof, and the child processes
	// of a process case one each: <case>.<mode>-<pid>.pprof, where mode
	// tells the operation's children from the floor's.
	ProfileDir string
}

// Run measures cases with testing.Benchmark (its -test.benchtime applies
// once testing.Init has run) and reports each result as it comes.
func Run(cases []Case, o Options, report func(Result)) error {
	for _, c := range cases {
		if o.Match != nil && !o.Match.MatchString(c.Name) {
			continue
		}
		var stop func()
		if o.ProfileDir != "" {
			prefix := filepath.Join(o.ProfileDir, strings.NewReplacer("/", "_", " ", "_").Replace(c.Name))
			if err := os.Setenv(envProfile, prefix); err != nil {
				return err
			}
			f, err := os.Create(prefix + ".pprof")
			if err != nil {
				return err
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return err
			}
			stop = func() { pprof.StopCPUProfile(); f.Close(); os.Unsetenv(envProfile) }
		}
		var ops, floors []testing.BenchmarkResult
		for range Rounds {
			op := testing.Benchmark(c.Op)
			floor := testing.Benchmark(c.Floor)
			if op.N == 0 || floor.N == 0 {
				if stop != nil {
					stop()
				}
				return fmt.Errorf("case %s failed (see its output above)", c.Name)
			}
			ops, floors = append(ops, op), append(floors, floor)
		}
		if stop != nil {
			stop()
		}
		report(Result{Case: c.Name, Op: median(ops), FloorName: c.FloorName, Floor: median(floors)})
	}
	return nil
}

// Rounds is how many turns of its operation and its floor a case gets.
const Rounds = 3

// median is the result with the median time per operation.
func median(rs []testing.BenchmarkResult) testing.BenchmarkResult {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b testing.BenchmarkResult) int { return cmp.Compare(a.NsPerOp(), b.NsPerOp()) })
	return rs[len(rs)/2]
}

// WriteHeader prints the table's header.
func WriteHeader(w io.Writer) {
	fmt.Fprintf(w, rowFormat, "case", "op", "floor", "ratio", "op memory", "floor is")
}

// rowFormat lays out a row: rows are printed as they are measured, so the
// columns have fixed widths.
const rowFormat = "%-36s %10s %10s %7s %10s  %s\n"

// WriteRow prints one result.
func WriteRow(w io.Writer, r Result) {
	mem := "-"
	if r.Op.MemAllocs > 0 {
		mem = bytesOf(r.Op.AllocedBytesPerOp())
	}
	fmt.Fprintf(w, rowFormat, r.Case, duration(r.Op.NsPerOp()), duration(r.Floor.NsPerOp()),
		fmt.Sprintf("%.2f×", r.Ratio()), mem, r.FloorName)
}

func duration(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
	}
}

func bytesOf(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d B", n)
	}
}
