package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// usage is the help of one command or group: "taskmd help CMD", "taskmd
// CMD -h". Its flags are not listed here but read from the command's own
// flag set (see describe), so that help and completion never name a flag
// the command does not take; flags holds what each one means.
type usage struct {
	use     string            // after "taskmd ": "claim ADDRESS --agent ID"
	about   string            // what it does, in a line or two
	flags   map[string]string // flag name -> "VALUE  what it is" ("  what it does" for a switch)
	example string            // one command line, after "taskmd "
	exits   []int             // exit statuses besides 0, 1 and 2 (see exitMeaning)
}

// exitMeaning names each exit status the tool uses (errors.go).
var exitMeaning = map[int]string{
	exitOK:        "ok",
	exitOther:     "other error",
	exitUsage:     "usage",
	exitNotFound:  "not found",
	exitConflict:  "conflict",
	exitInvalid:   "invalid input",
	exitSuspended: "SUSPENDED",
	exitNoAck:     "NO_ACK",
	130:           "interrupted (143 on SIGTERM)",
}

// helpAsked is what parse and sub return for -h or --help: the help of
// the command (its flag set) or group (its subcommands) is printed, and
// the tool exits 0.
type helpAsked struct {
	path string                                // "list", "agent list", "agent"
	fs   *flag.FlagSet                         // the command's flags; nil for a group
	cmds map[string]func(*env, []string) error // a group's subcommands
}

func (h *helpAsked) Error() string { return "help requested for " + h.path }

// describe finds what the command at path ("agent list") takes by running
// it with -h: every command parses its flags before it reads or writes
// anything, and returns its flag set or, for a group, its subcommands.
func describe(path []string) (*helpAsked, error) {
	if len(path) == 0 {
		return nil, usagef("no command")
	}
	cmd, ok := commands[path[0]]
	if !ok {
		return nil, usagef("unknown command %q; run taskmd help", path[0])
	}
	e := &env{root: ".", stdout: io.Discard, stderr: io.Discard}
	err := cmd(e, append(slices.Clone(path[1:]), "-h"))
	var h *helpAsked
	if errors.As(err, &h) {
		return h, nil
	}
	if err == nil {
		err = usagef("no help for %q", strings.Join(path, " "))
	}
	return nil, err
}

// sorted returns the keys of a command table, sorted.
func sorted(cmds map[string]func(*env, []string) error) []string {
	out := make([]string, 0, len(cmds))
	for n := range cmds {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// flagNames returns the flags of fs but the global -C and --json, sorted.
func flagNames(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name != "C" && f.Name != "json" {
			out = append(out, f.Name)
		}
	})
	return out
}

// writeHelp writes the help of h: usage, what it does, flags (or a group's
// commands), an example and the exit statuses.
func writeHelp(w io.Writer, h *helpAsked) {
	u := usages[h.path]
	if u.use == "" {
		u.use = h.path + " ..."
	}
	fmt.Fprintf(w, "usage: taskmd %s\n", u.use)
	if u.about != "" {
		fmt.Fprintf(w, "%s\n", u.about)
	}
	if h.fs == nil {
		fmt.Fprintln(w, "\ncommands:")
		var rows [][]string
		for _, n := range sorted(h.cmds) {
			sub := usages[h.path+" "+n]
			rows = append(rows, []string{"  " + n, firstLine(sub.about)})
		}
		table(w, rows)
		fmt.Fprintf(w, "run taskmd help %s COMMAND for its flags, an example and its exit statuses.\n", h.path)
	} else {
		fmt.Fprintln(w, "\nflags:")
		var rows [][]string
		for _, n := range flagNames(h.fs) {
			value, meaning, _ := strings.Cut(u.flags[n], "  ")
			rows = append(rows, []string{"  --" + strings.TrimSpace(n+" "+value), meaning})
		}
		rows = append(rows, []string{"  -C DIR", "the workspace root (default .)"}, []string{"  --json", "one line of JSON on stdout (errors on stderr)"})
		table(w, rows)
	}
	if u.example != "" {
		fmt.Fprintf(w, "\nexample:\n  taskmd %s\n", u.example)
	}
	fmt.Fprintf(w, "\nexit: %s\n", exits(u.exits))
}

// exits lists 0, 1, 2 and the statuses given, with their meaning.
func exits(more []int) string {
	all := append([]int{exitOK, exitOther, exitUsage}, more...)
	parts := make([]string, 0, len(all))
	for _, s := range all {
		parts = append(parts, fmt.Sprintf("%d %s", s, exitMeaning[s]))
	}
	return strings.Join(parts, ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// helpOf is "taskmd help CMD [SUB]" as JSON prints it.
type helpOf struct {
	Command string `json:"command,omitempty"`
	Help    string `json:"help"`
}
