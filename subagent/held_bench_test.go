package subagent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
)

// holderOfAll is the writer of an MCP session whose agent "a" holds task
// i of the benchmark's plan with token i+1.
type holderOfAll struct{}

func (holderOfAll) Claimant(task string) (string, int64) {
	_, slug, _ := strings.Cut(task, "#")
	var i int64
	for _, c := range strings.TrimPrefix(slug, "implement-step-") {
		i = i*10 + int64(c-'0')
	}
	return "a", i + 1
}

// BenchmarkCompleteHeld: Complete by the holder of a task of a 1,000-task
// plan whose every task an agent holds (the MCP flow: task_claim, then
// complete_subagent_task): besides the plan, the claims file (1,000
// records) is read, and written durably since the completion ends the
// claim. Beside BenchmarkComplete (no claims file), it is the claim's
// share of a completion.
func BenchmarkCompleteHeld(b *testing.B) {
	files := benchFiles(benchTasks)
	doc := strings.ReplaceAll(files["docs/bench.md"], "- Status: pending\n", "- Status: in_progress\n- Assignee: a\n")
	files["docs/bench.md"] = doc
	tasks, root := setup(b, files)
	f, err := claims.Decode("docs/bench.md", claims.FileOf("docs/bench.md"), nil)
	require.NoError(b, err)
	for i := range benchTasks {
		f.Grant(benchsuite.Slug(i), "a", "", time.Unix(0, 0))
	}
	name := filepath.Join(root, filepath.FromSlash(claims.FileOf("docs/bench.md")))
	require.NoError(b, os.MkdirAll(filepath.Dir(name), 0o755))
	data := f.Encode()
	reset := func() {
		require.NoError(b, os.WriteFile(filepath.Join(root, "docs/bench.md"), []byte(doc), 0o644))
		require.NoError(b, os.WriteFile(name, data, 0o644))
	}
	reset()
	ctx := claims.WithWriter(context.Background(), holderOfAll{})
	benchsuite.Cycle(b, benchTasks, reset, func(i int) error {
		_, err := tasks.Complete(ctx, "/bench.md#"+benchsuite.Slug(i), "done")
		return err
	})
}
