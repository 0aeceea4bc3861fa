package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
)

// lspBinary is the language server that `taskmd lsp` runs. It is a module
// of its own (cmd/taskmd-lsp), so that this command and the library never
// depend on an LSP library.
const lspBinary = "taskmd-lsp"

// codeNotInstalled: a program the command runs is not on PATH.
const codeNotInstalled taskdoc.Code = "NOT_INSTALLED"

// exitStatus is a status to exit with, as a program the tool ran exited.
type exitStatus int

func (s exitStatus) Error() string { return lspBinary + " exited with status " + strconv.Itoa(int(s)) }

// cmdLsp runs taskmd-lsp from PATH with the arguments after "lsp", on the
// tool's stdin, stdout and stderr, and exits as it exits. SIGINT and
// SIGTERM are passed on to it (and end it as a stop, with status 0 when it
// exits so). Missing: NOT_INSTALLED (exit 3), saying how to install it.
func cmdLsp(e *env, args []string) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		_, err := parse(e.flags("lsp"), args) // taskmd's help of lsp; taskmd-lsp's own flags pass through
		return err
	}
	path, err := exec.LookPath(lspBinary)
	if err != nil {
		return &taskdoc.Error{Code: codeNotInstalled, Err: err,
			Msg: "taskmd lsp runs " + lspBinary + ", which is not on PATH: install it from a clone of taskmd with " +
				"`cd cmd/taskmd-lsp && go install .` (a module of its own, for its LSP library), and make sure $(go env GOPATH)/bin is on PATH"}
	}
	cmd := exec.CommandContext(e.ctx, path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	e.signalEnds = true
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() > 0 {
		return exitStatus(exit.ExitCode())
	}
	if e.ctx.Err() != nil {
		return nil // stopped by a signal, passed on
	}
	if err != nil {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Err: err, Msg: "running " + path + ": " + err.Error()}
	}
	return nil
}
