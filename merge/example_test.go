package merge_test

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/merge"
)

func Example() {
	base := "## Tasks\n\n### Sign tokens\n\n- Status: in_progress\n\nUse RS256.\n\n### Validate tokens\n\n- Status: in_progress\n\nIn middleware.\n"
	// One branch completed the first task, another the second: lines
	// apart by four, which a line merge reads as one conflict.
	ours := strings.Replace(base, "- Status: in_progress\n\nUse", "- Status: completed\n- Note: signed\n\nUse", 1)
	theirs := strings.Replace(base, "- Status: in_progress\n\nIn", "- Status: completed\n- Note: validated\n\nIn", 1)

	r := merge.File("docs/auth.md", []byte(base), []byte(ours), []byte(theirs))
	fmt.Println("clean:", r.Clean())
	fmt.Print(string(r.Bytes))
	// Output:
	// clean: true
	// ## Tasks
	//
	// ### Sign tokens
	//
	// - Status: completed
	// - Note: signed
	//
	// Use RS256.
	//
	// ### Validate tokens
	//
	// - Status: completed
	// - Note: validated
	//
	// In middleware.
}

func ExampleTasks_conflict() {
	base := "## Tasks\n\n### Sign tokens\n\nUse RS256.\n"
	ours := "## Tasks\n\n### Sign tokens\n\nUse RS512.\n"
	theirs := "## Tasks\n\n### Sign tokens\n\nUse ES256.\n"
	r := merge.Tasks([]byte(base), []byte(ours), []byte(theirs), merge.WithLabels("HEAD", "feature"))
	fmt.Printf("%+v\n", r.Conflicts)
	fmt.Print(string(r.Bytes))
	// Output:
	// [{Task:sign-tokens Field:body Line:5}]
	// ## Tasks
	//
	// ### Sign tokens
	//
	// <<<<<<< HEAD
	// Use RS512.
	//
	// =======
	// Use ES256.
	// >>>>>>> feature
}
