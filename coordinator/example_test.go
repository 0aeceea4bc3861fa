package coordinator_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// exampleWorkspace makes a workspace with one workflow; the caller removes
// the directory.
func exampleWorkspace() (*workspace.Workspace, string) {
	root, err := os.MkdirTemp("", "coordinator-example")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "workflows"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "workflows", "tdd.md"), []byte("Red, green, refactor.\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	return ws, root
}

// A coordinator session: create the list, start, complete until the list
// archives itself.
func Example() {
	ws, root := exampleWorkspace()
	defer os.RemoveAll(root)
	defer ws.Close()
	ctx := context.Background()
	clock := func() time.Time { return time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC) }
	list := coordinator.New(ws, coordinator.WithClock(clock))

	_, err := list.Create(ctx,
		taskdoc.NewTask{Title: "Design the API", Content: "- Status: pending\n- Main-Workflow: tdd\n\nSketch the endpoints."},
		taskdoc.NewTask{Title: "Build it", Content: "- Status: pending\n\nImplement the endpoints."},
	)
	if err != nil {
		log.Fatal(err)
	}
	st, err := list.Start(ctx, coordinator.StartOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("working on %q with %s: %s\n", st.Task.Title, st.MainWorkflow.Name, strings.TrimSpace(st.MainWorkflow.Content))

	done, err := list.Complete(ctx, "Endpoints sketched.", coordinator.CompleteOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("next: %q (%s)\n", done.Next.Task.Title, done.Next.Task.Status)

	done, err = list.Complete(ctx, "Endpoints built.", coordinator.CompleteOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("archived to", done.ArchivedTo)
	// Output:
	// working on "Design the API" with tdd: Red, green, refactor.
	// next: "Build it" (in_progress)
	// archived to archived/coordinator/active-2026-11-22-093000.md
}

// After a context compression the caller asks for the full context again.
func ExampleList_Start_fullContext() {
	ws, root := exampleWorkspace()
	defer os.RemoveAll(root)
	defer ws.Close()
	ctx := context.Background()
	list := coordinator.New(ws)
	if _, err := list.Create(ctx, taskdoc.NewTask{Title: "Plan", Content: "- Main-Workflow: tdd"}); err != nil {
		log.Fatal(err)
	}
	for _, opt := range []coordinator.StartOptions{{}, {}, {FullContext: true}} {
		st, err := list.Start(ctx, opt)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s, full context %v: main workflow included: %v\n", st.Task.Slug, opt.FullContext, st.MainWorkflow != nil)
	}
	// Output:
	// plan, full context false: main workflow included: true
	// plan, full context false: main workflow included: false
	// plan, full context true: main workflow included: true
}

// The first task of a list must name the list's Main-Workflow.
func ExampleList_Create_mainWorkflowRequired() {
	ws, root := exampleWorkspace()
	defer os.RemoveAll(root)
	defer ws.Close()
	_, err := coordinator.New(ws).Create(context.Background(), taskdoc.NewTask{Title: "Plan", Content: "- Status: pending"})
	fmt.Println(taskdoc.CodeOf(err))
	// Output:
	// MAIN_WORKFLOW_REQUIRED
}

func ExampleCheckSequential() {
	fmt.Println(taskdoc.CodeOf(coordinator.CheckSequential("/coordinator/active.md#plan")))
	fmt.Println(coordinator.CheckSequential("/coordinator/active.md") == nil)
	// Output:
	// COORDINATOR_NO_SLUG_ALLOWED
	// true
}
