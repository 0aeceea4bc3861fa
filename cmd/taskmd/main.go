package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// nowVar names the environment variable that fixes the clock, for tests
// and scripts that want dates and archive names they can predict.
const nowVar = "TASKMD_NOW"

// env is one run of the tool: the global flags, the streams and the
// workspace, opened on first use.
type env struct {
	ctx    context.Context
	root   string // -C; "" when not given
	json   bool   // --json
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	now    func() time.Time // nil: the real clock
	ws     *workspace.Workspace
	// signalEnds: the command ends on SIGINT or SIGTERM as on success,
	// with status 0 (mcp: the way clients stop a server).
	signalEnds bool
	// override is the person whose writes go over agents' claims
	// (--force); "" for none.
	override string
}

// run is the whole tool: it parses args, runs one command and returns the
// exit status. Tests call it in-process as well as through the binary.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	caught := make(chan os.Signal, 1)
	signal.Notify(caught, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(caught)
	var sig atomic.Value // the signal that cancelled ctx
	go func() {
		select {
		case s := <-caught:
			sig.Store(s)
			cancel()
		case <-ctx.Done():
		}
	}()
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	err := e.dispatch(args)
	if taskdoc.CodeOf(err) == codeUsage {
		e.jsonLater(args) // the bad flag or command stopped the parse before it
	}
	if e.ws != nil {
		e.ws.Close()
	}
	if s, ok := sig.Load().(syscall.Signal); ok && !e.signalEnds && (err == nil || errors.Is(err, context.Canceled)) {
		// Interrupted, as a shell reports it: 128 + the signal's number
		// (130 for SIGINT, 143 for SIGTERM). watch ends this way.
		return 128 + int(s)
	}
	return e.fail(err)
}

// dispatch reads the global flags before the command and runs it.
func (e *env) dispatch(args []string) error {
	fs := e.flags("taskmd")
	version := fs.Bool("version", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			e.jsonLater(args)
			return cmdHelp(e, nil)
		}
		return usagef("%v", err)
	}
	args = fs.Args()
	if *version {
		return cmdVersion(e, args)
	}
	if len(args) == 0 {
		return usagef("no command; run taskmd help")
	}
	if err := e.clock(); err != nil {
		return err
	}
	name, rest := args[0], args[1:]
	cmd, ok := commands[name]
	if !ok {
		return usagef("unknown command %q; run taskmd help", name)
	}
	err := cmd(e, rest)
	var h *helpAsked
	if errors.As(err, &h) {
		e.jsonLater(rest) // -h stopped the parse before it
		return e.printHelp(h)
	}
	return err
}

// jsonLater sets --json when args hold it (before any "--"), for a line
// whose parse stopped early, at -h or at a bad flag or command: flags go
// anywhere, so the help or the error is JSON wherever --json is.
func (e *env) jsonLater(args []string) {
	for _, a := range args {
		if a == "--" {
			return
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || strings.TrimPrefix(name, "-") != "json" {
			continue
		}
		if !hasValue {
			e.json = true
		} else if v, err := strconv.ParseBool(value); err == nil {
			e.json = v
		}
	}
}

// clock reads TASKMD_NOW (RFC 3339) when it is set.
func (e *env) clock() error {
	v := os.Getenv(nowVar)
	if v == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: nowVar + " is not an RFC 3339 time: " + v}
	}
	e.now = func() time.Time { return t }
	return nil
}

// forceFlag adds --force to fs: the command's write goes over an agent's
// claim of the task, as the person running it ($USER), ending the claim
// and recording the override in the task. Call the returned function once
// fs is parsed.
func (e *env) forceFlag(fs *flag.FlagSet) func() {
	force := fs.Bool("force", false, "")
	return func() {
		if *force {
			e.override = "a person"
			if user := strings.TrimSpace(os.Getenv("USER")); claims.CheckPerson(user) == nil {
				e.override = user
			}
		}
	}
}

