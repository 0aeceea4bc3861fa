package plan_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

// minBudget is the smallest max_tokens LoadContext takes, as its
// documentation says.
const minBudget = 100

const ctxPlan = `# Ctx

The plan summary.

## Tasks

### Base
- Status: completed
- Completed: 2026-11-20
- Note: base outcome

### Early
- Status: completed
- Completed: 2026-11-21
- Note: early outcome

### Late
- Status: completed
- Completed: 2026-11-22
- Note: late outcome

### Same day
- Status: completed
- Completed: 2026-11-21
- Note: same day outcome

### Skipped dep
- Status: skipped

### Work
- Status: in_progress
- Depends-On: #late, #base, #skipped-dep, /other.md#done-thing, #pending-dep, /missing.md#x
- Workflow: tdd
- Assignee: ag_x
- Plan: the approach

Read @/ref.md and @/absent.md.

### Pending dep
- Status: pending
`

// ctxSetup is a workspace with ctxPlan, the documents it names, and n
// checkpoints of /ctx.md#work, a minute apart; checkpoint i (from 1) has
// a detail when i is odd.
func ctxSetup(t *testing.T, n int) (*plan.Plans, *clock) {
	t.Helper()
	c := newClock()
	p, _ := setup(t, c, map[string]string{
		"docs/ctx.md":      ctxPlan,
		"docs/other.md":    otherPlan,
		"docs/ref.md":      "# Ref\n\nThe referenced text.\n",
		"workflows/tdd.md": "Red, green, refactor.\n",
	})
	for i := 1; i <= n; i++ {
		e := journal.Entry{Agent: "w1", Type: journal.TypeProgress, Summary: fmt.Sprintf("step %d", i),
			FilesChanged: []string{fmt.Sprintf("f%d.go", i)}}
		if i%2 == 1 {
			e.Detail = strings.Repeat(fmt.Sprintf("detail of %d ", i), 30)
		}
		_, err := p.AddEntry(ctx, "/ctx.md#work", plan.Claimant{}, e)
		require.NoError(t, err)
		c.Add(time.Minute)
	}
	return p, c
}

// wantCheckpoint is checkpoint seq of ctxSetup as the context holds it.
func wantCheckpoint(seq int) plan.ContextCheckpoint {
	cp := plan.ContextCheckpoint{Sequence: seq, Type: "progress", Time: t0.Add(time.Duration(seq-1) * time.Minute), Agent: "w1",
		Summary: fmt.Sprintf("step %d", seq), FilesChanged: []string{fmt.Sprintf("f%d.go", seq)}}
	if seq%2 == 1 {
		cp.Detail = strings.Repeat(fmt.Sprintf("detail of %d ", seq), 30)
	}
	return cp
}

func wantCheckpoints(seqs ...int) []plan.ContextCheckpoint {
	out := []plan.ContextCheckpoint{}
	for _, s := range seqs {
		out = append(out, wantCheckpoint(s))
	}
	return out
}

