package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every way of asking for help exits 0 and prints it on stdout: usage,
// and for a command its flags, an example and its exit statuses.
func TestHelpAnyWay(t *testing.T) {
	root := newWorkspace(t)
	before := files(t, root)
	cases := []struct {
		args []string
		want string // the usage line
	}{
		{[]string{"-h"}, "usage: taskmd [-C DIR]"},
		{[]string{"--help"}, "usage: taskmd [-C DIR]"},
		{[]string{"help"}, "usage: taskmd [-C DIR]"},
		{[]string{"help", "claim"}, "usage: taskmd claim ADDRESS --agent ID\n"},
		{[]string{"claim", "-h"}, "usage: taskmd claim ADDRESS --agent ID\n"},
		{[]string{"claim", "/api/auth.md#setup-oauth", "--help"}, "usage: taskmd claim ADDRESS --agent ID\n"},
		{[]string{"list", "--help"}, "usage: taskmd list [DOC|FOLDER]"},
		{[]string{"agent", "--help"}, "usage: taskmd agent COMMAND"},
		{[]string{"help", "agent"}, "usage: taskmd agent COMMAND"},
		{[]string{"help", "agent", "list"}, "usage: taskmd agent list [--online]\n"},
		{[]string{"agent", "list", "-h"}, "usage: taskmd agent list [--online]\n"},
		{[]string{"archives", "-h"}, "usage: taskmd archives [COMMAND]\n"},
		{[]string{"help", "help"}, "usage: taskmd help [COMMAND [SUBCOMMAND]]\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := taskmd(t, root, "", c.args...)
			assert.Equal(t, 0, r.exit, r.stderr)
			assert.Empty(t, r.stderr)
			assert.Contains(t, r.stdout, c.want)
			if len(c.args) > 1 || c.args[0] != "-h" && c.args[0] != "--help" && c.args[0] != "help" {
				assert.Contains(t, r.stdout, "\nexample:\n  taskmd ")
				assert.Regexp(t, `\nexit: 0 ok, 1 other error, 2 usage`, r.stdout)
			}
		})
	}
	r := taskmd(t, root, "", "help", "claim")
	assert.Contains(t, r.stdout, "\n  --agent ID  the registered agent (required)\n")
	assert.Contains(t, r.stdout, "exit: 0 ok, 1 other error, 2 usage, 3 not found, 4 conflict, 5 invalid input\n")
	r = taskmd(t, root, "", "help", "agent")
	assert.Contains(t, r.stdout, "\n  register    Registers an agent and prints its id.\n")
	r = taskmd(t, root, "", "help", "frobnicate")
	assert.Equal(t, exitUsage, r.exit)
	assert.Contains(t, r.stderr, `taskmd: USAGE: unknown command "frobnicate"`)
	assert.Equal(t, before, files(t, root), "help wrote a file")
}

// Every command and group has its help, and the help explains exactly
// the flags the command takes.
func TestEveryCommandHasHelp(t *testing.T) {
	words, groups, err := completions()
	require.NoError(t, err)
	for path := range words {
		if path == "" {
			continue
		}
		u, ok := usages[path]
		if !assert.True(t, ok, "%q has no help in usages.go", path) {
			continue
		}
		assert.True(t, strings.HasPrefix(u.use, path), "%q: its usage line starts %q", path, u.use)
		assert.NotEmpty(t, u.about, path)
		assert.True(t, strings.HasPrefix(u.example, path), "%q: its example runs %q", path, u.example)
		if slices.Contains(groups, path) {
			assert.Empty(t, u.flags, path)
			continue
		}
		h, err := describe(strings.Fields(path))
		require.NoError(t, err)
		var explained []string
		for n := range u.flags {
			explained = append(explained, n)
		}
		slices.Sort(explained)
		assert.Equal(t, flagNames(h.fs), explained, "%q: the flags it takes and the flags its help explains", path)
		for _, s := range u.exits {
			assert.Contains(t, exitMeaning, s, path)
		}
	}
	for path := range usages {
		assert.Contains(t, words, path, "usages.go explains %q, which is no command", path)
	}
}

// --version prints what the Go tool recorded in the binary, as go
// version -m reads it.
func TestVersion(t *testing.T) {
	out, err := exec.Command("go", "version", "-m", binary).Output()
	require.NoError(t, err)
	want := versionInfo{Go: strings.TrimSpace(strings.SplitN(string(out), ": ", 2)[1][:strings.Index(strings.SplitN(string(out), ": ", 2)[1], "\n")])}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "mod":
			want.Version = f[2]
		case len(f) >= 2 && strings.HasPrefix(f[1], "vcs.revision="):
			want.Revision = strings.TrimPrefix(f[1], "vcs.revision=")
		case len(f) >= 2 && strings.HasPrefix(f[1], "vcs.time="):
			want.Time = strings.TrimPrefix(f[1], "vcs.time=")
		case len(f) >= 2 && f[1] == "vcs.modified=true":
			want.Modified = true
		}
	}
	require.Equal(t, "(devel)", want.Version, "a build from a checkout")
	for _, args := range [][]string{{"--version", "--json"}, {"version", "--json"}, {"--json", "version"}} {
		r := taskmd(t, t.TempDir(), "", args...)
		require.Equal(t, 0, r.exit, r.stderr)
		var got versionInfo
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &got), r.stdout)
		assert.Equal(t, want, got, args)
	}
	r := taskmd(t, t.TempDir(), "", "--version")
	assert.Equal(t, "taskmd (devel) ", r.stdout[:len("taskmd (devel) ")])
	assert.True(t, strings.HasSuffix(r.stdout, " "+want.Go+"\n"), r.stdout)
}

