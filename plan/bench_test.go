package plan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/floor"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// bigPlan is a plan of n tasks in chains of ten (each task but a chain's
// first depends on the one before it), the first 30.5% completed with an
// outcome (so that one chain is half done), every 50th of the rest in
// progress; about 130 bytes a task.
func bigPlan(n int) string {
	var b strings.Builder
	b.WriteString("# Big\n\nA plan of many tasks, to measure the reads and writes of one.\n\n## Tasks\n")
	for i := range n {
		fmt.Fprintf(&b, "\n### Task %04d\n", i)
		switch {
		case i < n*305/1000:
			fmt.Fprintf(&b, "- Status: completed\n- Completed: 2026-11-20\n- Note: step %d done and tested\n", i)
		case i%50 == 0:
			b.WriteString("- Status: in_progress\n")
		default:
			b.WriteString("- Status: pending\n")
		}
		if i%10 != 0 {
			fmt.Fprintf(&b, "- Depends-On: #task-%04d\n", i-1)
		}
		fmt.Fprintf(&b, "\nImplement step %d of the service and its tests.\n", i)
	}
	return b.String()
}

// plans are the plans the benchmarks write on: the three tasks of
// authPlan, and a plan of 1,000 tasks (about 130 KB); each task is pending
// and has no dependency (task-0990 begins a chain near the plan's end).
var benchPlans = []struct {
	name, doc, task string
}{
	{"tasks=3", authPlan, "/auth.md#write-docs"},
	{"tasks=1000", bigPlan(1000), "/auth.md#task-0990"},
}

