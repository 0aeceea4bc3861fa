package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// hidden are the flags that tests use and usage does not show.
var hidden = map[string]bool{"now": true}

// run serves the protocol on stdin and stdout and returns the exit code:
// 0 after shutdown and exit, 1 when the editor left without a shutdown, 2
// for bad flags.
func run(args []string, stdin io.Reader, stdout io.Writer, stderr io.Writer) int {
	flags := flag.NewFlagSet("taskmd-lsp", flag.ContinueOnError)
	flags.SetOutput(stderr)
	version := flags.Bool("version", false, "print the version and exit")
	verbose := flags.Bool("v", false, "log every message to stderr")
	// -now (or TASKMD_NOW) fixes the clock that dates completions, RFC 3339.
	now := flags.String("now", os.Getenv("TASKMD_NOW"), "the time of day, RFC 3339")
	flags.Usage = func() {
		fmt.Fprintf(stderr, "usage: taskmd-lsp [-v] [-version]\n\nA Language Server Protocol server for taskmd on stdin and stdout.\n\n")
		flags.VisitAll(func(f *flag.Flag) {
			if !hidden[f.Name] {
				fmt.Fprintf(stderr, "  -%s\n\t%s\n", f.Name, f.Usage)
			}
		})
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if flags.NArg() > 0 {
		flags.Usage()
		return 2
	}
	if *version {
		fmt.Fprintln(stdout, versionString())
		return 0
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	cfg := config{log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))}
	if *now != "" {
		t, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			fmt.Fprintf(stderr, "taskmd-lsp: -now: %v\n", err)
			return 2
		}
		cfg.now = func() time.Time { return t }
	}
	return newServer(cfg).serve(context.Background(), newStdio(stdin, stdout))
}

// stdio is the server's end of the connection: the editor writes to
// stdin and reads stdout. Stdin is read through a pipe, so that Close
// ends the connection's read at once: a read of stdin itself would wait
// for the editor.
type stdio struct {
	in  *io.PipeReader
	out io.Writer
}

func newStdio(stdin io.Reader, stdout io.Writer) *stdio {
	r, w := io.Pipe()
	go func() {
		_, err := io.Copy(w, stdin)
		w.CloseWithError(err)
	}()
	return &stdio{in: r, out: stdout}
}

func (s *stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s *stdio) Write(p []byte) (int, error) { return s.out.Write(p) }

// Close ends the connection; the editor sees stdout end.
func (s *stdio) Close() error {
	s.in.Close()
	if c, ok := s.out.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// versionString names the server's build and the taskmd it was built with.
func versionString() string {
	v, lib := "(devel)", "(devel)"
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			v = info.Main.Version
		}
		for _, dep := range info.Deps {
			if dep.Path == "github.com/taskmd/taskmd" {
				lib = dep.Version
				if dep.Replace != nil {
					lib += " => " + dep.Replace.Path
				}
			}
		}
	}
	return fmt.Sprintf("taskmd-lsp %s (taskmd %s, LSP 3.18)", v, lib)
}
