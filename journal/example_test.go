package journal_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/workspace"
)

// An agent records checkpoints while it works on a task; after its context
// is cleared, it reads the whole journal back and resumes from the newest
// entry.
func Example() {
	root, err := os.MkdirTemp("", "taskmd-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	plan := filepath.Join(root, "docs", "api", "auth.md")
	if err := os.MkdirAll(filepath.Dir(plan), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(plan, []byte("# Auth\n\n## Tasks\n\n### Implement JWT signing\n\n- Status: in_progress\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()

	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	j := journal.New(ws, journal.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	const task = "/api/auth.md#implement-jwt-signing"

	if _, err := j.Add(ctx, task, journal.Entry{Agent: "worker-1", Type: journal.TypeProgress,
		Summary: "Installed the JWT library", FilesChanged: []string{"go.mod", "go.sum"}}); err != nil {
		log.Fatal(err)
	}
	now = now.Add(5 * time.Minute)
	if _, err := j.Add(ctx, task, journal.Entry{Agent: "worker-1", Type: journal.TypeDecision,
		Summary: "Chose JWT over session cookies for stateless auth",
		Detail:  `{"reason": "Better for API-first architecture"}`, Key: "req-2"}); err != nil {
		log.Fatal(err)
	}

	// After a context reset: the whole history, newest first.
	entries, err := j.List(ctx, task, journal.Query{})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		fmt.Printf("%d %s %s: %s\n", e.Sequence, e.Time.Format(time.Kitchen), e.Type, e.Summary)
	}

	file, err := os.ReadFile(filepath.Join(root, "checkpoints", "tasks", "api", "auth.md", "implement-jwt-signing.md"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\n%s", file)
	// Output:
	// 2 10:05AM decision: Chose JWT over session cookies for stateless auth
	// 1 10:00AM progress: Installed the JWT library
	//
	// # Checkpoints: /api/auth.md#implement-jwt-signing
	//
	// ## 1 · progress · 2026-11-23T10:00:00Z · worker-1
	//
	// Installed the JWT library
	//
	// - Files: `go.mod`, `go.sum`
	//
	// ## 2 · decision · 2026-11-23T10:05:00Z · worker-1
	//
	// Chose JWT over session cookies for stateless auth
	//
	// - Key: `req-2`
	//
	// ```json
	// {"reason": "Better for API-first architecture"}
	// ```
}

// A call repeated after its answer was lost (a timeout, a dropped
// connection) carries the same Key and adds nothing.
func ExampleJournal_Add_retry() {
	root, err := os.MkdirTemp("", "taskmd-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "plan.md"), []byte("## Tasks\n\n### Migrate\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	j := journal.New(ws)
	ctx := context.Background()

	e := journal.Entry{Type: journal.TypeProgress, Summary: "Migrated the users table", Key: "call-42"}
	first, err := j.Add(ctx, "/plan.md#migrate", e)
	if err != nil {
		log.Fatal(err)
	}
	retried, err := j.Add(ctx, "/plan.md#migrate", e)
	if err != nil {
		log.Fatal(err)
	}
	all, err := j.List(ctx, "/plan.md#migrate", journal.Query{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(first.Sequence, retried.Sequence, len(all))
	// Output: 1 1 1
}