// TestLoadContextContents: everything a task's context holds, as written
// by hand: the task, the plan's summary, the workflow prompt, the
// references, the dependency outcomes (completed dependencies, in
// Depends-On order), the prior outcomes (the other completed tasks,
// newest first), the newest checkpoints, and what is missing.
func TestLoadContextContents(t *testing.T) {
	p, _ := ctxSetup(t, 7)
	const taskText = "Work\n\n" +
		"- Status: in_progress\n" +
		"- Depends-On: #late, #base, #skipped-dep, /other.md#done-thing, #pending-dep, /missing.md#x\n" +
		"- Workflow: tdd\n" +
		"- Assignee: ag_x\n" +
		"- Plan: the approach\n" +
		"\n" +
		"Read @/ref.md and @/absent.md."
	tc, err := p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{})
	require.NoError(t, err)
	want := &plan.TaskContext{
		Plan: plan.PlanContext{ID: "/ctx.md", Title: "Ctx", Summary: "The plan summary."},
		CurrentTask: plan.CurrentTask{ID: "/ctx.md#work", Title: "Work", Status: taskdoc.StatusInProgress, Assignee: "ag_x",
			Approach: "the approach", Text: taskText, Checkpoints: wantCheckpoints(7, 6, 5, 4, 3)},
		PriorTasks: []plan.Text{{ID: "/ctx.md#same-day", Text: "same day outcome"}, {ID: "/ctx.md#early", Text: "early outcome"}},
		DependencyOutcomes: []plan.Text{{ID: "/ctx.md#late", Text: "late outcome"}, {ID: "/ctx.md#base", Text: "base outcome"},
			{ID: "/other.md#done-thing", Text: "done long ago"}},
		WorkflowPrompt: &plan.Text{ID: "tdd", Text: "Red, green, refactor.\n"},
		References:     []plan.Text{{ID: "/ref.md", Text: "# Ref\n\nThe referenced text.\n"}},
		Missing:        []string{"/missing.md#x", "@/absent.md"},
		MaxTokens:      taskcontext.DefaultBudget,
		Cut:            []taskcontext.Cut{},
	}
	assert.Equal(t, contextTokens(tc, taskcontext.DefaultEstimator), tc.Tokens, "tokens is the answer's size")
	want.Tokens = tc.Tokens
	assert.Equal(t, want, tc)

	// All checkpoints, RecentCheckpoints ignored.
	all := plan.DefaultInclude()
	all.AllCheckpoints, all.RecentCheckpoints = true, 2
	tc, err = p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &all})
	require.NoError(t, err)
	assert.Equal(t, wantCheckpoints(7, 6, 5, 4, 3, 2, 1), tc.CurrentTask.Checkpoints)

	// The newest N.
	for n, seqs := range map[int][]int{1: {7}, 3: {7, 6, 5}, 7: {7, 6, 5, 4, 3, 2, 1}, 50: {7, 6, 5, 4, 3, 2, 1}} {
		inc := plan.Include{RecentCheckpoints: n}
		tc, err = p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &inc})
		require.NoError(t, err)
		assert.Equal(t, wantCheckpoints(seqs...), tc.CurrentTask.Checkpoints, "recent %d", n)
	}

	// Nothing but the task.
	none := plan.Include{}
	tc, err = p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &none, MaxTokens: 100000})
	require.NoError(t, err)
	want = &plan.TaskContext{
		Plan: plan.PlanContext{ID: "/ctx.md", Title: "Ctx"},
		CurrentTask: plan.CurrentTask{ID: "/ctx.md#work", Title: "Work", Status: taskdoc.StatusInProgress, Assignee: "ag_x",
			Approach: "the approach", Text: taskText, Checkpoints: []plan.ContextCheckpoint{}},
		PriorTasks: []plan.Text{}, DependencyOutcomes: []plan.Text{}, References: []plan.Text{},
		MaxTokens: 100000, Cut: []taskcontext.Cut{},
	}
	assert.Equal(t, contextTokens(tc, taskcontext.DefaultEstimator), tc.Tokens, "tokens is the answer's size")
	want.Tokens = tc.Tokens
	assert.Equal(t, want, tc)

	// References without the workflow prompt; prior outcomes without the
	// dependency outcomes (the dependencies count as prior tasks then).
	inc := plan.Include{References: true, PriorTaskOutcomes: true}
	tc, err = p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &inc})
	require.NoError(t, err)
	assert.Nil(t, tc.WorkflowPrompt)
	assert.Equal(t, []plan.Text{{ID: "/ref.md", Text: "# Ref\n\nThe referenced text.\n"}}, tc.References)
	assert.Equal(t, []string{"@/absent.md"}, tc.Missing)
	assert.Equal(t, []plan.Text{{ID: "/ctx.md#late", Text: "late outcome"}, {ID: "/ctx.md#same-day", Text: "same day outcome"},
		{ID: "/ctx.md#early", Text: "early outcome"}, {ID: "/ctx.md#base", Text: "base outcome"}}, tc.PriorTasks)
	assert.Empty(t, tc.DependencyOutcomes)

	// The workflow prompt without references.
	inc = plan.Include{WorkflowPrompt: true}
	tc, err = p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &inc})
	require.NoError(t, err)
	assert.Equal(t, &plan.Text{ID: "tdd", Text: "Red, green, refactor.\n"}, tc.WorkflowPrompt)
	assert.Empty(t, tc.References)
	assert.Nil(t, tc.Missing)

	// A completed task's context: its own outcome is in its text, not
	// among the prior outcomes.
	tc, err = p.LoadContext(ctx, "/ctx.md#early", plan.ContextOptions{})
	require.NoError(t, err)
	assert.Equal(t, "Early\n\n- Status: completed\n- Completed: 2026-11-21\n- Note: early outcome\n", tc.CurrentTask.Text)
	assert.Equal(t, []plan.Text{{ID: "/ctx.md#late", Text: "late outcome"}, {ID: "/ctx.md#same-day", Text: "same day outcome"},
		{ID: "/ctx.md#base", Text: "base outcome"}}, tc.PriorTasks)
}

