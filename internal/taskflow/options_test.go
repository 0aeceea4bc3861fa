package taskflow_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// optionPackages are the packages that take options: a call of a constructor
// with a list of options (%s), and one option of the package.
var optionPackages = []struct{ pkg, call, option string }{
	{"agent", "agent.New(nil, %s)", "agent.WithTimeout(1)"},
	{"journal", "journal.New(nil, %s)", "journal.WithClock(nil)"},
	{"checkpoint", "checkpoint.New(nil, %s)", "checkpoint.WithClock(nil)"},
	{"coordinator", "coordinator.New(nil, %s)", "coordinator.WithClock(nil)"},
	{"editor", "_, _ = editor.New(nil, %s)", "editor.WithClock(nil)"},
	{"gitsync", "_, _ = gitsync.New(nil, nil, nil, %s)", `gitsync.WithRemote("")`},
	{"mcptools", "_, _ = mcptools.NewServer(nil, %s)", "mcptools.WithClock(nil)"},
	{"merge", `merge.File("", nil, nil, nil, %s)`, "merge.WithMarkerSize(7)"},
	{"plan", "plan.New(nil, %s)", "plan.WithClock(nil)"},
	{"query", "_, _ = query.Documents(nil, nil, %s)", "query.WithIndex()"},
	{"subagent", "subagent.New(nil, %s)", "subagent.WithClock(nil)"},
	{"worker", "worker.New(nil, %s)", "worker.WithClock(nil)"},
	{"worker", "worker.NewClarifications(nil, %s)", "worker.WithClock(nil)"},
	{"workspace", `_, _ = workspace.Open("", %s)`, "workspace.WithMaxFileSize(1)"},
	{"worktree", "worktree.New(nil, %s)", "worktree.WithClock(nil)"},
}

// TestOptionsStayInTheirPackage compiles, with the go command, calls that
// pass one package's option to another package's constructor (as in
// subagent.New(ws, agent.WithTimeout(d))), convert it to another package's
// Option, or pass the task systems' internal option: every one of them must
// be a type error. The same calls with the package's own options compile.
func TestOptionsStayInTheirPackage(t *testing.T) {
	goTool, err := exec.LookPath("go")
	require.NoError(t, err, "the go command compiles the calls")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))

	good := []string{"_ = taskflow.WithClock(nil)"}
	var bad []string
	var want []string // the error each line of bad must have
	for _, p := range optionPackages {
		good = append(good, fmt.Sprintf(p.call, p.option), fmt.Sprintf(p.call, ""))
		bad = append(bad, fmt.Sprintf(p.call, "taskflow.WithClock(nil)"))
		want = append(want, "cannot use")
		for _, q := range optionPackages {
			if q.pkg == p.pkg {
				continue
			}
			bad = append(bad, fmt.Sprintf(p.call, q.option))
			want = append(want, "cannot use")
		}
	}
	seen := map[string]bool{}
	for _, p := range optionPackages {
		if seen[p.pkg] {
			continue
		}
		seen[p.pkg] = true
		good = append(good, fmt.Sprintf("_ = %s.Option{}", p.pkg))
		bad = append(bad, fmt.Sprintf("_ = %s.Option(taskflow.WithClock(nil))", p.pkg))
		want = append(want, "cannot convert")
		done := map[string]bool{p.pkg: true}
		for _, q := range optionPackages {
			if done[q.pkg] {
				continue
			}
			done[q.pkg] = true
			bad = append(bad, fmt.Sprintf("_ = %s.Option(%s)", p.pkg, q.option))
			want = append(want, "cannot convert")
		}
	}

	// The zero Option of the func-typed ones is nil, not a composite literal.
	for i, line := range good {
		for _, pkg := range []string{"editor", "gitsync", "mcptools", "merge", "query", "workspace", "worktree"} {
			if line == "_ = "+pkg+".Option{}" {
				good[i] = "_ = " + pkg + ".Option(nil)"
			}
		}
	}

	out, _, err := compile(t, goTool, root, good)
	require.NoError(t, err, "each package's own options compile:\n%s", out)

	out, first, err := compile(t, goTool, root, bad)
	require.Error(t, err, "another package's options compile:\n%s", out)
	errs := map[int]string{}
	for _, m := range regexp.MustCompile(`(?m)snippet\.go:(\d+):\d+: (.*)$`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		errs[n] += m[2] + "\n"
	}
	for i, line := range bad {
		assert.Contains(t, errs[first+i], want[i], "compiles, but must not: %s", line)
	}
}

// compile builds, with the go command, a package of the module whose
// functions make the calls of lines, one a line from first on, and returns
// the command's output.
func compile(t *testing.T, goTool, root string, lines []string) (out string, first int, err error) {
	t.Helper()
	var b strings.Builder
	b.WriteString("package optioncheck\n\nimport (\n")
	for _, pkg := range []string{"agent", "checkpoint", "coordinator", "editor", "gitsync", "internal/taskflow",
		"journal", "mcptools", "merge", "plan", "query", "subagent", "worker", "workspace", "worktree"} {
		fmt.Fprintf(&b, "\t%q\n", "github.com/taskmd/taskmd/"+pkg)
	}
	b.WriteString(")\n\n")
	first = strings.Count(b.String(), "\n") + 1
	for _, line := range lines {
		fmt.Fprintf(&b, "func _() { %s }\n", line)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "snippet.go")
	require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o644))
	overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{
		filepath.Join(root, "internal", "optioncheck", "snippet.go"): file}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644))
	cmd := exec.Command(goTool, "build", "-gcflags=-e", "-overlay", filepath.Join(dir, "overlay.json"), "./internal/optioncheck")
	cmd.Dir = root
	o, err := cmd.CombinedOutput()
	return string(o), first, err
}
