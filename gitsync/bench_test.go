package gitsync_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchTasks is the size of the benchmarks' plan; each iteration claims
// one more of its tasks.
const benchTasks = 500

// BenchmarkClaimRoundTrip is one claim through a local bare remote: fetch,
// merge, claim, commit, push, on a clone that is up to date.
func BenchmarkClaimRoundTrip(b *testing.B) {
	remote := newRemote(b, map[string]string{doc: planOf(benchTasks), ".gitignore": ".taskmd/\n"})
	m := newMachine(b, remote, "a")
	if b.N > benchTasks {
		b.Skipf("b.N %d is more than the plan's %d tasks", b.N, benchTasks)
	}
	b.ResetTimer()
	for i := range b.N {
		res, err := m.sync.Claim(ctx, fmt.Sprintf("/plan.md#task-%d", i+1), m.agent)
		if err != nil || !res.Pushed {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkFloorCommitPush is the floor of a claim round trip: the git
// commands that any shared claim needs (fetch, commit of one changed
// document, push), on the same plan, with nothing else.
func BenchmarkFloorCommitPush(b *testing.B) {
	remote := newRemote(b, map[string]string{doc: planOf(benchTasks), ".gitignore": ".taskmd/\n"})
	dir := filepath.Join(b.TempDir(), "floor")
	run(b, filepath.Dir(dir), "clone", "-q", remote, dir)
	src := planOf(benchTasks)
	b.ResetTimer()
	for i := range b.N {
		run(b, dir, "fetch", "-q", "origin")
		src = strings.Replace(src, fmt.Sprintf("### Task %d\n- Status: pending\n", i%benchTasks+1),
			fmt.Sprintf("### Task %d\n- Status: pending\n- Assignee: agent-a\n", i%benchTasks+1), 1)
		if err := os.WriteFile(filepath.Join(dir, doc), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
		run(b, dir, "commit", "-q", "-m", "claim", "--", doc)
		run(b, dir, "push", "-q", "origin", "HEAD:refs/heads/main")
	}
}