// TestLoadContextCut: what the budget drops goes in the documented order,
// and Cut says so: checkpoint details oldest first, checkpoints oldest
// first, prior outcomes oldest first, references, dependency outcomes
// (later first), the workflow prompt, the plan summary; the task is
// shortened, never dropped.
func TestLoadContextCut(t *testing.T) {
	p, _ := ctxSetup(t, 4)
	inc := plan.DefaultInclude()
	inc.AllCheckpoints = true
	full, err := p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &inc, MaxTokens: 1 << 30})
	require.NoError(t, err)
	require.Empty(t, full.Cut)

	// A little less than the whole answer: the oldest detail (of
	// checkpoint 1, 90 tokens) is shortened, nothing else changes.
	budget := full.Tokens - 30
	tc, err := p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &inc, MaxTokens: budget})
	require.NoError(t, err)
	require.Len(t, tc.Cut, 1)
	assert.Equal(t, "checkpoint detail", tc.Cut[0].Kind)
	assert.Equal(t, "1", tc.Cut[0].Name)
	assert.True(t, tc.Cut[0].Shortened)
	assert.Equal(t, contextTokens(tc, taskcontext.DefaultEstimator), tc.Tokens)
	assert.LessOrEqual(t, tc.Tokens, budget)
	old := tc.CurrentTask.Checkpoints[3]
	require.Equal(t, 1, old.Sequence)
	assert.True(t, strings.HasSuffix(old.Detail, taskcontext.TruncationMark))
	assert.True(t, strings.HasPrefix(wantCheckpoint(1).Detail, strings.TrimSuffix(old.Detail, taskcontext.TruncationMark)))
	assert.Equal(t, wantCheckpoint(3), tc.CurrentTask.Checkpoints[1], "the newer detail is whole")

	// Budgets below minBudget are refused.
	for _, max := range []int{-1, 1, 12, minBudget - 1} {
		_, err := p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &inc, MaxTokens: max})
		requireCode(t, err, taskdoc.CodeInvalidArguments, "max_tokens %d", max)
	}

	// A budget below the smallest answer (the task's id, title, status and
	// fields, and what was cut) is refused, naming the least that serves.
	_, err = p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &inc, MaxTokens: minBudget})
	requireCode(t, err, taskdoc.CodeInvalidArguments, "max_tokens %d", minBudget)
	var least int
	msg := err.Error()
	_, scanErr := fmt.Sscanf(msg[strings.LastIndex(msg, "give at least "):], "give at least %d", &least)
	require.NoError(t, scanErr, msg)
	require.Greater(t, least, minBudget)

	// At the least: everything goes but the task, which is shortened, and
	// the cut list names what went, by kind in the drop order.
	tc, err = p.LoadContext(ctx, "/ctx.md#work", plan.ContextOptions{Include: &inc, MaxTokens: least})
	require.NoError(t, err)
	assert.LessOrEqual(t, tc.Tokens, least)
	assert.Equal(t, contextTokens(tc, taskcontext.DefaultEstimator), tc.Tokens)
	var kinds []string
	for _, c := range tc.Cut {
		kinds = append(kinds, c.Kind)
		assert.Positive(t, c.Tokens)
	}
	assert.Equal(t, []string{"checkpoint detail", "checkpoint", "prior outcome",
		"reference", "dependency outcome", "workflow", "plan summary",
		"task"}, kinds, "runs of a kind share an entry: %+v", tc.Cut)
	assert.Equal(t, "1, 2, 3, 4", tc.Cut[1].Name, "oldest first: %+v", tc.Cut)
	assert.Empty(t, tc.CurrentTask.Checkpoints)
	assert.Empty(t, tc.PriorTasks)
	assert.Empty(t, tc.DependencyOutcomes)
	assert.Empty(t, tc.References)
	assert.Nil(t, tc.WorkflowPrompt)
	assert.Empty(t, tc.Plan.Summary)
	assert.Equal(t, "Work", tc.CurrentTask.Title, "the title stays whatever the budget")
}

