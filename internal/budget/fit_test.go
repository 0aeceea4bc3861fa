package budget_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/budget"
	"github.com/taskmd/taskmd/taskcontext"
)

// perByte counts a token per byte, so that the tables can say exactly what
// fits.
func perByte(s string) int { return len(s) }

// perRune counts a token per character; it refuses "", which Fit never
// estimates.
func perRune(s string) int {
	if s == "" {
		panic("estimated the empty text")
	}
	return utf8.RuneCountInString(s)
}

func x(n int) string { return strings.Repeat("x", n) }

func TestFitDropOrder(t *testing.T) {
	task := budget.Part{Kind: budget.KindTask, Name: "task", Text: x(10)}
	part := func(kind budget.Kind, name string, rank, size int) budget.Part {
		return budget.Part{Kind: kind, Name: name, Text: x(size), Rank: rank}
	}
	dropped := func(kind budget.Kind, name string, tokens int) taskcontext.Cut {
		return taskcontext.Cut{Kind: kind, Name: name, Tokens: tokens}
	}
	for _, tc := range []struct {
		name   string
		parts  []budget.Part
		budget int
		kept   []string // names
		cut    []taskcontext.Cut
	}{
		{
			name:   "everything fits",
			parts:  []budget.Part{task, part(budget.KindReference, "/a.md", 1, 10)},
			budget: 20,
			kept:   []string{"task", "/a.md"},
		},
		{
			name: "kinds go in the documented order, the task stays",
			parts: []budget.Part{
				part(budget.KindPlanSummary, "plan", 0, 10),
				part(budget.KindWorkflow, "tdd", 0, 10),
				part(budget.KindMainWorkflow, "orchestrate", 0, 10),
				part(budget.KindDependencyOutcome, "/d.md#dep", 0, 10),
				part(budget.KindReference, "/a.md", 1, 10),
				part(budget.KindPriorOutcome, "/d.md#prior", 0, 10),
				part(budget.KindCheckpoint, "1", 0, 10),
				part(budget.KindCheckpointDetail, "1", 0, 10),
				task,
			},
			budget: 10,
			kept:   []string{"task"},
			cut: []taskcontext.Cut{
				dropped(budget.KindCheckpointDetail, "1", 10),
				dropped(budget.KindCheckpoint, "1", 10),
				dropped(budget.KindPriorOutcome, "/d.md#prior", 10),
				dropped(budget.KindReference, "/a.md", 10),
				dropped(budget.KindDependencyOutcome, "/d.md#dep", 10),
				dropped(budget.KindMainWorkflow, "orchestrate", 10),
				dropped(budget.KindWorkflow, "tdd", 10),
				dropped(budget.KindPlanSummary, "plan", 10),
			},
		},
		{
			name: "it stops as soon as the rest fits",
			parts: []budget.Part{
				task,
				part(budget.KindWorkflow, "tdd", 0, 10),
				part(budget.KindCheckpoint, "2", 0, 10),
				part(budget.KindCheckpointDetail, "2", 0, 10),
			},
			budget: 25,
			kept:   []string{"task", "tdd"},
			cut: []taskcontext.Cut{
				dropped(budget.KindCheckpointDetail, "2", 10),
				dropped(budget.KindCheckpoint, "2", 10),
			},
		},
		{
			name: "all details before any checkpoint, older first",
			parts: []budget.Part{
				task,
				part(budget.KindCheckpoint, "3", 0, 10), part(budget.KindCheckpointDetail, "3", 0, 10),
				part(budget.KindCheckpoint, "2", 1, 10), part(budget.KindCheckpointDetail, "2", 1, 10),
				part(budget.KindCheckpoint, "1", 2, 10), part(budget.KindCheckpointDetail, "1", 2, 10),
			},
			budget: 30,
			kept:   []string{"task", "3", "2"},
			cut: []taskcontext.Cut{
				dropped(budget.KindCheckpointDetail, "1", 10),
				dropped(budget.KindCheckpointDetail, "2", 10),
				dropped(budget.KindCheckpointDetail, "3", 10),
				dropped(budget.KindCheckpoint, "1", 10),
			},
		},
		{
			name: "references deepest first, then the later of one depth",
			parts: []budget.Part{
				task,
				part(budget.KindReference, "/a.md", 1, 10),
				part(budget.KindReference, "/a2.md", 2, 10),
				part(budget.KindReference, "/b.md", 1, 10),
				part(budget.KindReference, "/a3.md", 3, 10),
			},
			budget: 20,
			kept:   []string{"task", "/a.md"},
			cut: []taskcontext.Cut{
				dropped(budget.KindReference, "/a3.md", 10),
				dropped(budget.KindReference, "/a2.md", 10),
				dropped(budget.KindReference, "/b.md", 10),
			},
		},
		{
			name: "a kind Fit does not know goes first",
			parts: []budget.Part{
				task,
				part(budget.KindCheckpointDetail, "1", 0, 10),
				part("note", "n", 0, 10),
			},
			budget: 20,
			kept:   []string{"task", "1"},
			cut:    []taskcontext.Cut{dropped("note", "n", 10)},
		},
		{
			name:   "an empty part costs nothing and is never cut",
			parts:  []budget.Part{task, part(budget.KindCheckpointDetail, "1", 0, 0), part(budget.KindReference, "/a.md", 1, 10)},
			budget: 10,
			kept:   []string{"task", "1"},
			cut:    []taskcontext.Cut{dropped(budget.KindReference, "/a.md", 10)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := slices.Clone(tc.parts)
			kept, cut := budget.Fit(tc.parts, tc.budget, perByte)
			assert.Equal(t, tc.kept, names(kept))
			assert.Equal(t, tc.cut, cut)
			assert.Equal(t, before, tc.parts, "Fit changed its input")
		})
	}
}

