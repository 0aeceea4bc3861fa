package merge

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
)

// benchVersions are a document of n tasks and two versions of it: ours
// completed every tenth task, theirs every tenth from the fifth and added
// ten tasks at the end.
func benchVersions(b *testing.B, n int) (base, ours, theirs []byte) {
	var src bytes.Buffer
	src.WriteString("# Plan\n\nIntro.\n\n## Tasks\n")
	for i := range n {
		fmt.Fprintf(&src, "\n### Task %d\n\n- Status: in_progress\n- Workflow: tdd\n\nImplement part %d of the plan, with tests.\n\n@/specs/part-%d.md\n", i, i, i)
	}
	doc, err := taskdoc.Parse(src.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	o, t := doc, doc
	for i := 0; i < n; i += 10 {
		if o, _, err = o.Complete(fmt.Sprintf("task-%d", i), "done here", day); err != nil {
			b.Fatal(err)
		}
		if i+5 < n {
			if t, _, err = t.Complete(fmt.Sprintf("task-%d", i+5), "done there", day); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i := range 10 {
		if t, _, err = t.AddTask(taskdoc.NewTask{Title: fmt.Sprintf("Added %d", i), Content: "- Status: pending\n\nNew."}); err != nil {
			b.Fatal(err)
		}
	}
	return doc.Source, o.Source, t.Source
}

// BenchmarkTasks1000 merges a 1,000-task document changed on both sides.
func BenchmarkTasks1000(b *testing.B) {
	base, ours, theirs := benchVersions(b, 1000)
	b.SetBytes(int64(len(ours)))
	b.ResetTimer()
	for b.Loop() {
		if r := Tasks(base, ours, theirs); !r.Clean() {
			b.Fatal("conflicts")
		}
	}
}

// BenchmarkFloorParse3 is the floor of BenchmarkTasks1000: parsing the
// three versions, which any merge that reads tasks must do.
func BenchmarkFloorParse3(b *testing.B) {
	base, ours, theirs := benchVersions(b, 1000)
	b.SetBytes(int64(len(ours)))
	b.ResetTimer()
	for b.Loop() {
		for _, v := range [][]byte{base, ours, theirs} {
			if _, err := taskdoc.Parse(v); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLines1000 merges the same versions line by line, as git would.
func BenchmarkLines1000(b *testing.B) {
	base, ours, theirs := benchVersions(b, 1000)
	b.SetBytes(int64(len(ours)))
	b.ResetTimer()
	for b.Loop() {
		mergeLines(base, ours, theirs)
	}
}