// rootVar names the environment variable that, like -C, names the folder
// the workspace is found from; -C wins over it.
const rootVar = "TASKMD_ROOT"

// workspace opens the workspace once: the one found from -C, else
// TASKMD_ROOT, else the current folder (workspace.Find). A folder named by
// -C or TASKMD_ROOT in which Find finds nothing is the root as given if it
// is empty (a new workspace); otherwise Find's NO_WORKSPACE stands.
func (e *env) workspace() (*workspace.Workspace, error) {
	if e.ws != nil {
		return e.ws, nil
	}
	start, explicit := e.root, e.root != ""
	if !explicit {
		start, explicit = os.Getenv(rootVar), true
		if start == "" {
			start, explicit = ".", false
		}
	}
	root, err := workspace.Find(start)
	if taskdoc.CodeOf(err) == workspace.CodeNoWorkspace && explicit {
		if entries, rerr := os.ReadDir(start); rerr == nil && len(entries) == 0 {
			root, err = start, nil
		} else {
			err = &taskdoc.Error{Code: workspace.CodeNoWorkspace, Path: start,
				Msg: fmt.Sprintf("no taskmd workspace in %s or any parent: run `taskmd init %s` to make it one", start, start)}
		}
	}
	if err != nil {
		return nil, err
	}
	ws, err := workspace.Open(root)
	if err != nil {
		return nil, err
	}
	e.ws = ws
	return ws, nil
}

// pathArg is p, a file or folder typed on the command line, as a
// slash-separated path relative to ws's root, as check.Under and the like
// take it. A relative p is taken from the current folder, as a shell
// takes it (-C DIR is the current folder, as with git -C), or from the
// root when the current folder is not inside the workspace (TASKMD_ROOT
// named it from elsewhere). A p outside the root is OUTSIDE_ROOT.
func (e *env) pathArg(ws *workspace.Workspace, p string) (string, error) {
	root := ws.Root()
	base := e.root
	if base == "" {
		base = "."
	}
	base, err := filepath.Abs(base)
	if err != nil || !inside(root, base) {
		base = root
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	if !inside(root, p) {
		// The same folder by another name (a symbolic link)?
		realRoot, err1 := filepath.EvalSymlinks(root)
		realP, err2 := filepath.EvalSymlinks(p)
		if err1 != nil || err2 != nil || !inside(realRoot, realP) {
			return "", &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: p,
				Msg: fmt.Sprintf("%s is outside the workspace root %s: name a file or folder inside it", p, root)}
		}
		root, p = realRoot, realP
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// inside reports whether path p is dir or under it (both absolute).
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// flags returns a flag set that knows the global flags, so that -C and
// --json may come before the command, after it, or between its arguments.
func (e *env) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&e.root, "C", e.root, "")
	fs.BoolVar(&e.json, "json", e.json, "")
	return fs
}

// parse parses args with fs, flags and arguments in any order ("--" ends
// the flags), and returns the arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var tail []string
	for i, a := range args {
		if a == "--" {
			args, tail = args[:i], args[i+1:]
			break
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpAsked{path: fs.Name(), fs: fs}
			}
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(pos, tail...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseN is parse for a command that takes exactly n arguments, named by
// want ("ADDRESS") in the usage error.
func parseN(fs *flag.FlagSet, args []string, want ...string) ([]string, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return nil, err
	}
	if len(want) == 0 && len(pos) > 0 {
		return nil, usagef("usage: taskmd %s takes no arguments, only flags: %q is not one; run taskmd help %s", fs.Name(), pos[0], fs.Name())
	}
	if len(pos) != len(want) {
		return nil, usagef("usage: taskmd %s %s", fs.Name(), strings.Join(want, " "))
	}
	return pos, nil
}

// usagef is a usage error: exit status 2.
func usagef(format string, a ...any) error {
	return &taskdoc.Error{Code: codeUsage, Msg: fmt.Sprintf(format, a...)}
}