func TestFitShortens(t *testing.T) {
	mark := len(taskcontext.TruncationMark)
	task := budget.Part{Kind: budget.KindTask, Name: "task", Text: x(10)}
	ref := budget.Part{Kind: budget.KindReference, Name: "/a.md", Text: x(200), Rank: 1, Shorten: true}

	t.Run("the part that meets the budget is shortened", func(t *testing.T) {
		kept, cut := budget.Fit([]budget.Part{task, ref}, 160, perByte)
		require.Len(t, kept, 2)
		assert.Equal(t, x(150-mark)+taskcontext.TruncationMark, kept[1].Text)
		assert.Equal(t, []taskcontext.Cut{{Kind: budget.KindReference, Name: "/a.md", Tokens: 50, Shortened: true}}, cut)
	})
	t.Run("only that one: the parts before it in drop order are dropped", func(t *testing.T) {
		detail := budget.Part{Kind: budget.KindCheckpointDetail, Name: "1", Text: x(100), Shorten: true}
		kept, cut := budget.Fit([]budget.Part{task, ref, detail}, 160, perByte)
		assert.Equal(t, []string{"task", "/a.md"}, names(kept))
		assert.Equal(t, []taskcontext.Cut{
			{Kind: budget.KindCheckpointDetail, Name: "1", Tokens: 100},
			{Kind: budget.KindReference, Name: "/a.md", Tokens: 50, Shortened: true},
		}, cut)
	})
	t.Run("too little would be left: dropped", func(t *testing.T) {
		kept, cut := budget.Fit([]budget.Part{task, ref}, 10+31, perByte)
		assert.Equal(t, []string{"task"}, names(kept))
		assert.Equal(t, []taskcontext.Cut{{Kind: budget.KindReference, Name: "/a.md", Tokens: 200}}, cut)
	})
	t.Run("a part without Shorten is dropped", func(t *testing.T) {
		whole := ref
		whole.Shorten = false
		kept, _ := budget.Fit([]budget.Part{task, whole}, 160, perByte)
		assert.Equal(t, []string{"task"}, names(kept))
	})
	t.Run("the task alone over the budget is cut to it", func(t *testing.T) {
		big := budget.Part{Kind: budget.KindTask, Name: "task", Text: x(500)}
		kept, cut := budget.Fit([]budget.Part{ref, big}, 100, perByte)
		require.Len(t, kept, 1)
		assert.Equal(t, x(100-mark)+taskcontext.TruncationMark, kept[0].Text)
		assert.Equal(t, []taskcontext.Cut{
			{Kind: budget.KindReference, Name: "/a.md", Tokens: 200},
			{Kind: budget.KindTask, Name: "task", Tokens: 400, Shortened: true},
		}, cut)
	})
	t.Run("a budget below the mark keeps the task empty", func(t *testing.T) {
		kept, cut := budget.Fit([]budget.Part{task}, 5, perByte)
		assert.Equal(t, []budget.Part{{Kind: budget.KindTask, Name: "task"}}, kept)
		assert.Equal(t, []taskcontext.Cut{{Kind: budget.KindTask, Name: "task", Tokens: 10, Shortened: true}}, cut)
	})
	t.Run("cut at a character boundary", func(t *testing.T) {
		doc := budget.Part{Kind: budget.KindReference, Name: "/j.md", Text: strings.Repeat("日本", 100), Shorten: true}
		kept, _ := budget.Fit([]budget.Part{doc}, 100+mark, perByte)
		require.Len(t, kept, 1)
		assert.True(t, utf8.ValidString(kept[0].Text))
		assert.Equal(t, strings.Repeat("日本", 16)+"日"+taskcontext.TruncationMark, kept[0].Text) // 99 bytes
	})
}

