package main

import (
	"fmt"
	"io"

	"github.com/taskmd/taskmd/check"
	"github.com/taskmd/taskmd/taskdoc"
)

// codeProblems is check's answer when it found problems: exit 5, as for
// any input that is wrong, here the workspace's files.
const codeProblems taskdoc.Code = "PROBLEMS_FOUND"

// checked is what check prints with --json.
type checked struct {
	Problems []check.Problem `json:"problems"`
	Fixed    []check.Fixed   `json:"fixed"`
}

// cmdCheck reports what is wrong with the workspace, or under PATH
// (relative to the current folder: pathArg; see package check), one
// problem a line; --fix first repairs what can be
// repaired without losing anything. It exits 0 only when nothing is left.
func cmdCheck(e *env, args []string) error {
	fs := e.flags("check")
	fix := fs.Bool("fix", false, "")
	command := fs.String("command", "", "")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("usage: taskmd check [--fix] [PATH]")
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	driver, err := driverCommand(*command)
	if err != nil {
		return err
	}
	opts := []check.Option{check.WithClock(e.now), check.WithCommand(driver)}
	if len(pos) == 1 {
		under, err := e.pathArg(ws, pos[0])
		if err != nil {
			return err
		}
		opts = append(opts, check.Under(under))
	}
	problems, err := check.Run(e.ctx, ws, opts...)
	if err != nil {
		return err
	}
	out := checked{Problems: problems, Fixed: []check.Fixed{}}
	if *fix {
		fixed, err := check.Fix(e.ctx, ws, problems, opts...)
		out.Fixed = append(out.Fixed, fixed...)
		if err != nil {
			e.print(out, func(w io.Writer) { printFixed(w, fixed) })
			return err
		}
		if out.Problems, err = check.Run(e.ctx, ws, opts...); err != nil {
			return err
		}
	}
	if out.Problems == nil {
		out.Problems = []check.Problem{}
	}
	if err := e.print(out, func(w io.Writer) {
		printFixed(w, out.Fixed)
		for _, p := range out.Problems {
			fmt.Fprintln(w, p)
		}
	}); err != nil {
		return err
	}
	if len(out.Problems) == 0 {
		return nil
	}
	return &taskdoc.Error{Code: codeProblems, Msg: problemSummary(out.Problems)}
}

func printFixed(w io.Writer, fixed []check.Fixed) {
	for _, f := range fixed {
		fmt.Fprintf(w, "fixed: %s: %s: %s\n", f.File, f.Code, f.Message)
	}
}

// problemSummary is "3 problems (1 error, 2 warnings); 2 fixable: run
// taskmd check --fix".
func problemSummary(ps []check.Problem) string {
	errs, fixable := 0, 0
	for _, p := range ps {
		if p.Severity == check.SeverityError {
			errs++
		}
		if p.Fixable {
			fixable++
		}
	}
	msg := fmt.Sprintf("%s (%s, %s)", plural(len(ps), "problem"), plural(errs, "error"), plural(len(ps)-errs, "warning"))
	if fixable > 0 {
		msg += fmt.Sprintf("; %d fixable: run taskmd check --fix", fixable)
	}
	return msg
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
