package query_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// List the documents of a workspace with their task counts, then find the
// tasks in progress anywhere and those waiting for one task.
func Example() {
	root, err := os.MkdirTemp("", "query-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	files := map[string]string{
		"docs/api/auth.md":  "# Auth\n\n## Tasks\n\n### Setup keys\n\n- Status: in_progress\n\n### Sign tokens\n\n- Depends-On: #setup-keys\n",
		"docs/web/login.md": "# Login\n\n## Tasks\n\n### Login form\n\n- Status: in_progress\n- Depends-On: /api/auth.md#setup-keys\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()

	docs, err := query.Documents(ctx, ws)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range docs {
		fmt.Println(d.Address, d.Title, d.Tasks, "tasks,", d.Counts[taskdoc.StatusInProgress], "in progress")
	}
	busy, err := query.Find(ctx, ws, query.Filter{Statuses: []taskdoc.Status{taskdoc.StatusInProgress}})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range busy {
		fmt.Println("in progress:", m.Address)
	}
	waiting, err := query.Find(ctx, ws, query.Filter{DependsOn: "/api/auth.md#setup-keys"})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range waiting {
		fmt.Println("waits for setup-keys:", m.Address)
	}
	// Output:
	// /api/auth.md Auth 2 tasks, 1 in progress
	// /web/login.md Login 1 tasks, 1 in progress
	// in progress: /api/auth.md#setup-keys
	// in progress: /web/login.md#login-form
	// waits for setup-keys: /api/auth.md#sign-tokens
	// waits for setup-keys: /web/login.md#login-form
}