func TestFitDefaults(t *testing.T) {
	task := budget.Part{Kind: budget.KindTask, Name: "task", Text: "do it"}
	ref := budget.Part{Kind: budget.KindReference, Name: "/a.md", Text: x(4 * taskcontext.DefaultBudget)}
	kept, cut := budget.Fit([]budget.Part{task, ref}, 0, nil)
	assert.Equal(t, []string{"task"}, names(kept))
	assert.Equal(t, []taskcontext.Cut{{Kind: budget.KindReference, Name: "/a.md", Tokens: taskcontext.DefaultBudget}}, cut)

	ref.Text = x(4*taskcontext.DefaultBudget - 8) // 7998 tokens, and 2 for "do it"
	kept, cut = budget.Fit([]budget.Part{task, ref}, -1, nil)
	assert.Equal(t, []string{"task", "/a.md"}, names(kept))
	assert.Empty(t, cut)
}

func TestFitHonoursTheEstimator(t *testing.T) {
	task := budget.Part{Kind: budget.KindTask, Name: "task", Text: "t"}
	doc := budget.Part{Kind: budget.KindReference, Name: "/j.md", Text: strings.Repeat("日", 200)} // 600 bytes, 200 runes

	kept, cut := budget.Fit([]budget.Part{task, doc}, 160, taskcontext.DefaultEstimator)
	assert.Equal(t, []string{"task", "/j.md"}, names(kept), "150 tokens by bytes")
	assert.Empty(t, cut)

	kept, cut = budget.Fit([]budget.Part{task, doc}, 160, perRune)
	assert.Equal(t, []string{"task"}, names(kept))
	assert.Equal(t, []taskcontext.Cut{{Kind: budget.KindReference, Name: "/j.md", Tokens: 200}}, cut)
}

// TestFitProperties checks, over random parts and budgets, what Fit
// promises: the kept parts fit, the task is kept, every part is kept,
// shortened or dropped exactly as the cut report says, the cuts follow
// the drop order and stop as soon as the rest fits, and the result is the
// same every time.
func TestFitProperties(t *testing.T) {
	kinds := []budget.Kind{"other",
		budget.KindCheckpointDetail, budget.KindCheckpoint, budget.KindPriorOutcome,
		budget.KindReference, budget.KindDependencyOutcome, budget.KindMainWorkflow,
		budget.KindWorkflow, budget.KindPlanSummary, budget.KindTask}
	vocabulary := []string{"a", "token", "budget", "日本語", "é", "context", "\n", "  ", "checkpoint"}
	rng := rand.New(rand.NewPCG(2026, 11))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(rng.IntN(400) + 1) {
			b.WriteString(vocabulary[rng.IntN(len(vocabulary))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	for c := range 3000 {
		estimators := []struct {
			name string
			fn   taskcontext.Estimator
		}{{"default", taskcontext.DefaultEstimator}, {"runes", perRune}}
		est := estimators[c%2]
		n := rng.IntN(40)
		parts := make([]budget.Part, n+1)
		for i := range parts {
			parts[i] = budget.Part{Kind: kinds[rng.IntN(len(kinds)-1)], Name: fmt.Sprint("p", i),
				Text: text(), Rank: rng.IntN(6), Shorten: rng.IntN(2) == 0}
		}
		taskAt := rng.IntN(n + 1)
		parts[taskAt].Kind = budget.KindTask
		limit := 1 + rng.IntN(rng.IntN(3000)+1)
		cost := func(s string) int {
			if s == "" {
				return 0
			}
			return est.fn(s)
		}

		kept, cut := budget.Fit(parts, limit, est.fn)
		desc := fmt.Sprintf("case %d (%s estimator, budget %d, %d parts)", c, est.name, limit, len(parts))

		total := 0
		for _, p := range kept {
			total += cost(p.Text)
		}
		require.LessOrEqual(t, total, limit, desc)
		byName := map[string]budget.Part{}
		for _, p := range kept {
			byName[p.Name] = p
		}
		require.Contains(t, byName, parts[taskAt].Name, desc)
		require.Equal(t, budget.KindTask, byName[parts[taskAt].Name].Kind, desc)

		// Every part is untouched, shortened or dropped, as the cuts say.
		cuts := map[string]taskcontext.Cut{}
		for _, ct := range cut {
			require.NotContains(t, cuts, ct.Name, desc)
			cuts[ct.Name] = ct
		}
		var keptNames []string
		for _, p := range parts {
			got, isKept := byName[p.Name]
			ct, isCut := cuts[p.Name]
			switch {
			case !isCut:
				require.True(t, isKept, desc)
				require.Equal(t, p, got, desc)
			case ct.Shortened:
				require.True(t, isKept, desc)
				require.True(t, p.Shorten || p.Kind == budget.KindTask, desc)
				prefix, ok := strings.CutSuffix(got.Text, taskcontext.TruncationMark)
				require.True(t, ok || got.Text == "", desc)
				require.True(t, strings.HasPrefix(p.Text, prefix), desc)
				require.True(t, utf8.ValidString(got.Text), desc)
				require.Equal(t, cost(p.Text)-cost(got.Text), ct.Tokens, desc)
			default:
				require.False(t, isKept, desc)
				require.NotEqual(t, budget.KindTask, p.Kind, desc)
				require.Equal(t, cost(p.Text), ct.Tokens, desc)
			}
			if isKept {
				keptNames = append(keptNames, p.Name)
			}
		}
		require.Equal(t, keptNames, names(kept), "kept in input order: "+desc)

		// The cuts are the first parts of the drop order, and the last one
		// was needed.
		order := make([]int, len(parts))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(slices.Index(kinds, parts[a].Kind), slices.Index(kinds, parts[b].Kind)),
				cmp.Compare(parts[b].Rank, parts[a].Rank), cmp.Compare(b, a))
		})
		var sequence []string
		for _, i := range order {
			if parts[i].Text != "" {
				sequence = append(sequence, parts[i].Name)
			}
		}
		require.LessOrEqual(t, len(cut), len(sequence), desc)
		for i, ct := range cut {
			require.Equal(t, sequence[i], ct.Name, desc)
		}
		if len(cut) > 0 && cut[len(cut)-1].Kind != budget.KindTask {
			require.Greater(t, total+cut[len(cut)-1].Tokens, limit, "cut more than needed: "+desc)
		}

		again, againCut := budget.Fit(parts, limit, est.fn)
		require.Equal(t, kept, again, desc)
		require.Equal(t, cut, againCut, desc)
	}
}

