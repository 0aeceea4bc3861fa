package benchsuite_test

import (
	"flag"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
)

func TestMain(m *testing.M) {
	benchsuite.Child()
	os.Exit(m.Run())
}

// BenchmarkSuite runs every case at the sizes, each next to its
// floor: go test -bench Suite ./internal/benchsuite (or a part of it:
// -bench 'Suite/complete/1000/').
func BenchmarkSuite(b *testing.B) {
	for _, c := range benchsuite.Cases(b.TempDir(), benchsuite.DefaultSizes()) {
		b.Run(c.Name, c.Op)
		b.Run(c.Name+"/floor", c.Floor)
	}
}

// TestSuiteRuns runs every case once, at small sizes, so that the suite
// keeps working: each operation and floor completes and checks what it
// did (the process cases check that no update was lost).
func TestSuiteRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every case")
	}
	old := flag.Lookup("test.benchtime").Value.String()
	require.NoError(t, flag.Set("test.benchtime", "1x"))
	defer flag.Set("test.benchtime", old)
	sizes := benchsuite.Sizes{Tasks: []int{10}, Documents: []int{20}, DesignDocs: 5, Cycle: 10, Crowd: 30, Processes: []int{2}}
	var names []string
	err := benchsuite.Run(benchsuite.Cases(t.TempDir(), sizes), benchsuite.Options{}, func(r benchsuite.Result) {
		names = append(names, r.Case)
		assert.Positive(t, r.Op.NsPerOp(), r.Case)
		assert.Positive(t, r.Floor.NsPerOp(), r.Case)
		assert.False(t, math.IsInf(r.Ratio(), 0), r.Case)
	})
	require.NoError(t, err)
	assert.Equal(t, strings.Join([]string{
		"parse/1000",
		"start/10/cold", "start/10/warm", "complete/10/cold", "complete/10/warm",
		"complete/100/warm, 30 beside", "coordinator-cycle/10",
		"list/20/cold", "list/20/warm, one changed", "list/20/indexed, one changed",
		"list/5 design docs/cold", "list/5 design docs/warm, one changed",
		"complete/2 procs", "claim+checkpoint+complete/2 procs",
	}, "\n"), strings.Join(names, "\n"))
}
