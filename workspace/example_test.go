package workspace_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

func ExampleWorkspace_Update() {
	dir, _ := os.MkdirTemp("", "taskmd-example")
	defer os.RemoveAll(dir)
	ws, err := workspace.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()

	// The function runs under the document's lock with its current
	// content; what it returns replaces the file atomically and durably.
	_, err = ws.Update(ctx, "docs/notes.md", func(cur []byte, exists bool) ([]byte, error) {
		if !exists {
			cur = []byte("# Notes\n")
		}
		return append(cur, "\n- written by the example\n"...), nil
	})
	if err != nil {
		log.Fatal(err)
	}
	data, _, err := ws.Read(ctx, "docs/notes.md")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(data))
	// Output:
	// # Notes
	//
	// - written by the example
}

func ExampleWorkspace_UpdateIf() {
	dir, _ := os.MkdirTemp("", "taskmd-example")
	defer os.RemoveAll(dir)
	ws, err := workspace.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	replace := func(s string) func([]byte, bool) ([]byte, error) {
		return func([]byte, bool) ([]byte, error) { return []byte(s), nil }
	}

	// An editor opens the file and remembers its version...
	if _, err := ws.Update(ctx, "docs/a.md", replace("# A\n")); err != nil {
		log.Fatal(err)
	}
	_, seen, err := ws.Read(ctx, "docs/a.md")
	if err != nil {
		log.Fatal(err)
	}
	// ...someone else changes it...
	if _, err := ws.Update(ctx, "docs/a.md", replace("# A, changed\n")); err != nil {
		log.Fatal(err)
	}
	// ...and saving the editor's buffer is refused instead of losing that change.
	_, err = ws.UpdateIf(ctx, "docs/a.md", seen, replace("# A, from the editor\n"))
	fmt.Println(taskdoc.CodeOf(err))
	// Output:
	// CONFLICT
}

func ExampleWorkspace_Lock() {
	dir, _ := os.MkdirTemp("", "taskmd-example")
	defer os.RemoveAll(dir)
	ws, err := workspace.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	if _, err := ws.Update(ctx, "coordinator/active.md", func([]byte, bool) ([]byte, error) {
		return []byte("# Active\n"), nil
	}); err != nil {
		log.Fatal(err)
	}

	// Move a file: the copy is durable before the original goes, so a crash
	// in between duplicates it and never loses it.
	err = ws.Lock(ctx, []string{"coordinator/active.md"}, func(tx *workspace.Tx) error {
		data, _, err := tx.Read("coordinator/active.md")
		if err != nil {
			return err
		}
		if err := tx.Create("archived/coordinator/active-1.md", data); err != nil {
			return err
		}
		return tx.Remove("coordinator/active.md")
	})
	if err != nil {
		log.Fatal(err)
	}
	names, _ := ws.List(ctx, "archived/coordinator")
	fmt.Println(names)
	// Output:
	// [archived/coordinator/active-1.md]
}

func ExampleWorkspace_Sweep() {
	dir, _ := os.MkdirTemp("", "taskmd-example")
	defer os.RemoveAll(dir)
	ws, err := workspace.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()

	// A process killed while archiving left its temporary file behind an
	// hour ago; nobody writes that archive's name again.
	folder := filepath.Join(dir, "archived", "coordinator")
	stray := filepath.Join(folder, ".tmp-0123456789abcdef-fedcba9876543210")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(stray, []byte("# Half"), 0o644); err != nil {
		log.Fatal(err)
	}
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stray, hourAgo, hourAgo); err != nil {
		log.Fatal(err)
	}

	removed, err := ws.Sweep(context.Background(), "archived")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("removed", removed)
	// Output:
	// removed 1
}
