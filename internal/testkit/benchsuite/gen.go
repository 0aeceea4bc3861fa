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
// statuses, about 700 bytes.
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

// designDoc is document i of a generated workspace of design documents:
// an overview of a few paragraphs, a list of goals, a code block and an
// open question, then six tasks in mixed statuses, each with a paragraph;
// about 3.4 KB, the size of a typical docs/ page that carries a Tasks
// section.
func designDoc(i int, extra string) []byte {
	statuses := []string{"pending", "in_progress", "completed", "blocked", "pending", "completed"}
	var b strings.Builder
	fmt.Fprintf(&b, "# Design %d: the token service of area %d\n\n", i, i%20)
	for p := range 3 {
		fmt.Fprintf(&b, "Paragraph %d of the overview of design %d. The service signs short-lived tokens for\n"+
			"the *clients* of area %d and checks them on every request; keys rotate monthly, and\n"+
			"a token signed by a retired key is refused with a clear error. See the `verify` call\n"+
			"and [the specification](../specs/jwt.md) for the details of each claim.%s\n\n", p, i, i%20, extra)
		extra = ""
	}
	b.WriteString("## Goals\n\n- Tokens that expire in minutes, not days.\n- One key set for every service.\n" +
		"- Rotation without downtime:\n  - publish the new key first,\n  - sign with it a day later,\n  - retire the old one after a week.\n\n")
	b.WriteString("## Interface\n\n```go\ntype Signer interface {\n\tSign(claims Claims) (string, error)\n\tVerify(token string) (Claims, error)\n}\n```\n\n")
	b.WriteString("## Open questions\n\n> Should a refused token say which key signed it? It helps operators and\n> tells an attacker little.\n\n")
	b.WriteString("## Tasks\n\n")
	for k, st := range statuses {
		fmt.Fprintf(&b, "### Step %d of design %d\n\n- Status: %s\n- Workflow: tdd\n", k, i, st)
		if k > 0 {
			fmt.Fprintf(&b, "- Depends-On: #step-%d-of-design-%d\n", k-1, i)
		}
		fmt.Fprintf(&b, "\nImplement step %d of the token service with its tests: the happy path, an expired\n"+
			"token, a token signed by a retired key and one with a claim missing. Update the\n"+
			"operator guide when the behaviour changes. See @/specs/jwt.md.\n\n", k)
	}
	return []byte(b.String())
}

// A docKind is the kind of document a generated workspace is made of.
type docKind struct {
	name string // in a case's name: "" for the small documents
	doc  func(i int, extra string) []byte
}

var (
	smallDocs  = docKind{"", smallDoc}
	designDocs = docKind{"design docs", designDoc}
)

// WriteWorkspace writes a workspace of n documents under root (docs/ in
// 20 folders), with the files the plans refer to.
func WriteWorkspace(root string, n int) error { return writeWorkspace(root, n, smallDocs) }

// writeWorkspace is WriteWorkspace with documents of kind.
func writeWorkspace(root string, n int, kind docKind) error {
	for i := range n {
		if err := writeFile(root, docName(i), kind.doc(i, "")); err != nil {
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