// Claim and release one task, over and over: each is a locked read and
// parse of the plan and its claims, a durable write of the claims and one
// of the plan (its Assignee field). A retried claim (the holder again)
// reads and writes nothing.
func BenchmarkClaim(b *testing.B) {
	for _, bp := range benchPlans {
		b.Run(bp.name+"/claim+release", func(b *testing.B) {
			p, _ := setup(b, newClock(), map[string]string{"docs/auth.md": bp.doc})
			a := register(b, p, "a")
			for b.Loop() {
				res, err := p.Claim(ctx, bp.task, a)
				if err != nil || !res.Success {
					b.Fatal(res, err)
				}
				if err := p.Release(ctx, bp.task, plan.Claimant{Agent: a, Token: res.Claim.Token}); err != nil {
					b.Fatal(err)
				}
			}
		})
		// A claim alone, beside its floor: the plan read and written
		// durably once, the least a claim shown in the plan costs (no
		// parse: the workspace keeps the parsed plan). A claim writes the
		// claims file durably too (it decides the token, which outlives
		// restarts), so about twice the floor is its due.
		b.Run(bp.name+"/claim", func(b *testing.B) {
			p, root := setup(b, newClock(), map[string]string{"docs/auth.md": bp.doc})
			agents := []string{register(b, p, "a"), register(b, p, "b")}
			for i := 0; b.Loop(); i++ {
				if res, err := p.Claim(ctx, bp.task, agents[i%2]); err != nil || !res.Success {
					b.Fatal(res, err)
				}
				b.StopTimer()
				res, _ := p.Claim(ctx, bp.task, agents[i%2])
				if err := p.Release(ctx, bp.task, plan.Claimant{Agent: agents[i%2], Token: res.Claim.Token}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			_ = root
		})
		b.Run(bp.name+"/claim-floor", func(b *testing.B) {
			_, root := setup(b, newClock(), map[string]string{"docs/auth.md": bp.doc})
			name := filepath.Join(root, "docs", "auth.md")
			for b.Loop() {
				src, err := os.ReadFile(name)
				if err != nil {
					b.Fatal(err)
				}
				if err := floor.DurableWrite(name, src); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bp.name+"/retry", func(b *testing.B) {
			p, _ := setup(b, newClock(), map[string]string{"docs/auth.md": bp.doc})
			a := register(b, p, "a")
			_, err := p.Claim(ctx, bp.task, a)
			require.NoError(b, err)
			for b.Loop() {
				if res, err := p.Claim(ctx, bp.task, a); err != nil || !res.Success {
					b.Fatal(res, err)
				}
			}
		})
	}
}

// Claim and release a task of the plan of 1,000 tasks whose dependency is
// done, as BenchmarkClaim does one without: a dependency in the same plan
// is found in the parse the claim holds; one in another plan (here another
// 130 KB document) is a read of that document without its lock, whose
// parse the workspace keeps.
func BenchmarkClaimDependency(b *testing.B) {
	big := bigPlan(1000)
	cases := []struct{ name, task, other string }{
		{"none", "task-0990", ""},
		{"same-document", "task-0305", ""}, // after task-0304, completed
		{"other-document", "task-0990", "- Depends-On: /side.md#task-0000\n"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			doc := big
			if c.other != "" {
				doc = strings.Replace(big, "### Task 0990\n- Status: pending\n", "### Task 0990\n- Status: pending\n"+c.other, 1)
				require.NotEqual(b, big, doc)
			}
			p, _ := setup(b, newClock(), map[string]string{"docs/auth.md": doc, "docs/side.md": big})
			a := register(b, p, "a")
			task := "/auth.md#" + c.task
			for b.Loop() {
				res, err := p.Claim(ctx, task, a)
				if err != nil || !res.Success {
					b.Fatal(res, err)
				}
				if err := p.Release(ctx, task, plan.Claimant{Agent: a, Token: res.Claim.Token}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// UpdateStatus of a claimed task, in progress and paused in turn: a fenced
// write of the plan.
func BenchmarkUpdateStatus(b *testing.B) {
	for _, bp := range benchPlans {
		b.Run(bp.name, func(b *testing.B) {
			p, _ := setup(b, newClock(), map[string]string{"docs/auth.md": bp.doc})
			a := register(b, p, "a")
			res, err := p.Claim(ctx, bp.task, a)
			require.NoError(b, err)
			me := plan.Claimant{Agent: a, Token: res.Claim.Token}
			statuses := []taskdoc.Status{taskdoc.StatusInProgress, taskdoc.StatusPaused}
			i := 0
			for b.Loop() {
				if _, err := p.UpdateStatus(ctx, bp.task, me, plan.StatusUpdate{Status: statuses[i%2]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// AddEntry under a claim (the fence reads the claims file under its
// lock) against checkpoint's unfenced Add of the same entry, the floor.
// The journal grows by one entry an iteration in both.
func BenchmarkAddEntryClaimed(b *testing.B) {
	entry := func(i int) journal.Entry {
		return journal.Entry{Type: journal.TypeProgress, Summary: fmt.Sprintf("step %d: signer written and tested", i),
			FilesChanged: []string{"src/auth/signer.go", "src/auth/signer_test.go"},
			Detail:       fmt.Sprintf(`{"step": %d, "tests": 14, "passed": 14}`, i)}
	}
	for _, bp := range benchPlans {
		b.Run(bp.name+"/fenced", func(b *testing.B) {
			p, _ := setup(b, newClock(), map[string]string{"docs/auth.md": bp.doc})
			a := register(b, p, "a")
			res, err := p.Claim(ctx, bp.task, a)
			require.NoError(b, err)
			me := plan.Claimant{Agent: a, Token: res.Claim.Token}
			i := 0
			for b.Loop() {
				if _, err := p.AddEntry(ctx, bp.task, me, entry(i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(bp.name+"/floor: journal.Journal.Add", func(b *testing.B) {
			p, _ := setup(b, newClock(), map[string]string{"docs/auth.md": bp.doc})
			j := p.Journal()
			i := 0
			for b.Loop() {
				e := entry(i)
				e.Agent = "a"
				if _, err := j.Add(ctx, bp.task, e); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// bigSetup is a workspace with the 1,000-task plan and its bytes.
func bigSetup(b *testing.B) (*plan.Plans, []byte) {
	p, root := setup(b, newClock(), map[string]string{"docs/big.md": bigPlan(1000)})
	src, err := os.ReadFile(filepath.Join(root, "docs", "big.md"))
	require.NoError(b, err)
	return p, src
}

// NextTasks of the 1,000-task plan (dependencies resolved for every task)
// against parsing its bytes, the floor.
func BenchmarkNextTasks(b *testing.B) {
	p, src := bigSetup(b)
	a := register(b, p, "a")
	_, err := p.Claim(ctx, "/big.md#task-0310", a) // a live holder to look up
	require.NoError(b, err)
	next, err := p.NextTasks(ctx, "/big.md")
	require.NoError(b, err)
	// The 56 pending chain heads from 310 on (not 350, 400, ... 950, in
	// progress), task 305 (304 is completed) and the 13 stranded tasks in
	// progress, less task 310, held.
	require.Len(b, next, 56+1+13-1)
	b.Run("NextTasks", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, err := p.NextTasks(ctx, "/big.md"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor: taskdoc.Parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, err := taskdoc.Parse(src); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Progress of the 1,000-task plan against parsing its bytes.
func BenchmarkProgress(b *testing.B) {
	p, src := bigSetup(b)
	b.Run("Progress", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, err := p.Progress(ctx, "/big.md"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor: taskdoc.Parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, err := taskdoc.Parse(src); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// LoadContext of a task with 50 checkpoints (a 600-byte detail each) and
// everything included, under the default budget of 8,000 tokens (the
// checkpoints alone are about 9,000), against reading and parsing the
// plan, the floor.
func BenchmarkLoadContext(b *testing.B) {
	for _, bp := range benchPlans {
		b.Run(bp.name, func(b *testing.B) {
			c := newClock()
			p, root := setup(b, c, map[string]string{"docs/auth.md": bp.doc})
			for i := range 50 {
				_, err := p.AddEntry(ctx, bp.task, plan.Claimant{}, journal.Entry{Type: journal.TypeProgress, Agent: "w1",
					Summary: fmt.Sprintf("step %d: signer written and tested", i), FilesChanged: []string{"src/auth/signer.go"},
					Detail: strings.Repeat(fmt.Sprintf("detail line %d of the step's log. ", i), 17)})
				require.NoError(b, err)
			}
			inc := plan.DefaultInclude()
			inc.AllCheckpoints = true
			opts := plan.ContextOptions{Include: &inc, MaxTokens: 8000}
			tc, err := p.LoadContext(ctx, bp.task, opts)
			require.NoError(b, err)
			require.NotEmpty(b, tc.Cut, "the budget cuts")
			b.Run("LoadContext", func(b *testing.B) {
				for b.Loop() {
					if _, err := p.LoadContext(ctx, bp.task, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("floor: read+parse plan", func(b *testing.B) {
				name := filepath.Join(root, "docs", "auth.md")
				for b.Loop() {
					src, err := os.ReadFile(name)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := taskdoc.Parse(src); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
