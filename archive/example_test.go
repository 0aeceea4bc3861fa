package archive_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/taskmd/taskmd/archive"
	"github.com/taskmd/taskmd/workspace"
)

// Archive a coordinator list twice in the same second, then list and read
// the archives.
func Example() {
	root, err := os.MkdirTemp("", "archive-example")
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
	now := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

	for _, text := range []string{"# Coordinator Tasks\n\nfirst list\n", "# Coordinator Tasks\n\nsecond list\n"} {
		if err := os.MkdirAll(filepath.Join(root, "coordinator"), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "coordinator", "active.md"), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
		name, err := archive.Coordinator(ctx, ws, now)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("archived to", name)
	}

	entries, err := archive.List(ctx, ws)
	if err != nil {
		log.Fatal(err)
	}
	newest, err := archive.Read(ctx, ws, entries[0].Name)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("newest of %d: %s, %q\n", len(entries), entries[0].Time.Format(time.DateTime), newest[len(newest)-12:])
	// Output:
	// archived to archived/coordinator/active-2026-11-22-093000.md
	// archived to archived/coordinator/active-2026-11-22-093000-2.md
	// newest of 2: 2026-11-22 09:30:00, "second list\n"
}

// Archive a docs document by hand.
func ExampleDocument() {
	root, err := os.MkdirTemp("", "archive-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	if err := os.MkdirAll(filepath.Join(root, "docs", "api"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "api", "auth.md"), []byte("# Auth\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()

	name, err := archive.Document(context.Background(), ws, "/api/auth.md")
	if err != nil {
		log.Fatal(err)
	}
	_, err = os.Stat(filepath.Join(root, "docs", "api", "auth.md"))
	fmt.Println(name, os.IsNotExist(err))
	// Output:
	// archived/docs/api/auth.md true
}

// A crash left a finished list behind; Recover archives it.
func ExampleRecover() {
	root, err := os.MkdirTemp("", "archive-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	finished := "# Coordinator Tasks\n\n## Tasks\n\n### Plan\n\n- Status: completed\n- Main-Workflow: tdd\n- Completed: 2026-11-22\n- Note: planned\n"
	if err := os.MkdirAll(filepath.Join(root, "coordinator"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "coordinator", "active.md"), []byte(finished), 0o644); err != nil {
		log.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()

	if err := archive.Recover(ctx, ws); err != nil {
		log.Fatal(err)
	}
	entries, err := archive.List(ctx, ws)
	if err != nil {
		log.Fatal(err)
	}
	_, err = os.Stat(filepath.Join(root, "coordinator", "active.md"))
	fmt.Println(len(entries), "archive; list removed:", os.IsNotExist(err))
	// Output:
	// 1 archive; list removed: true
}
