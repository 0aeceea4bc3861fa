// Package benchsuite is taskmd's benchmark suite: the operations that
// matter at scale, each measured next to a floor taken in the same run,
// so that a figure always comes with what it could at best be. go test
// -bench runs it (bench_test.go), and examples/bench prints it as a table
// for a workspace it generates.
//
// Floors: a parse is measured against a bare goldmark parse of the same
// bytes; a cold edit against that parse plus a durable write of the same
// size; a warm edit against reading the file and durably writing it; a
// cold listing against reading and bare-parsing the same files on every
// core, a warm one against reading them on every core.
package benchsuite
