package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// Error is a git command that failed: its arguments, the directory it ran
// in, its exit code (-1 when it did not run or was killed) and what it
// wrote on standard error, trimmed (its standard output when it wrote
// nothing there).
type Error struct {
	Args     []string `json:"args"`
	Dir      string   `json:"dir"`
	ExitCode int      `json:"exit_code"`
	Stderr   string   `json:"stderr"`
	Err      error    `json:"-"` // the cause: *exec.ExitError, exec.ErrNotFound, a context error
}

// Error is "git <args>: <git's message>".
func (e *Error) Error() string {
	msg := e.Stderr
	if msg == "" && e.Err != nil {
		msg = e.Err.Error() + " (git printed no message)"
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// CodeGit: a git command failed; the error's message is git's, and
// errors.As finds the *Error with the command, exit code and standard
// error. Packages worktree and gitsync export it.
const CodeGit taskdoc.Code = "GIT_ERROR"

// ErrGit matches every GIT_ERROR with errors.Is.
var ErrGit = &taskdoc.Error{Code: CodeGit}

// env is the environment of every git command: the caller's, with prompts
// and pagers off and messages in English, so that they can be read.
var env = append(os.Environ(),
	"GIT_TERMINAL_PROMPT=0",
	"GIT_PAGER=cat",
	"PAGER=cat",
	"LC_ALL=C",
	"LANGUAGE=C",
	"GIT_ASKPASS=",
	"SSH_ASKPASS=",
	"GIT_EDITOR=true",
)

// settings come before every command's arguments, after whatever the
// environment sets: git's commit, fetch and merge would each start
// "git maintenance run --auto", a process more for every change taskmd
// shares. Package gitsync runs maintenance itself now and then.
var settings = []string{"-c", "maintenance.auto=false"}

// Run runs git with args in dir and returns its standard output. A failure
// is a *taskdoc.Error with code GIT_ERROR whose cause is an *Error.
func Run(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := RunInput(ctx, dir, nil, args...)
	return string(out), err
}

// RunInput is Run with stdin as the command's standard input.
func RunInput(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append(slices.Clip(settings), args...)...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	// Some commands say why they failed on standard output ("nothing to
	// commit"), or say nothing at all: the error carries what git said.
	msg := strings.TrimSpace(stderr.String())
	if msg == "" {
		msg = strings.TrimSpace(stdout.String())
	}
	ge := &Error{Args: args, Dir: dir, ExitCode: -1, Stderr: msg, Err: err}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		ge.ExitCode = exit.ExitCode()
	}
	if ctx.Err() != nil {
		ge.Err = ctx.Err()
	}
	return stdout.Bytes(), Wrap(ge)
}

// Wrap returns a git error as the library's error, code GIT_ERROR, with
// git's message.
func Wrap(e *Error) error {
	return &taskdoc.Error{Code: CodeGit, Err: e}
}

// As returns the *Error in err's chain, if there is one.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// TopLevel is the top folder of the repository holding dir, and dir's
// path inside it ("" at the top, else "sub/dir/"), both from one git
// command. Not a repository is GIT_ERROR with git's message.
func TopLevel(ctx context.Context, dir string) (top, prefix string, err error) {
	out, err := Run(ctx, dir, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	top = filepath.Clean(lines[0])
	if len(lines) > 1 {
		prefix = lines[1]
	}
	return top, prefix, nil
}
