package subagent_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
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
	filetest.WriteAll(t, root, files)
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return subagent.New(ws, append([]subagent.Option{subagent.WithClock(clock)}, opts...)...), root
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
