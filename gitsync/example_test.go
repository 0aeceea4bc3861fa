package gitsync_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Two machines share a plan through a remote: the second is told who
// holds the task the first claimed, and sees its completion.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "gitsync-example-")
	defer os.RemoveAll(dir)
	git := func(in string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = in, gitEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			panic(fmt.Sprintf("git %v: %s", args, out))
		}
	}
	// A remote holding one plan, and two clones of it.
	remote := filepath.Join(dir, "remote.git")
	git(dir, "init", "-q", "--bare", "-b", "main", remote)
	git(dir, "clone", "-q", remote, "seed")
	seed := filepath.Join(dir, "seed")
	os.MkdirAll(filepath.Join(seed, "docs"), 0o755)
	os.WriteFile(filepath.Join(seed, "docs", "api.md"), []byte("# API\n\n## Tasks\n\n### Sign tokens\n- Status: pending\n"), 0o644)
	git(seed, "checkout", "-q", "-b", "main")
	git(seed, "add", "-A")
	git(seed, "commit", "-q", "-m", "plan")
	git(seed, "push", "-q", "origin", "main")

	machine := func(name string) (*gitsync.Sync, string) {
		git(dir, "clone", "-q", remote, name)
		ws, _ := workspace.Open(filepath.Join(dir, name))
		plans := plan.New(ws)
		a, _ := plans.Agents().Register(ctx, agent.Registration{ID: "agent-" + name, Name: name, Runtime: "example"})
		s, err := gitsync.New(ctx, ws, plans)
		if err != nil {
			panic(err)
		}
		return s, a.ID
	}
	a, agentA := machine("a")
	b, agentB := machine("b")

	won, _ := a.Claim(ctx, "/api.md#sign-tokens", agentA)
	fmt.Println("a claims:", won.Success, "pushed:", won.Pushed)
	lost, _ := b.Claim(ctx, "/api.md#sign-tokens", agentB)
	fmt.Println("b claims:", lost.Success, "held by:", lost.AlreadyClaimedBy)

	done, _ := a.UpdateStatus(ctx, "/api.md#sign-tokens", plan.Claimant{Agent: agentA, Token: won.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "RS256, keys rotated daily."})
	fmt.Println("a completes:", done.Task.Status, "pushed:", done.Pushed)
	if _, err := b.Push(ctx); err != nil { // b merges what a pushed
		panic(err)
	}
	queued, _ := b.Queued(ctx)
	data, _ := os.ReadFile(filepath.Join(dir, "b", "docs", "api.md"))
	doc, _ := taskdoc.Parse(data)
	tk, _ := doc.Task("sign-tokens")
	fmt.Println("b sees:", tk.Status, "queued:", queued)
	// Output:
	// a claims: true pushed: true
	// b claims: false held by: agent-a
	// a completes: completed pushed: true
	// b sees: completed queued: 0
}

// A machine stops while its agent holds a task: once the lease ended (the
// agent timeout after its last heartbeat, and a quarter more for the
// clocks), another machine is offered the task and takes it over.
func ExampleSync_NextTasks() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "gitsync-example-")
	defer os.RemoveAll(dir)
	git := func(in string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = in, gitEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			panic(fmt.Sprintf("git %v: %s", args, out))
		}
	}
	remote := filepath.Join(dir, "remote.git")
	git(dir, "init", "-q", "--bare", "-b", "main", remote)
	git(dir, "clone", "-q", remote, "author")
	author := filepath.Join(dir, "author")
	os.MkdirAll(filepath.Join(author, "docs"), 0o755)
	os.WriteFile(filepath.Join(author, "docs", "api.md"), []byte("# API\n\n## Tasks\n\n### Sign tokens\n- Status: pending\n"), 0o644)
	git(author, "checkout", "-q", "-b", "main")
	git(author, "add", "-A")
	git(author, "commit", "-q", "-m", "plan")
	git(author, "push", "-q", "origin", "main")

	// Machine b's clock reads two minutes after machine a's; the agent
	// timeout, and so the lease, is one minute.
	machine := func(name string, now time.Time) (*gitsync.Sync, string) {
		git(dir, "clone", "-q", remote, name)
		ws, _ := workspace.Open(filepath.Join(dir, name))
		plans := plan.New(ws, plan.WithClock(func() time.Time { return now }), plan.WithAgentTimeout(time.Minute))
		a, _ := plans.Agents().Register(ctx, agent.Registration{ID: "agent-" + name, Name: name, Runtime: "example"})
		s, err := gitsync.New(ctx, ws, plans)
		if err != nil {
			panic(err)
		}
		return s, a.ID
	}
	a, agentA := machine("a", t0)
	b, agentB := machine("b", t0.Add(2*time.Minute))

	held, _ := a.Claim(ctx, "/api.md#sign-tokens", agentA)
	fmt.Println("a holds it with token", held.Claim.Token)
	next, _ := b.NextTasks(ctx, "/api.md", agentB)
	fmt.Println("b is offered", next[0].ID, "left by", next[0].PreviousHolder)
	took, _ := b.Claim(ctx, next[0].ID, agentB)
	fmt.Println("b takes it over from", took.Claim.TookOverFrom, "with token", took.Claim.Token)
	_, err := a.UpdateStatus(ctx, "/api.md#sign-tokens", plan.Claimant{Agent: agentA, Token: held.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	fmt.Println("a's write:", taskdoc.CodeOf(err))
	// Output:
	// a holds it with token 1
	// b is offered /api.md#sign-tokens left by agent-a
	// b takes it over from agent-a with token 2
	// a's write: STALE_CLAIM
}