// The bash script, sourced in a real bash, completes commands, group
// subcommands and each command's flags.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	r := taskmd(t, t.TempDir(), "", "completion", "bash")
	require.Equal(t, 0, r.exit, r.stderr)
	script := filepath.Join(t.TempDir(), "taskmd.bash")
	require.NoError(t, os.WriteFile(script, []byte(r.stdout), 0o644))
	complete := func(words ...string) string {
		t.Helper()
		prog := `source "$1"; shift; complete -p taskmd; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _taskmd; echo "${COMPREPLY[*]}"`
		var out, errOut bytes.Buffer
		cmd := exec.CommandContext(context.Background(), bash, append([]string{"--norc", "-c", prog, "bash", script, "taskmd"}, words...)...)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		require.NoError(t, cmd.Run(), errOut.String())
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		require.Len(t, lines, 2, out.String())
		assert.Equal(t, "complete -o default -F _taskmd taskmd", lines[0])
		return lines[1]
	}
	assert.Equal(t, "agent answer archive archives ask", complete("a"))
	assert.Equal(t, "complete completion context coordinator", complete("co"))
	assert.Equal(t, "heartbeat", complete("agent", "h"))
	assert.Equal(t, "list", complete("agent", "--json", "l"))
	assert.Equal(t, "--online", complete("-C", "ws", "agent", "list", "--o"))
	assert.Equal(t, "--all-checkpoints", complete("context", "/a.md#x", "--a"))
	assert.Equal(t, "--type", complete("checkpoint", "add", "--ty"))
	assert.Equal(t, "--types", complete("checkpoint", "list", "/a.md#x", "--ty"))
	assert.Equal(t, "--title", complete("create", "/a.md", "--ti"))
	assert.Equal(t, "", complete("claim", "--x"))
}

// The zsh and fish scripts name the same commands and flags, and parse
// in their shell when it is installed.
func TestCompletionZshFish(t *testing.T) {
	for shell, check := range map[string][]string{"zsh": {"zsh", "-n"}, "fish": {"fish", "--no-execute"}} {
		r := taskmd(t, t.TempDir(), "", "completion", shell)
		require.Equal(t, 0, r.exit, r.stderr)
		assert.Regexp(t, regexp.MustCompile(`agent list.*--online`), r.stdout, shell)
		assert.Contains(t, r.stdout, "--if-version", shell)
		if _, err := exec.LookPath(check[0]); err != nil {
			continue
		}
		script := filepath.Join(t.TempDir(), "taskmd."+shell)
		require.NoError(t, os.WriteFile(script, []byte(r.stdout), 0o644))
		out, err := exec.Command(check[0], append(check[1:], script)...).CombinedOutput()
		assert.NoError(t, err, "%s: %s", shell, out)
	}
	r := taskmd(t, t.TempDir(), "", "completion", "tcsh")
	assert.Equal(t, exitUsage, r.exit)
}

// Global flags go anywhere: after a command, between a group and its
// subcommand, after a command's own flags.
func TestFlagsAnywhere(t *testing.T) {
	root := newWorkspace(t)
	run := func(args ...string) map[string]any {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Dir = t.TempDir() // not the workspace: -C must find it
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		require.NoError(t, cmd.Run(), "%v: %s", args, errOut.String())
		var got map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &got), out.String())
		return got
	}
	assert.Contains(t, run("archives", "--json", "-C", root), "lists")
	assert.Contains(t, run("-C", root, "agent", "--json", "list"), "agents")
	assert.Contains(t, run("list", "--json", "-C", root), "documents")
	assert.Contains(t, run("agent", "-C", root, "list", "--json"), "agents")
}

// docs/cli.md is the help of every command, as the tool prints it: -update
// writes it, and the test fails when it is stale.
func TestCLIReference(t *testing.T) {
	words, _, err := completions()
	require.NoError(t, err)
	var paths []string
	for p := range words {
		if p != "" {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var b strings.Builder
	b.WriteString("# taskmd command-line reference\n\n")
	b.WriteString("Generated from the tool's own help (`go test ./cmd/taskmd -run TestCLIReference -update`); do not edit.\n")
	b.WriteString("The JSON every command prints with --json is described by [schema/taskmd.schema.json](schema/taskmd.schema.json).\n\n")
	b.WriteString("## taskmd\n\n```text\n" + help + "```\n")
	for _, p := range paths {
		h, err := describe(strings.Fields(p))
		require.NoError(t, err)
		b.WriteString("\n## taskmd " + p + "\n\n```text\n")
		writeHelp(&b, h)
		b.WriteString("```\n")
	}
	const file = "../../docs/cli.md"
	if *update {
		require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err, "run go test ./cmd/taskmd -run TestCLIReference -update")
	assert.Equal(t, string(want), b.String(), "docs/cli.md is stale: run go test ./cmd/taskmd -run TestCLIReference -update")
}

// A word where a command takes only flags is refused with the word and
// where to read the command's flags, not with a bare usage line.
func TestNoArgumentsCommandNamesTheStrayWord(t *testing.T) {
	root := newWorkspace(t)
	for _, args := range [][]string{{"pivot", "acknowledge", "--worker", "w1", "cp"}, {"agent", "list", "extra"}} {
		r := taskmd(t, root, "", args...)
		assert.Equal(t, exitUsage, r.exit, r.stderr)
		path := strings.Join(args[:2], " ")
		assert.Contains(t, r.stderr, "taskmd "+path+" takes no arguments", args)
		assert.Contains(t, r.stderr, `"`+args[len(args)-1]+`"`, args)
		assert.Contains(t, r.stderr, "taskmd help "+path, args)
	}
}
