package gitsync_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

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
