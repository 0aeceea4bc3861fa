package subagent_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// exampleWorkspace opens a fresh workspace holding a workflow and a
// specification; the caller removes root.
func exampleWorkspace() (ws *workspace.Workspace, root string) {
	root, err := os.MkdirTemp("", "taskmd-example-")
	if err != nil {
		log.Fatal(err)
	}
	for name, content := range map[string]string{
		"workflows/tdd-incremental-orchestration.md": "# TDD incremental orchestration\n\nRed, green, refactor.\n",
		"docs/specs/jwt-spec.md":                     "# JWT spec\n\nSign with RS256.\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	ws, err = workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	return ws, root
}

// A coordinator plans work in a document; subagents take tasks from it by
// address, in any order.
func Example() {
	ws, root := exampleWorkspace()
	defer os.RemoveAll(root)
	defer ws.Close()
	ctx := context.Background()
	tasks := subagent.New(ws, subagent.WithClock(func() time.Time {
		return time.Date(2025, 10, 14, 15, 30, 45, 0, time.UTC)
	}))

	_, err := tasks.Create(ctx, "/api/authentication.md",
		taskdoc.NewTask{Title: "Implement JWT signing", Content: "- Status: pending\n- Workflow: tdd-incremental-orchestration\n\nImplement token signing logic\n\n@/specs/jwt-spec.md"},
		taskdoc.NewTask{Title: "Add token validation", Content: "- Status: pending\n\nValidate tokens in middleware"},
	)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := tasks.Start(ctx, "/api/authentication.md#implement-jwt-signing"); err != nil {
		log.Fatal(err)
	}
	if _, err := tasks.Complete(ctx, "/api/authentication.md#implement-jwt-signing", "Signing uses RS256"); err != nil {
		log.Fatal(err)
	}

	doc, err := os.ReadFile(filepath.Join(root, "docs/api/authentication.md"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(doc))
	// Output:
	// # Authentication
	//
	// ## Tasks
	//
	// ### Implement JWT signing
	//
	// - Status: completed
	// - Workflow: tdd-incremental-orchestration
	// - Completed: 2025-10-14
	// - Note: Signing uses RS256
	//
	// Implement token signing logic
	//
	// @/specs/jwt-spec.md
	//
	// ### Add token validation
	//
	// - Status: pending
	//
	// Validate tokens in middleware
}

// Start hands a subagent one task, with its workflow and the documents it
// references.
func ExampleTasks_Start() {
	ws, root := exampleWorkspace()
	defer os.RemoveAll(root)
	defer ws.Close()
	ctx := context.Background()
	tasks := subagent.New(ws)
	_, err := tasks.Create(ctx, "/api/authentication.md", taskdoc.NewTask{
		Title:   "Implement JWT signing",
		Content: "- Workflow: tdd-incremental-orchestration\n\nImplement token signing logic\n\n@/specs/jwt-spec.md @/specs/gone.md",
	})
	if err != nil {
		log.Fatal(err)
	}

	started, err := tasks.Start(ctx, "/api/authentication.md#implement-jwt-signing")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(started.Task.Title, "is", started.Task.Status)
	fmt.Printf("workflow %s:\n%s", started.Workflow.Name, started.Workflow.Content)
	for _, ref := range started.References {
		fmt.Printf("reference %s (%s):\n%s", ref.Path, ref.Title, ref.Content)
	}
	fmt.Println("missing:", started.Missing)

	// Without #slug there is no task to start: subagent work is ad hoc.
	_, err = tasks.Start(ctx, "/api/authentication.md")
	fmt.Println(taskdoc.CodeOf(err))
	// Output:
	// Implement JWT signing is in_progress
	// workflow tdd-incremental-orchestration:
	// # TDD incremental orchestration
	//
	// Red, green, refactor.
	// reference /specs/jwt-spec.md (JWT spec):
	// # JWT spec
	//
	// Sign with RS256.
	// missing: [@/specs/gone.md]
	// SUBAGENT_REQUIRES_SLUG
}

// Complete records the note and the date, and confirms; completing again
// is refused, so a task keeps its first note.
func ExampleTasks_Complete() {
	ws, root := exampleWorkspace()
	defer os.RemoveAll(root)
	defer ws.Close()
	ctx := context.Background()
	tasks := subagent.New(ws, subagent.WithClock(func() time.Time {
		return time.Date(2025, 10, 14, 23, 0, 0, 0, time.FixedZone("PDT", -7*3600))
	}))
	if _, err := tasks.Create(ctx, "/api/authentication.md", taskdoc.NewTask{Title: "Handle token refresh"}); err != nil {
		log.Fatal(err)
	}

	done, err := tasks.Complete(ctx, "/api/authentication.md#handle-token-refresh", "Refresh endpoint added")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(done.Task.Slug, done.Task.Status, done.Date, done.Note)

	_, err = tasks.Complete(ctx, "/api/authentication.md#handle-token-refresh", "Again")
	fmt.Println(taskdoc.CodeOf(err))
	_, err = tasks.Complete(ctx, "/api/authentication.md#handle-token-refresh", "  ")
	fmt.Println(taskdoc.CodeOf(err))
	// Output:
	// handle-token-refresh completed 2025-10-15 Refresh endpoint added
	// INVALID_TRANSITION
	// NOTE_REQUIRED
}

// List filters a document's tasks by status; View returns tasks by slug.
func ExampleTasks_List() {
	ws, root := exampleWorkspace()
	defer os.RemoveAll(root)
	defer ws.Close()
	ctx := context.Background()
	tasks := subagent.New(ws)
	_, err := tasks.Create(ctx, "/api/authentication.md",
		taskdoc.NewTask{Title: "Implement JWT signing", Content: "- Status: in_progress"},
		taskdoc.NewTask{Title: "Add token validation"},
		taskdoc.NewTask{Title: "Handle token refresh", Content: "- Status: blocked\n\nWaiting for the key store."},
	)
	if err != nil {
		log.Fatal(err)
	}

	open, err := tasks.List(ctx, "/api/authentication.md", taskdoc.StatusPending, taskdoc.StatusInProgress)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range open {
		fmt.Println(t.Slug, t.Status)
	}
	viewed, err := tasks.View(ctx, "/api/authentication.md", "handle-token-refresh")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(viewed[0].Title+":", viewed[0].Body)

	_, err = tasks.View(ctx, "/api/authentication.md", "rotate-keys")
	fmt.Println(err)
	// Output:
	// implement-jwt-signing in_progress
	// add-token-validation pending
	// Handle token refresh: Waiting for the key store.
	// task "rotate-keys" not found in /api/authentication.md; available: implement-jwt-signing, add-token-validation, handle-token-refresh
}