// contextTokens is the estimate of tc as the answer goes out: its JSON,
// every field included.
func contextTokens(tc *plan.TaskContext, estimate taskcontext.Estimator) int {
	data, err := json.Marshal(tc)
	if err != nil {
		panic(err)
	}
	return max(estimate(string(data)), 0)
}

// renderCheckpoint is a checkpoint as the context's budget counts it: its
// journal heading ("3 · decision · 2026-11-23T10:00:00Z · worker-1"), its
// summary and its files.
func renderCheckpoint(cp plan.ContextCheckpoint) string {
	s := fmt.Sprintf("%d · %s", cp.Sequence, cp.Type)
	if !cp.Time.IsZero() {
		s += " · " + cp.Time.UTC().Format(time.RFC3339)
	}
	if cp.Agent != "" {
		s += " · " + cp.Agent
	}
	s += "\n" + cp.Summary
	if len(cp.FilesChanged) > 0 {
		s += "\nFiles: " + strings.Join(cp.FilesChanged, ", ")
	}
	return s
}

// randomText is about n bytes of words, some of several bytes a
// character, with line breaks when lines is set; it never holds '#', '@'
// or '-', so it opens no heading, reference or field.
func randomText(r *rand.Rand, n int, lines bool) string {
	pieces := []string{"é", "日本", "🙂", "x", "token", "budget", "a", "of", "the", "checkpoint", "ü", "1234567890"}
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			if lines && r.IntN(12) == 0 {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		}
		for range 1 + r.IntN(3) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
	}
	return strings.TrimSpace(b.String())
}

