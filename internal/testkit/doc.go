// Package testkit holds, in its sub-packages, the kits that test and
// measure taskmd from outside: filetest (a test's files in one call),
// zerotest (values made without a workspace), procs (real processes that
// start at one signal), floor (what a benchmark is measured against),
// benchsuite (the benchmark suite, printed by examples/bench) and doccheck
// (the Go samples and links of README.md and docs/, checked).
//
// The other packages of internal/ are the engine's own (taskflow, claims,
// git, hooks, watch, mdtext, affix, parsecount): the library runs on them.
// The library never runs on a kit: only tests, benchmarks, the examples
// and the kits themselves import internal/testkit, as the layering test of
// internal/taskflow checks.
package testkit
