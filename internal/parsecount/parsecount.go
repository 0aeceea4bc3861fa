// Package parsecount counts taskdoc's goldmark parses, so that tests can
// prove what an operation costs: "one parse per operation" is a claim
// about counts, and timing cannot prove it.
//
// It exists for tests. Counting costs one atomic add per parse, next to a
// parse that costs microseconds at the least, so it is always on rather
// than behind a build tag that tests would have to remember. The counters
// are process-wide: a test that reads them must not run in parallel with
// other parsing tests.
//
//	docs, _ := parsecount.During(func() { /* one operation */ })
//	require.Equal(t, int64(1), docs)
package parsecount

import "sync/atomic"

var (
	// Documents counts goldmark parses of a whole document body: those
	// taskdoc.Parse makes.
	Documents atomic.Int64
	// Regions counts every other goldmark block parse taskdoc makes: an
	// edited range being checked, or a task of a batch on its own.
	Regions atomic.Int64
)

// Snapshot returns both counters.
func Snapshot() (documents, regions int64) {
	return Documents.Load(), Regions.Load()
}

// During runs fn and returns how many parses of each kind the process
// made meanwhile.
func During(fn func()) (documents, regions int64) {
	d0, r0 := Snapshot()
	fn()
	d1, r1 := Snapshot()
	return d1 - d0, r1 - r0
}
