package benchsuite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Plan is a task document of n pending tasks, each with a Workflow field,
// a paragraph and a reference, between prose sections: about 200 bytes a
// task.
func Plan(n int) []byte {
	var b strings.Builder
	b.WriteString("---\ntitle: Token service\n---\n# Token service\n\nWhat is left to build.\n\n## Tasks\n\n")
	for i := range n {
		fmt.Fprintf(&b, "### Implement step %d\n\n- Status: pending\n- Workflow: tdd\n\n", i)
		fmt.Fprintf(&b, "Implement the signing logic for step %d and test it\nagainst the vectors in the specification.\n\n@/specs/jwt.md\n\n", i)
	}
	b.WriteString("## Notes\n\nNothing else.\n")
	return []byte(b.String())
}

// Slug is the slug of task i of Plan.
func Slug(i int) string { return fmt.Sprintf("implement-step-%d", i) }

// smallDoc is document i of a generated workspace: four tasks in mixed
// statuses, about 900 bytes.
func smallDoc(i int, extra string) []byte {
	statuses := []string{"pending", "in_progress", "completed", "blocked"}
	var b strings.Builder
	fmt.Fprintf(&b, "# Document %d\n\nSome overview text about area %d.%s\n\n## Tasks\n\n", i, i%20, extra)
	for k := range 4 {
		fmt.Fprintf(&b, "### Task %d of %d\n\n- Status: %s\n- Workflow: wf-%d\n", k, i, statuses[(i+k)%4], k)
		if k > 0 {
			fmt.Fprintf(&b, "- Depends-On: #task-%d-of-%d\n", k-1, i)
		}
		fmt.Fprintf(&b, "\nImplement part %d of feature %d, with tests and docs. See @/specs/s%d.md.\n\n", k, i, i%7)
	}
	return []byte(b.String())
}

// docName is the file of document i of a generated workspace, in one of
// 20 folders.
func docName(i int) string { return fmt.Sprintf("docs/area-%02d/doc-%05d.md", i%20, i) }

// WriteWorkspace writes a workspace of n documents under root (docs/ in
// 20 folders), with the files the plans refer to.
func WriteWorkspace(root string, n int) error {
	for i := range n {
		if err := writeFile(root, docName(i), smallDoc(i, "")); err != nil {
			return err
		}
	}
	return writeSupport(root)
}

// Support are the files Plan refers to, by name: its workflow and its
// specification.
var Support = map[string]string{
	"workflows/tdd.md":  "# TDD\n\nRed, green, refactor.\n",
	"docs/specs/jwt.md": "# JWT\n\nRS256.\n",
}

// writeSupport writes Support under root.
func writeSupport(root string) error {
	for name, content := range Support {
		if err := writeFile(root, name, []byte(content)); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(root, name string, data []byte) error {
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// Cycle runs op on the items 0, 1, ... n-1 of a generated workspace in
// turn for as long as b runs, calling reset off the clock each time all n
// were used (a task completed stays completed until the plan is written
// again). op's error fails the benchmark.
func Cycle(b *testing.B, n int, reset func(), op func(i int) error) {
	i := 0
	for b.Loop() {
		if i == n {
			b.StopTimer()
			reset()
			i = 0
			b.StartTimer()
		}
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