// BenchmarkFit fits a recovering agent's context: a task, its workflow,
// ten references and a hundred checkpoints with details, about 45,000
// tokens, to the default budget.
func BenchmarkFit(b *testing.B) {
	prose := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n", 60)
	parts := []budget.Part{
		{Kind: budget.KindTask, Name: "/api/auth.md#sign", Text: "Sign tokens\n\n- Status: in-progress\n\n" + prose[:800]},
		{Kind: budget.KindWorkflow, Name: "tdd", Text: prose, Shorten: true},
	}
	for i := range 10 {
		parts = append(parts, budget.Part{Kind: budget.KindReference, Name: fmt.Sprintf("/specs/%d.md", i),
			Text: prose, Rank: 1 + i%3, Shorten: true})
	}
	for age := range 100 {
		name := fmt.Sprint(100 - age)
		parts = append(parts,
			budget.Part{Kind: budget.KindCheckpoint, Name: name, Rank: age,
				Text: name + " · progress · 2026-11-23T10:00:00Z · worker-1\nInstalled the dependencies\nFiles: go.mod, go.sum"},
			budget.Part{Kind: budget.KindCheckpointDetail, Name: name, Rank: age, Text: prose[:1200], Shorten: true})
	}
	kept, cut := budget.Fit(parts, taskcontext.DefaultBudget, nil)
	require.NotEmpty(b, cut)
	require.Equal(b, budget.KindTask, kept[0].Kind)

	b.ReportAllocs()
	for b.Loop() {
		budget.Fit(parts, taskcontext.DefaultBudget, nil)
	}
}

func names(parts []budget.Part) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p.Name)
	}
	return out
}

func ExampleFit() {
	parts := []budget.Part{
		{Kind: budget.KindTask, Name: "/api/auth.md#sign", Text: "Sign tokens with RS256."},
		{Kind: budget.KindWorkflow, Name: "tdd", Text: strings.Repeat("Red, green, refactor. ", 20), Shorten: true},
		{Kind: budget.KindCheckpoint, Name: "2", Text: "2 · progress\nKeys load from the vault", Rank: 0},
		{Kind: budget.KindCheckpoint, Name: "1", Text: "1 · plan\nSign with RS256", Rank: 1},
	}
	kept, cut := budget.Fit(parts, 80, taskcontext.DefaultEstimator)
	for _, p := range kept {
		fmt.Printf("kept %s %s\n", p.Kind, p.Name)
	}
	for _, c := range cut {
		fmt.Printf("cut %s %s: %d tokens (shortened: %t)\n", c.Kind, c.Name, c.Tokens, c.Shortened)
	}
	// Output:
	// kept task /api/auth.md#sign
	// kept workflow tdd
	// cut checkpoint 1: 7 tokens (shortened: false)
	// cut checkpoint 2: 10 tokens (shortened: false)
	// cut workflow tdd: 36 tokens (shortened: true)
}
