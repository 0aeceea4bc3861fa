package taskdoc_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
)

const authDoc = `# Authentication

Notes for the auth work.

## Tasks

### Implement JWT signing

- Status: pending
- Workflow: tdd-incremental-orchestration

Implement token signing logic.

@/specs/jwt-spec.md

### Add token validation

- Status: in_progress

Validate tokens in middleware.
`

func ExampleParse() {
	doc, err := taskdoc.Parse([]byte(authDoc))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range doc.Tasks {
		workflow, _ := t.Field("workflow") // keys are case-insensitive
		fmt.Printf("%s [%s] workflow=%q refs=%d\n", t.Slug, t.Status, workflow, len(t.References))
	}
	// Output:
	// implement-jwt-signing [pending] workflow="tdd-incremental-orchestration" refs=1
	// add-token-validation [in_progress] workflow="" refs=0
}

func ExampleDocument_Complete() {
	doc, err := taskdoc.Parse([]byte(authDoc))
	if err != nil {
		fmt.Println(err)
		return
	}
	date := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	doc, task, err := doc.Complete("add-token-validation", "Middleware checks exp and aud.", date)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Only the task's metadata list changed; every other byte is as it
	// was. The edit returns the new document and the task as it reads
	// there: no parse of the result is needed.
	fmt.Print(string(doc.Source[task.Span.Start:task.Span.End]))

	// Completing twice is an error, not a second note.
	_, _, err = doc.Complete("add-token-validation", "again", date)
	fmt.Println(errors.Is(err, taskdoc.ErrInvalidTransition))
	// Output:
	// ### Add token validation
	//
	// - Status: completed
	// - Completed: 2026-11-23
	// - Note: Middleware checks exp and aud.
	//
	// Validate tokens in middleware.
	// true
}

func ExampleDocument_Task() {
	doc, _ := taskdoc.Parse([]byte(authDoc))
	_, err := doc.Task("rotate-keys")
	var e *taskdoc.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code)
		fmt.Println(e.Available)
	}
	// Output:
	// TASK_NOT_FOUND
	// [implement-jwt-signing add-token-validation]
}

func ExampleParseAddress() {
	addr, err := taskdoc.ParseAddress("/api/authentication.md#implement-jwt-signing")
	fmt.Println(addr.Path, addr.Slug, err)

	_, err = taskdoc.ParseAddress("/../etc/passwd.md")
	fmt.Println(taskdoc.CodeOf(err))
	// Output:
	// /api/authentication.md implement-jwt-signing <nil>
	// INVALID_ADDRESS
}

func ExampleSlug() {
	fmt.Println(taskdoc.Slug("Add API: auth & tokens!"))
	fmt.Println(taskdoc.Slug("Café Über"))
	// Output:
	// add-api-auth--tokens
	// café-über
}
