package taskcontext_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

func ExampleLoad() {
	root, _ := os.MkdirTemp("", "taskcontext")
	defer os.RemoveAll(root)
	for name, text := range map[string]string{
		"workflows/tdd.md":  "---\ntitle: Test-driven\n---\nRed, green, refactor.\n",
		"docs/api/auth.md":  "# Auth\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n- Workflow: tdd\n\nFollow @/specs/jwt.md#lifetime; ask @/people.md.\n",
		"docs/specs/jwt.md": "# JWT\n\n## Lifetime\n\nFifteen minutes, by @/clock.md.\n\n## Claims\n",
		"docs/clock.md":     "# Clock\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, []byte(text), 0o644)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		panic(err)
	}
	defer ws.Close()
	ctx := context.Background()

	src, _, _ := ws.Read(ctx, "docs/api/auth.md")
	doc, _ := taskdoc.Parse(src)
	task, _ := doc.Task("sign-tokens")

	tc, err := taskcontext.Load(ctx, ws, taskcontext.Request{Task: task, Depth: 2})
	if err != nil {
		panic(err) // a person has to fix a file
	}
	fmt.Printf("workflow %s: %s\n", tc.Workflow.Name, tc.Workflow.Title)
	var show func([]taskcontext.LoadedDocument)
	show = func(docs []taskcontext.LoadedDocument) {
		for _, d := range docs {
			fmt.Printf("%d %s (%s)\n", d.Depth, d.Path, d.Title)
			show(d.Children)
		}
	}
	show(tc.References)
	fmt.Println("missing:", tc.Missing)
	// Output:
	// workflow tdd: Test-driven
	// 1 /specs/jwt.md#lifetime (Lifetime)
	// 2 /clock.md (Clock)
	// missing: [@/people.md]
}