// TestLoadContextBudgetProperty: over random plans, checkpoints, includes,
// budgets (tiny to huge: below minBudget they are refused, and
// costly estimators make the smallest ones tiny) and estimators, the
// context never exceeds its
// budget: Tokens is the sum of the estimates of every text it holds and at
// most MaxTokens; the task is always there, its text empty only when not
// even the truncation mark fits; every text kept is whole or shortened
// with the mark; checkpoints are the newest; and Cut accounts for every
// part and every token that went, in drop order.
func TestLoadContextBudgetProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	c := newClock()
	const tasks, done = 12, 4
	var b strings.Builder
	b.WriteString("# Random\n\n" + randomText(r, r.IntN(2000), true) + "\n\n## Tasks\n")
	for i := range tasks {
		fmt.Fprintf(&b, "\n### Task %02d\n", i)
		if i < done {
			fmt.Fprintf(&b, "- Status: completed\n- Completed: 2026-11-%02d\n- Note: %s\n", 10+r.IntN(5), randomText(r, 1+r.IntN(2000), false))
			continue
		}
		fmt.Fprintf(&b, "- Status: %s\n", []string{"pending", "in_progress", "planning"}[r.IntN(3)])
		var deps []string
		for d := range done {
			if r.IntN(2) == 0 {
				deps = append(deps, fmt.Sprintf("#task-%02d", d))
			}
		}
		if r.IntN(3) == 0 {
			deps = append(deps, "/other.md#done-thing")
		}
		if len(deps) > 0 {
			b.WriteString("- Depends-On: " + strings.Join(deps, ", ") + "\n")
		}
		if r.IntN(2) == 0 {
			b.WriteString("- Workflow: wf\n")
		}
		body := randomText(r, r.IntN(4000), true)
		if r.IntN(2) == 0 {
			body += "\n\nSee @/ref1.md and @/ref2.md#sec."
		}
		if body != "" {
			b.WriteString("\n" + body + "\n")
		}
	}
	p, _ := setup(t, c, map[string]string{
		"docs/random.md":   b.String(),
		"docs/other.md":    otherPlan,
		"docs/ref1.md":     "# Ref one\n\n" + randomText(r, 3000, true) + "\n\nAnd @/ref3.md.\n",
		"docs/ref2.md":     "# Ref two\n\n## Sec\n\n" + randomText(r, 1500, true) + "\n\n## Other\n\n" + randomText(r, 500, true) + "\n",
		"docs/ref3.md":     randomText(r, 800, true) + "\n",
		"workflows/wf.md":  randomText(r, 2500, true) + "\n",
		"docs/unused.md":   "# Unused\n",
		"docs/ref-none.md": "x\n",
	})
	counts := map[string]int{}
	for i := done; i < tasks; i++ {
		task := fmt.Sprintf("/random.md#task-%02d", i)
		n := r.IntN(26)
		counts[task] = n
		for range n {
			e := journal.Entry{Type: journal.TypeProgress, Summary: randomText(r, 1+r.IntN(200), false)}
			if r.IntN(2) == 0 {
				e.Agent = "worker-1"
			}
			for range r.IntN(4) {
				e.FilesChanged = append(e.FilesChanged, fmt.Sprintf("src/f%d.go", r.IntN(100)))
			}
			if r.IntN(2) == 0 {
				e.Detail = randomText(r, 1+r.IntN(1500), true)
			}
			_, err := p.AddEntry(ctx, task, plan.Claimant{}, e)
			require.NoError(t, err)
			c.Add(time.Duration(1+r.IntN(100)) * time.Second)
		}
	}

	estimators := []struct {
		name string
		est  taskcontext.Estimator
	}{
		{"default", nil},
		{"bytes", func(s string) int { return len(s) }},
		// Not monotone: LoadContext must keep the budget whatever it returns.
		{"bumpy", func(s string) int { return len(s)/3 + int(s[len(s)-1])%7 - 2 }},
		// Costly, so that the smallest budgets LoadContext takes are tiny:
		// 100 tokens are 10 default tokens (the mark costs 9), or 2.5.
		{"x10", func(s string) int { return 10 * taskcontext.DefaultEstimator(s) }},
		{"x40", func(s string) int { return 40 * taskcontext.DefaultEstimator(s) }},
	}
	for iter := range 300 {
		ti := r.IntN(tasks)
		task := fmt.Sprintf("/random.md#task-%02d", ti)
		inc := plan.Include{PlanSummary: r.IntN(2) == 0, PriorTaskOutcomes: r.IntN(2) == 0, DependencyOutcomes: r.IntN(2) == 0,
			RecentCheckpoints: r.IntN(30), AllCheckpoints: r.IntN(4) == 0, WorkflowPrompt: r.IntN(2) == 0, References: r.IntN(2) == 0}
		var budget int
		switch r.IntN(10) {
		case 0:
			budget = minBudget - 1 - r.IntN(minBudget+5) // refused
		case 1, 2, 3:
			budget = minBudget + r.IntN(21)
		case 4:
			budget = minBudget + r.IntN(300)
		case 5, 6:
			budget = 400 + r.IntN(5000)
		case 7:
			budget = 1_000_000
		case 8:
			budget = 0 // the default
		default:
			budget = minBudget + r.IntN(1000)
		}
		e := estimators[[]int{0, 0, 0, 1, 2, 3, 3, 4}[r.IntN(8)]]
		est := e.est
		if est == nil {
			est = taskcontext.DefaultEstimator
		}
		what := fmt.Sprintf("iteration %d: %s, include %+v, budget %d, estimator %s", iter, task, inc, budget, e.name)

		full, err := p.LoadContext(ctx, task, plan.ContextOptions{Include: &inc, MaxTokens: 1 << 40, Estimate: e.est})
		require.NoError(t, err, what)
		require.Empty(t, full.Cut, what)
		require.Equal(t, contextTokens(full, est), full.Tokens, what)
		want := counts[task]
		if !inc.AllCheckpoints {
			want = min(want, inc.RecentCheckpoints)
		}
		require.Len(t, full.CurrentTask.Checkpoints, want, what)
		for i, cp := range full.CurrentTask.Checkpoints {
			require.Equal(t, counts[task]-i, cp.Sequence, "%s: newest first", what)
		}

		tc, err := p.LoadContext(ctx, task, plan.ContextOptions{Include: &inc, MaxTokens: budget, Estimate: e.est})
		if budget != 0 && budget < minBudget {
			requireCode(t, err, taskdoc.CodeInvalidArguments, what)
			continue
		}
		if err != nil && strings.Contains(err.Error(), "give at least ") {
			// Below the smallest answer, which the costly estimators make
			// large: refused.
			requireCode(t, err, taskdoc.CodeInvalidArguments, what)
			continue
		}
		require.NoError(t, err, what)
		max := budget
		if max == 0 {
			max = taskcontext.DefaultBudget
		}
		require.Equal(t, max, tc.MaxTokens, what)
		require.LessOrEqual(t, tc.Tokens, max, what)
		require.Equal(t, contextTokens(tc, est), tc.Tokens, "%s: Tokens is the estimate of what was kept", what)

		// The task is there; its text is whole, shortened, or empty when
		// not even the mark fits.
		require.Equal(t, task, tc.CurrentTask.ID, what)
		require.Equal(t, fmt.Sprintf("Task %02d", ti), tc.CurrentTask.Title, what)
		if tc.CurrentTask.Text != "" {
			requireWholeOrShortened(t, full.CurrentTask.Text, tc.CurrentTask.Text, what)
		}
		if tc.CurrentTask.Text != full.CurrentTask.Text {
			last := tc.Cut[len(tc.Cut)-1]
			require.Equal(t, taskcontext.Cut{Kind: "task", Name: task, Shortened: true,
				Tokens: tokensOf(full.CurrentTask.Text, est) - tokensOf(tc.CurrentTask.Text, est)}, last, "%s: the task goes last", what)
		}
		if slices.ContainsFunc(tc.Cut, func(c taskcontext.Cut) bool { return strings.Contains(c.Name, ", ") }) {
			requireDropOrder(t, tc.Cut, what)
			continue // merged to fit: the entries are runs, not parts
		}

		// Every part is kept (whole or shortened) or cut, and Cut says which.
		cuts := map[string]taskcontext.Cut{}
		for _, c := range tc.Cut {
			key := string(c.Kind) + " " + c.Name
			require.NotContains(t, cuts, key, "%s: cut twice", what)
			cuts[key] = c
		}
		seen := 0
		check := func(kind string, name, whole, kept string, present bool) {
			t.Helper()
			c, wasCut := cuts[string(kind)+" "+name]
			switch {
			case !present:
				require.True(t, wasCut && !c.Shortened, "%s: %s %s went without a cut", what, kind, name)
				require.Equal(t, tokensOf(whole, est), c.Tokens, "%s: %s %s", what, kind, name)
				seen++
			case kept == whole:
				require.False(t, wasCut, "%s: %s %s is whole but cut", what, kind, name)
			default:
				requireWholeOrShortened(t, whole, kept, what)
				require.True(t, wasCut && c.Shortened, "%s: %s %s shortened without a cut", what, kind, name)
				require.Equal(t, tokensOf(whole, est)-tokensOf(kept, est), c.Tokens, "%s: %s %s", what, kind, name)
				seen++
			}
		}
		check("plan summary", "plan", full.Plan.Summary, tc.Plan.Summary, full.Plan.Summary == "" || tc.Plan.Summary != "")
		if full.WorkflowPrompt != nil {
			kept := ""
			if tc.WorkflowPrompt != nil {
				kept = tc.WorkflowPrompt.Text
			}
			check("workflow", full.WorkflowPrompt.ID, full.WorkflowPrompt.Text, kept, tc.WorkflowPrompt != nil)
		} else {
			require.Nil(t, tc.WorkflowPrompt, what)
		}
		for _, l := range []struct {
			kind       string
			full, kept []plan.Text
		}{
			{"reference", full.References, tc.References},
			{"dependency outcome", full.DependencyOutcomes, tc.DependencyOutcomes},
			{"prior outcome", full.PriorTasks, tc.PriorTasks},
		} {
			k := 0
			for _, x := range l.full {
				if k < len(l.kept) && l.kept[k].ID == x.ID {
					check(l.kind, x.ID, x.Text, l.kept[k].Text, true)
					k++
				} else {
					check(l.kind, x.ID, x.Text, "", false)
				}
			}
			require.Equal(t, len(l.kept), k, "%s: %s kept in order, none added", what, l.kind)
		}
		kept := tc.CurrentTask.Checkpoints
		require.LessOrEqual(t, len(kept), len(full.CurrentTask.Checkpoints), what)
		for i, cp := range full.CurrentTask.Checkpoints {
			name := fmt.Sprint(cp.Sequence)
			if i >= len(kept) {
				check("checkpoint", name, renderCheckpoint(cp), "", false)
				if cp.Detail != "" {
					check("checkpoint detail", name, cp.Detail, "", false)
				}
				continue
			}
			require.Equal(t, cp.Sequence, kept[i].Sequence, "%s: the newest checkpoints are kept", what)
			whole := cp
			whole.Detail = kept[i].Detail
			require.Equal(t, whole, kept[i], what)
			check("checkpoint", name, renderCheckpoint(cp), renderCheckpoint(kept[i]), true)
			if cp.Detail != "" {
				check("checkpoint detail", name, cp.Detail, kept[i].Detail, kept[i].Detail != "")
				if len(kept) < len(full.CurrentTask.Checkpoints) {
					require.Empty(t, kept[i].Detail, "%s: details go before any checkpoint", what)
				}
			}
		}
		if tc.CurrentTask.Text != full.CurrentTask.Text {
			seen++
		}
		require.Equal(t, len(tc.Cut), seen, "%s: every cut is of a part that went: %+v", what, tc.Cut)
		requireDropOrder(t, tc.Cut, what)
	}
}

