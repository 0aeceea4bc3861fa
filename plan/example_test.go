package plan_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// The lifecycle of the agent protocol: an agent registers, claims the next task of a
// plan, loads its context, records its approach and checkpoints, and
// completes the task. A second agent finds the task taken; when the first
// stops heartbeating, the second takes its next task over, and the first
// agent's late write is refused. The clock is fixed so that the output is.
func Example() {
	root, err := os.MkdirTemp("", "taskmd-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	var mu sync.Mutex
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	plans := plan.New(ws, plan.WithClock(clock))

	must(plans.Create(ctx, plan.NewPlan{Path: "/api/auth.md", Name: "Auth", Summary: "Stateless auth for the API."}))
	must(plans.SetPlan(ctx, "/api/auth.md", []plan.PlannedTask{
		{Title: "Setup OAuth", Description: "Install the provider."},
		{Title: "Implement JWT signing", DependsOn: []string{"Setup OAuth"}},
	}))
	a := must(plans.Agents().Register(ctx, agent.Registration{Name: "worker-1", Runtime: "claude_code"}))
	b := must(plans.Agents().Register(ctx, agent.Registration{Name: "worker-2", Runtime: "claude_code"}))

	next := must(plans.NextTasks(ctx, "/api/auth.md"))
	fmt.Println("next:", next[0].ID, "of", len(next))
	res := must(plans.Claim(ctx, next[0].ID, a.ID))
	fmt.Println("worker-1 claims:", res.Success, "token", res.Claim.Token)
	lost := must(plans.Claim(ctx, next[0].ID, b.ID))
	fmt.Println("worker-2 claims:", lost.Success, "held by worker-1:", lost.AlreadyClaimedBy == a.ID)

	by := plan.Claimant{Agent: a.ID, Token: res.Claim.Token}
	tc := must(plans.LoadContext(ctx, next[0].ID, plan.ContextOptions{MaxTokens: 8000}))
	fmt.Println("context:", tc.Plan.Summary, "/", tc.Tokens, "tokens")
	must(plans.SetApproach(ctx, next[0].ID, by, "Passport with the Google strategy"))
	must(plans.UpdateStatus(ctx, next[0].ID, by, plan.StatusUpdate{Status: taskdoc.StatusInProgress}))
	must(plans.AddEntry(ctx, next[0].ID, by, journal.Entry{Type: journal.TypeProgress, Summary: "provider installed"}))
	done := must(plans.UpdateStatus(ctx, next[0].ID, by, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "OAuth set up"}))
	fmt.Println("done:", done.Status)

	next = must(plans.NextTasks(ctx, "/api/auth.md"))
	res = must(plans.Claim(ctx, next[0].ID, a.ID))
	by = plan.Claimant{Agent: a.ID, Token: res.Claim.Token}
	must(plans.UpdateStatus(ctx, next[0].ID, by, plan.StatusUpdate{Status: taskdoc.StatusInProgress}))

	// worker-1 stops heartbeating; worker-2 keeps going.
	mu.Lock()
	now = now.Add(50 * time.Second)
	mu.Unlock()
	must(plans.Agents().Heartbeat(ctx, b.ID, agent.HeartbeatInfo{Status: "idle"}))
	mu.Lock()
	now = now.Add(20 * time.Second)
	mu.Unlock()
	next = must(plans.NextTasks(ctx, "/api/auth.md"))
	fmt.Println("stranded:", next[0].ID, next[0].Stranded)
	took := must(plans.Claim(ctx, next[0].ID, b.ID))
	fmt.Println("worker-2 takes over:", took.Success, "token", took.Claim.Token, "from worker-1:", took.Claim.TookOverFrom == a.ID)

	_, err = plans.UpdateStatus(ctx, next[0].ID, by, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "late"})
	fmt.Println("worker-1 late:", taskdoc.CodeOf(err))

	progress := must(plans.Progress(ctx, "/api/auth.md"))
	fmt.Println("progress:", progress.Percent, "% ;", progress.Current[0].Status, "held by worker-2:", progress.Current[0].Holder == b.ID)

	text, err := os.ReadFile(filepath.Join(root, "docs", "api", "auth.md"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(replaceIDs(string(text), a.ID, b.ID))
	// Output:
	// next: /api/auth.md#setup-oauth of 1
	// worker-1 claims: true token 1
	// worker-2 claims: false held by worker-1: true
	// context: Stateless auth for the API. / 105 tokens
	// done: completed
	// stranded: /api/auth.md#implement-jwt-signing true
	// worker-2 takes over: true token 3 from worker-1: true
	// worker-1 late: STALE_CLAIM
	// progress: 50 % ; in_progress held by worker-2: true
	// # Auth
	//
	// Stateless auth for the API.
	//
	// ## Tasks
	//
	// ### Setup OAuth
	//
	// - Status: completed
	// - Assignee: worker-1
	// - Plan: Passport with the Google strategy
	// - Completed: 2026-11-23
	// - Note: OAuth set up
	//
	// Install the provider.
	//
	// ### Implement JWT signing
	//
	// - Status: in_progress
	// - Depends-On: #setup-oauth
	// - Assignee: worker-2
}

func must[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}

// replaceIDs shows the random agent ids as the agents' names.
func replaceIDs(text, a, b string) string {
	return strings.NewReplacer(a, "worker-1", b, "worker-2").Replace(text)
}
