package gitsync_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taskmd/taskmd/gitsync"
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

// BenchmarkClaimRoundTripPlanRefs is BenchmarkClaimRoundTrip with plan
// refs (gitsync.WithPlanRefs), once the plan has its ref: each claim is
// pushed to the plan's ref.
func BenchmarkClaimRoundTripPlanRefs(b *testing.B) {
	remote := newRemote(b, map[string]string{doc: planOf(benchTasks), ".gitignore": ".taskmd/\n"})
	m := newMachine(b, remote, "a", gitsync.WithPlanRefs())
	if b.N >= benchTasks {
		b.Skipf("b.N %d is more than the plan's %d tasks but one", b.N, benchTasks)
	}
	if res, err := m.sync.Claim(ctx, fmt.Sprintf("/plan.md#task-%d", benchTasks), m.agent); err != nil || !res.Pushed {
		b.Fatal(err, res) // the plan's ref, made with the branch
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

// BenchmarkRenew is one renewal of a machine's leases after a heartbeat:
// 20 tasks held, written as one small file and pushed to the machine's own
// ref on a local bare remote.
func BenchmarkRenew(b *testing.B) {
	remote := newRemote(b, map[string]string{doc: planOf(benchTasks), ".gitignore": ".taskmd/\n"})
	c := newClock()
	m := cloneLeased(b, remote, "a", c)
	for i := range 20 {
		if _, err := m.sync.Claim(ctx, fmt.Sprintf("/plan.md#task-%d", i+1), m.agent); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		later(b, m, c, time.Second) // each renewal's leases end later
		rep, err := m.sync.Renew(ctx)
		if err != nil || !rep.Pushed {
			b.Fatal(err, rep)
		}
	}
}

// BenchmarkFloorPushRef is the floor of a renewal: the git commands that
// any renewal through a ref needs (write a commit holding the leases,
// push it over the ref), with nothing else.
func BenchmarkFloorPushRef(b *testing.B) {
	remote := newRemote(b, map[string]string{doc: planOf(benchTasks), ".gitignore": ".taskmd/\n"})
	dir := filepath.Join(b.TempDir(), "floor")
	run(b, filepath.Dir(dir), "clone", "-q", remote, dir)
	tree := strings.TrimSpace(runInput(b, dir, "", "mktree"))
	b.ResetTimer()
	for i := range b.N {
		c := strings.TrimSpace(runInput(b, dir, fmt.Sprintf(`{"renewal": %d}`+"\n", i), "commit-tree", tree, "-F", "-"))
		run(b, dir, "push", "-q", "origin", "+"+c+":refs/taskmd/leases/floor")
	}
}
