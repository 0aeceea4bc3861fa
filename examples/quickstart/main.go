// Quickstart runs both taskmd task systems on a fresh workspace and prints
// each step and the files it leaves:
//
//   - the coordinator's sequential list (create three tasks, start, resume
//     after a context compression, complete them one after the other until
//     the list archives itself), and
//   - subagent tasks in /api/authentication.md, started and completed by
//     address, in an order of the caller's choosing.
//
// Usage:
//
//	go run ./examples/quickstart [-root DIR]
//
// Without -root it works in a temporary directory, says so on its first
// line, and removes it at the end (the files are printed before); with
// -root it uses DIR (created if needed, which must be empty) and keeps it,
// to be looked at or used with other tools afterwards. One step is refused
// on purpose (a subagent start without #slug) and printed as expected. It
// exits with status 1 if any step fails or returns something unexpected.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/taskmd/taskmd/workspace"
)

func main() {
	root := flag.String("root", "", "workspace `directory` to create and keep (default: a temporary one, removed afterwards)")
	flag.Parse()
	if err := run(context.Background(), *root, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// run prepares the workspace at root (a temporary one when root is ""),
// runs both scenarios and prints the files.
func run(ctx context.Context, root string, out io.Writer) error {
	if root == "" {
		tmp, err := os.MkdirTemp("", "taskmd-quickstart-")
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "workspace %s (a temporary folder, removed at the end; -root DIR keeps the workspace)\n", tmp)
		err = scenarios(ctx, tmp, out)
		if rerr := os.RemoveAll(tmp); err == nil {
			err = rerr
		}
		if err == nil {
			fmt.Fprintf(out, "\nremoved the temporary workspace %s; run with -root DIR to keep one\n", tmp)
		}
		return err
	}
	if err := emptyDir(root); err != nil {
		return err
	}
	fmt.Fprintf(out, "workspace %s (kept after the run)\n", root)
	return scenarios(ctx, root, out)
}

// scenarios writes the starting files into root, runs both scenarios and
// prints the files.
func scenarios(ctx context.Context, root string, out io.Writer) error {
	if err := writeFiles(root, startingFiles); err != nil {
		return err
	}
	ws, err := workspace.Open(root)
	if err != nil {
		return err
	}
	defer ws.Close()
	if err := coordinatorScenario(ctx, ws, out); err != nil {
		return fmt.Errorf("scenario 1 (coordinator): %w", err)
	}
	if err := subagentScenario(ctx, ws, out); err != nil {
		return fmt.Errorf("scenario 2 (subagent): %w", err)
	}
	return printFiles(root, out)
}

// emptyDir creates dir, or checks that it is empty: the scenarios create
// their tasks afresh and would collide with an earlier run's.
func emptyDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("-root %s is not empty; give a new or empty directory", dir)
	}
	return nil
}

// writeFiles writes the workflows and specifications the tasks refer to.
func writeFiles(root string, files map[string]string) error {
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// printFiles prints every file the scenarios changed or created, skipping
// the library's lock files under .taskmd/ and the files written above.
func printFiles(root string, out io.Writer) error {
	fmt.Fprintf(out, "\n== files ==\n")
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		switch {
		case d.IsDir() && name == ".taskmd":
			return filepath.SkipDir
		case d.IsDir():
			return nil
		}
		if _, given := startingFiles[name]; given {
			fmt.Fprintf(out, "\n--- %s (as written at the start)\n", name)
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "\n--- %s\n%s", name, data)
		return nil
	})
}

// check turns an unexpected result into an error, so that the example
// doubles as a smoke test of the library.
func check(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return errors.New("unexpected: " + fmt.Sprintf(format, args...))
}
