package taskcontext_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskcontext"
)

// BenchmarkLoad loads a task's Workflow and three references, one of them
// a section, each document a few KB: what every Start pays.
func BenchmarkLoad(b *testing.B) {
	prose := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n", 40)
	files := map[string]string{
		"workflows/tdd.md": "---\ntitle: TDD\ndescription: Test first\nwhenToUse:\n  - always\n---\n# TDD\n\n" + prose,
	}
	for _, name := range []string{"a", "b"} {
		files["docs/specs/"+name+".md"] = fmt.Sprintf("# %s\n\n%s", name, prose)
	}
	var spec strings.Builder
	spec.WriteString("# Spec\n\n")
	for i := range 20 {
		fmt.Fprintf(&spec, "## Part %d\n\n%s\n", i, prose)
	}
	files["docs/specs/spec.md"] = spec.String()
	ws := loadWorkspace(b, files)
	task := parseTask(b, "- Status: pending\n- Workflow: tdd\n\nSee @/specs/a.md, @/specs/b.md and @/specs/spec.md#part-7.\n")
	req := taskcontext.Request{Task: task, Depth: 3}
	ctx := context.Background()

	tc, err := taskcontext.Load(ctx, ws, req)
	require.NoError(b, err)
	require.NotNil(b, tc.Workflow)
	require.Len(b, tc.References, 3)
	require.Empty(b, tc.Missing)

	b.ReportAllocs()
	for b.Loop() {
		if _, err := taskcontext.Load(ctx, ws, req); err != nil {
			b.Fatal(err)
		}
	}
}
