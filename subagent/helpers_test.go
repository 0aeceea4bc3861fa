package subagent_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// fixedNow is the clock of the tests: 2025-10-14 15:30:45 UTC.
var fixedNow = time.Date(2025, 10, 14, 15, 30, 45, 0, time.UTC)

func clock() time.Time { return fixedNow }

// setup writes files (root-relative name -> content) into a fresh
// workspace and returns its Tasks, on the fixed clock, and its root.
func setup(t testing.TB, files map[string]string, opts ...subagent.Option) (*subagent.Tasks, string) {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return subagent.New(ws, append([]subagent.Option{subagent.WithClock(clock)}, opts...)...), root
}

func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

func readFile(t testing.TB, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	require.NoError(t, err)
	return string(data)
}

// snapshot returns every file under root except the library's own state in
// .taskmd/, so a test can tell that a failed call changed nothing.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if rel == ".taskmd" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			files[rel] = "symlink -> " + target
			return err
		}
		data, err := os.ReadFile(p)
		files[rel] = string(data)
		return err
	})
	require.NoError(t, err)
	return files
}

// scenarioTasks are the three tasks of the ad-hoc scenario.
var scenarioTasks = []taskdoc.NewTask{
	{Title: "Implement JWT signing", Content: "- Status: pending\n- Workflow: tdd-incremental-orchestration\n\nImplement token signing logic\n\n@/specs/jwt-spec.md"},
	{Title: "Add token validation", Content: "- Status: pending\n\nValidate tokens in middleware"},
	{Title: "Handle token refresh", Content: "- Status: pending\n\nImplement refresh token endpoint"},
}

// scenarioFiles are the workflow and specifications the scenario tasks name.
var scenarioFiles = map[string]string{
	"workflows/tdd-incremental-orchestration.md": "# TDD incremental orchestration\n\nRed, green, refactor.\n",
	"docs/specs/jwt-spec.md":                     "# JWT spec\n\nRS256, see @/specs/keys.md#rotation.\n",
	"docs/specs/keys.md":                         "# Keys\n\n## Storage\n\nIn the vault.\n\n## Rotation\n\nMonthly.\n",
}

func slugs(tasks []taskdoc.Task) []string {
	out := make([]string, 0, len(tasks))
	for _, t := range tasks {
		out = append(out, t.Slug)
	}
	return out
}
