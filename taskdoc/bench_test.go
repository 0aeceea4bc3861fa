package taskdoc_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/floor"
	"github.com/taskmd/taskmd/taskdoc"
)

// benchSizes are the task counts of the generated documents.
var benchSizes = []int{10, 100, 1000}

var benchStatuses = []string{"completed", "in_progress", "pending", "blocked"}

// benchDocument generates a realistic task document with n tasks: front
// matter, prose sections around the Tasks section, and tasks with two or
// three metadata fields and a paragraph body, at about 50 bytes a line.
// The task in the middle (benchSlug(n)) is pending.
func benchDocument(n int) []byte {
	var b bytes.Buffer
	b.WriteString("---\ntitle: Authentication service\nowner: platform-team\ntags: [auth, tokens]\n---\n")
	b.WriteString("# Authentication\n\n")
	b.WriteString("This document describes the token service and the\n" +
		"work that is left before it can ship to production.\n" +
		"Keep it next to the specs and update it with code.\n\n")
	b.WriteString("## Overview\n\n")
	b.WriteString("Tokens are signed with rotating keys held in the\n" +
		"vault; services validate them in shared middleware.\n\n" +
		"```go\n// a fenced block with a fake heading:\n### not a task\n```\n\n" +
		"| key      | rotation | owner         |\n" +
		"|----------|----------|---------------|\n" +
		"| signing  | daily    | platform-team |\n\n")
	b.WriteString("## Tasks\n\n")
	for i := range n {
		status := benchStatuses[i%len(benchStatuses)]
		if i == n/2 {
			status = "pending"
		}
		fmt.Fprintf(&b, "### Implement token step %d\n\n", i)
		fmt.Fprintf(&b, "- Status: %s\n- Workflow: tdd-incremental-orchestration\n", status)
		if i%3 == 0 {
			b.WriteString("- Main-Workflow: spec-first-delivery-process\n")
		}
		fmt.Fprintf(&b, "\nImplement the signing logic for step %d and test\n"+
			"it with table tests; keep the keys in the vault\n"+
			"and rotate them daily, see @/specs/jwt-spec.md.\n\n", i)
	}
	b.WriteString("## Notes\n\nFree text after the tasks, kept as it is.\n")
	return b.Bytes()
}

func benchSlug(n int) string { return fmt.Sprintf("implement-token-step-%d", n/2) }

func TestBenchDocument(t *testing.T) {
	for _, n := range benchSizes {
		src := benchDocument(n)
		doc, err := taskdoc.Parse(src)
		require.NoError(t, err)
		require.Len(t, doc.Tasks, n)
		task, err := doc.Task(benchSlug(n))
		require.NoError(t, err)
		assert.Equal(t, taskdoc.StatusPending, task.Status)
		lines := bytes.Count(src, []byte("\n"))
		assert.InDelta(t, 50, len(src)/lines, 25, "bytes per line")
		_, _, err = doc.Complete(task.Slug, "benchmark note", fuzzDate)
		require.NoError(t, err)
	}
}

func BenchmarkParse(b *testing.B) {
	for _, n := range benchSizes {
		src := benchDocument(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := taskdoc.Parse(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkComplete measures what a caller pays to complete one task of a
// document it has just read: a parse plus the edit (which reparses).
func BenchmarkComplete(b *testing.B) {
	for _, n := range benchSizes {
		src := benchDocument(n)
		slug := benchSlug(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				doc, err := taskdoc.Parse(src)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := doc.Complete(slug, "benchmark note", fuzzDate); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGoldmarkParse is the floor: a bare goldmark parse of the same
// bytes, without front matter, outline or tasks.
func BenchmarkGoldmarkParse(b *testing.B) {
	for _, n := range benchSizes {
		src := benchDocument(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				floor.Parse(src)
			}
		})
	}
}

// BenchmarkCompleteOnly measures the edit alone, on a document already
// parsed: the check of the edited task and the new Document.
func BenchmarkCompleteOnly(b *testing.B) {
	for _, n := range benchSizes {
		doc, err := taskdoc.Parse(benchDocument(n))
		require.NoError(b, err)
		slug := benchSlug(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := doc.Complete(slug, "benchmark note", fuzzDate); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRefuseDeepList measures refusing a list nested 2,000 deep
// (4 MB), which goldmark alone takes about 30 seconds to parse: the limit
// is found by a scan of the lines before goldmark runs.
func BenchmarkRefuseDeepList(b *testing.B) {
	src := []byte("# D\n\n" + deepList(2000) + "\n## Tasks\n\n### A\n")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := taskdoc.Parse(src); taskdoc.CodeOf(err) != taskdoc.CodeTooComplex {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefuseManyTasks measures refusing a 16 MiB document of
// 527,632 one-line tasks, past MaxHeadings: the limit is found by the scan
// of the lines before goldmark runs, which reading the document's
// headings and tasks would take about a second and 800 MB.
func BenchmarkRefuseManyTasks(b *testing.B) {
	src := oneLineTasks(527632, 16<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := taskdoc.Parse(src); taskdoc.CodeOf(err) != taskdoc.CodeTooComplex {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefuseManyLines measures refusing 16 MiB documents past
// MaxListItems (one-line list items) and MaxLines (one paragraph of short
// lines, paragraphs of one line), which goldmark would take 0.7 to 2.4 GB
// to read: the limits are found by the scan of the lines.
func BenchmarkRefuseManyLines(b *testing.B) {
	for _, tt := range []struct {
		name string
		line func(i int) string
	}{
		{"items", func(i int) string { return "- T" + strconv.Itoa(i) + "\n" }},
		{"paragraph", func(int) string { return "a\n" }},
		{"paragraphs", func(i int) string { return "T" + strconv.Itoa(i) + "\n\n" }},
	} {
		src := fill(16<<20, tt.line)
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := taskdoc.Parse(src); taskdoc.CodeOf(err) != taskdoc.CodeTooComplex {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseAtLineLimits measures reading documents at MaxListItems
// (one-line list items) and MaxLines (one paragraph of "a" lines): what
// the limits let one Parse cost.
func BenchmarkParseAtLineLimits(b *testing.B) {
	for _, tt := range []struct {
		name string
		src  []byte
	}{
		{"items", []byte("# D\n\n" + strings.Repeat("- T\n", taskdoc.MaxListItems-1) + "\n## Tasks\n\n### A\n\n- Status: pending\n")},
		{"paragraph", []byte("# D\n\n" + strings.Repeat("a\n", taskdoc.MaxLines-6) + "\n## Tasks\n\n### A\n")},
	} {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := taskdoc.Parse(tt.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
