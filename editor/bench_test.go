package editor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
)

// benchTasks is the size of the benchmarks' plan.
const benchTasks = 1000

// benchPlan is a plan of n tasks as agents and people write them: each
// with a status, most with a workflow, a reference and a body, each
// waiting for the task before it (one long chain, the costly case for
// finding cycles), and one also for a task of another document.
func benchPlan(n int) string {
	statuses := []taskdoc.Status{taskdoc.StatusPending, taskdoc.StatusInProgress, taskdoc.StatusCompleted, taskdoc.StatusBlocked}
	var b strings.Builder
	b.WriteString("---\nowner: platform-team\n---\n# Platform\n\nWhat the platform team is doing.\n\n## Tasks\n")
	for i := range n {
		fmt.Fprintf(&b, "\n### Task %d: wire the service\n\n- Status: %s\n", i, statuses[i%len(statuses)])
		if i%3 != 0 {
			b.WriteString("- Workflow: tdd\n")
		}
		if i > 0 {
			fmt.Fprintf(&b, "- Depends-On: #task-%d-wire-the-service\n", i-1)
		}
		if i == n/2 {
			b.WriteString("- Depends-On: /specs/other.md#elsewhere\n")
		}
		fmt.Fprintf(&b, "\nWire service %d to the gateway, as @/specs/api.md#routes says.\n", i)
	}
	return b.String()
}

// benchSession opens the plan in a buffer of a Session on a workspace
// holding what the plan names, and reads the diagnostics once, as an
// editor does when it opens a document.
func benchSession(b *testing.B) (*editor.Session, string, string) {
	ctx := context.Background()
	const path = "docs/platform.md"
	src := benchPlan(benchTasks)
	s, _ := newTestSession(b, map[string]string{
		path:                  src,
		"workflows/tdd.md":    "# TDD\n",
		"docs/specs/api.md":   "# API\n\n## Routes\n",
		"docs/specs/other.md": "# Other\n\n## Tasks\n\n### Elsewhere\n",
	})
	require.NoError(b, s.Open(ctx, path, 1, src))
	ds, err := s.Diagnostics(ctx, path)
	require.NoError(b, err)
	require.Empty(b, ds)
	return s, path, src
}

// typeOne is the i-th keystroke: a character typed at the end of the
// body of the task in the middle of the plan, then taken out again, so
// that the buffer keeps its size.
func typeOne(b *testing.B, s *editor.Session, path string, line, i int) {
	r := editor.Range{Start: editor.Position{Line: line, Character: 7}, End: editor.Position{Line: line, Character: 7}}
	text := "x"
	if i%2 == 1 {
		r.End.Character++
		text = ""
	}
	require.NoError(b, s.Change(path, i+2, []editor.Change{{Range: &r, Text: text}}))
}

// bodyLine is the line of the middle task's body.
func bodyLine(src string) int {
	at := strings.Index(src, fmt.Sprintf("Wire service %d ", benchTasks/2))
	return strings.Count(src[:at], "\n")
}

// BenchmarkDiagnosticsAfterChange is what an editor pays per keystroke in a
// 1,000-task plan: one character changed, then its diagnostics. The
// parse of the new buffer is most of it (see BenchmarkParseFloor).
func BenchmarkDiagnosticsAfterChange(b *testing.B) {
	ctx := context.Background()
	s, path, src := benchSession(b)
	line := bodyLine(src)
	b.SetBytes(int64(len(src)))
	for i := 0; b.Loop(); i++ {
		typeOne(b, s, path, line, i)
		if _, err := s.Diagnostics(ctx, path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSymbols is the outline after a keystroke in the same plan.
func BenchmarkSymbols(b *testing.B) {
	ctx := context.Background()
	s, path, src := benchSession(b)
	line := bodyLine(src)
	b.SetBytes(int64(len(src)))
	for i := 0; b.Loop(); i++ {
		typeOne(b, s, path, line, i)
		if _, err := s.Symbols(ctx, path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseFloor is the floor of both: taskdoc.Parse of the plan.
func BenchmarkParseFloor(b *testing.B) {
	src := []byte(benchPlan(benchTasks))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := taskdoc.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
