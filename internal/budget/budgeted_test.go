package budget_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/budget"
	"github.com/taskmd/taskmd/taskcontext"
)

func TestBudgeted(t *testing.T) {
	task := parseTask(t, "- Status: in-progress\n\nSign with RS256.\n")
	loaded := &taskcontext.Context{
		MainWorkflow: &taskcontext.Workflow{Name: "orchestrate", Content: "# Orchestrate\n"},
		Workflow:     &taskcontext.Workflow{Name: "tdd", Content: "# TDD\n"},
		References: []taskcontext.LoadedDocument{
			{Path: "/a.md", Content: "# A\n", Depth: 1, Children: []taskcontext.LoadedDocument{{Path: "/b.md", Content: "# B\n", Depth: 2}}},
			{Path: "/spec.md#tokens", Content: "## Tokens\n", Depth: 1},
		},
	}
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	m := budget.Material{
		Task: task, Address: "/api/auth.md#do-it", PlanSummary: "Auth for the API.",
		Checkpoints: []budget.Checkpoint{ // newest first
			{Sequence: 2, Type: "decision", Time: at, Agent: "worker-1", Summary: "Chose JWT", FilesChanged: []string{"jwt.go", "jwt_test.go"}, Detail: `{"why": "stateless"}`},
			{Sequence: 1, Type: "plan", Summary: "Sign with RS256"},
		},
		Dependencies: []budget.Outcome{{Task: "/api/auth.md#setup", Text: "OAuth set up"}},
		Prior:        []budget.Outcome{{Task: "/api/auth.md#b", Text: "B done"}, {Task: "/api/auth.md#a", Text: "A done"}},
	}

	all, cut := budget.Budgeted(loaded, m, 1_000_000, nil)
	assert.Empty(t, cut)
	assert.Equal(t, []budget.Part{
		{Kind: budget.KindTask, Name: "/api/auth.md#do-it", Text: "Do it\n\n- Status: in-progress\n\nSign with RS256."},
		{Kind: budget.KindPlanSummary, Name: "plan", Text: "Auth for the API.", Shorten: true},
		{Kind: budget.KindMainWorkflow, Name: "orchestrate", Text: "# Orchestrate\n", Shorten: true},
		{Kind: budget.KindWorkflow, Name: "tdd", Text: "# TDD\n", Shorten: true},
		{Kind: budget.KindReference, Name: "/a.md", Text: "# A\n", Rank: 1, Shorten: true},
		{Kind: budget.KindReference, Name: "/b.md", Text: "# B\n", Rank: 2, Shorten: true},
		{Kind: budget.KindReference, Name: "/spec.md#tokens", Text: "## Tokens\n", Rank: 1, Shorten: true},
		{Kind: budget.KindDependencyOutcome, Name: "/api/auth.md#setup", Text: "OAuth set up", Shorten: true},
		{Kind: budget.KindPriorOutcome, Name: "/api/auth.md#b", Text: "B done", Shorten: true},
		{Kind: budget.KindPriorOutcome, Name: "/api/auth.md#a", Text: "A done", Rank: 1, Shorten: true},
		{Kind: budget.KindCheckpoint, Name: "2", Text: "2 · decision · 2026-11-23T10:00:00Z · worker-1\nChose JWT\nFiles: jwt.go, jwt_test.go"},
		{Kind: budget.KindCheckpointDetail, Name: "2", Text: `{"why": "stateless"}`, Shorten: true},
		{Kind: budget.KindCheckpoint, Name: "1", Text: "1 · plan\nSign with RS256", Rank: 1},
	}, all)

	t.Run("over the budget, the oldest checkpoints go first", func(t *testing.T) {
		total := 0
		for _, p := range all {
			total += perByte(p.Text)
		}
		kept, cut := budget.Budgeted(loaded, m, total-1, perByte)
		assert.Len(t, kept, len(all)-1)
		assert.Equal(t, []taskcontext.Cut{{Kind: budget.KindCheckpointDetail, Name: "2", Tokens: len(`{"why": "stateless"}`)}}, cut)

		kept, cut = budget.Budgeted(loaded, m, total-len(`{"why": "stateless"}`)-1, perByte)
		assert.Len(t, kept, len(all)-2)
		require.Len(t, cut, 2)
		assert.Equal(t, taskcontext.Cut{Kind: budget.KindCheckpoint, Name: "1", Tokens: len("1 · plan\nSign with RS256")}, cut[1])
	})
	t.Run("nothing loaded: the task and what m gives", func(t *testing.T) {
		kept, cut := budget.Budgeted(nil, budget.Material{Task: task, Address: "t"}, 0, nil)
		assert.Empty(t, cut)
		assert.Equal(t, []string{"t"}, names(kept))
	})
	t.Run("a large task alone is cut to the budget", func(t *testing.T) {
		big := parseTask(t, strings.Repeat("word ", 1000))
		kept, cut := budget.Budgeted(loaded, budget.Material{Task: big, Address: "t"}, 100, nil)
		require.Equal(t, []string{"t"}, names(kept))
		assert.LessOrEqual(t, taskcontext.DefaultEstimator(kept[0].Text), 100)
		assert.True(t, strings.HasSuffix(kept[0].Text, taskcontext.TruncationMark))
		assert.Equal(t, taskcontext.Cut{Kind: budget.KindTask, Name: "t", Tokens: taskcontext.DefaultEstimator("Do it\n\n"+big.Body) - taskcontext.DefaultEstimator(kept[0].Text), Shortened: true}, cut[len(cut)-1])
	})
}