// requireWholeOrShortened fails unless kept is whole, or a start of whole
// followed by the truncation mark (or the mark alone).
func requireWholeOrShortened(t *testing.T, whole, kept, what string) {
	t.Helper()
	if kept == whole {
		return
	}
	start, ok := strings.CutSuffix(kept, taskcontext.TruncationMark)
	require.True(t, ok, "%s: %q is shortened without the mark", what, kept)
	require.True(t, strings.HasPrefix(whole, start), "%s: %q is not a start of the text", what, start)
	require.Less(t, len(start), len(whole), what)
}

func tokensOf(s string, est taskcontext.Estimator) int {
	if s == "" {
		return 0
	}
	return max(est(s), 0)
}

// requireDropOrder fails unless cuts go by kind in the documented drop
// order, and checkpoints and their details oldest first.
func requireDropOrder(t *testing.T, cuts []taskcontext.Cut, what string) {
	t.Helper()
	order := []string{"checkpoint detail", "checkpoint", "prior outcome",
		"reference", "dependency outcome", "main workflow", "workflow",
		"plan summary", "task"}
	prev, prevSeq := -1, 0
	for _, c := range cuts {
		k := slices.Index(order, c.Kind)
		require.GreaterOrEqual(t, k, prev, "%s: %s cut after a later kind: %+v", what, c.Kind, cuts)
		if k != prev {
			prevSeq = 0
		}
		if c.Kind == "checkpoint" || c.Kind == "checkpoint detail" {
			var seq int
			fmt.Sscan(c.Name, &seq)
			require.Greater(t, seq, prevSeq, "%s: older checkpoints go first: %+v", what, cuts)
			prevSeq = seq
		}
		prev = k
	}
}
