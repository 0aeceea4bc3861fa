package taskdoc

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/parsecount"
)

// localHosts are documents whose first task's content is replaced by each
// CommonMark spec example: the next heading is a task, a section end, a
// setext heading, or nothing.
var localHosts = []string{
	"# D\n\n## Tasks\n\n### First\n\n- Status: pending\n\n### Second\n\n- Status: pending\n\n## Notes\n\nafter\n",
	"# D\n\n## Tasks\n\n### First\n\nbody\n\n## Notes\n",
	"D\n=\n\nTasks\n=\n\n## First\n\nbody\n\nNotes\n=\n\nafter\n",
	"# D\n\n## Tasks\n\n### First\n\nbody\n",
	"# D\r\n\r\n## Tasks\r\n\r\n### First\r\n\r\nbody\r\n\r\n### Second\r\n",
}

// eachHostedExample calls fn with each of localHosts parsed (h its index)
// and each CommonMark spec example written as the content of a task of
// it (examples that make no content are left out).
func eachHostedExample(t *testing.T, fn func(h int, d *Document, ex SpecExample, content string)) {
	t.Helper()
	examples := SpecExamples(t)
	for h, host := range localHosts {
		d, err := Parse([]byte(host))
		require.NoError(t, err)
		for _, ex := range examples {
			if content := formatContent(ex.Markdown, d.Newline); content != "" {
				fn(h, d, ex, content)
			}
		}
	}
}

// TestLocalCheckAgreesWithFullParse runs the cheap local verification and
// the full-parse verification on the same edits, with every CommonMark
// spec example as new task content, and requires the same verdict
// whenever the local one claims to be sound.
func TestLocalCheckAgreesWithFullParse(t *testing.T) {
	local := 0
	eachHostedExample(t, func(h int, d *Document, ex SpecExample, content string) {
		task := &d.Tasks[0]
		edits := map[string]struct {
			out []byte
			r   region
		}{}
		cs := []change{d.contentChange(task, d.meta(0), content)}
		out := splice(d.Source, cs)
		edits["edit"] = struct {
			out []byte
			r   region
		}{out, region{start: task.Span.Start, oldEnd: task.Span.End,
			newEnd: task.Span.End + len(out) - len(d.Source), task: true, content: true, check: acceptAny}}
		ins := "### New" + d.Newline + d.Newline + content + d.Newline + d.Newline
		if d.taskLevel() == 2 {
			ins = "## New" + d.Newline + d.Newline + content + d.Newline + d.Newline
		}
		at := task.Span.End
		out = splice(d.Source, []change{{at, at, ins}})
		edits["add"] = struct {
			out []byte
			r   region
		}{out, region{start: at, oldEnd: at, newEnd: at + len(ins), task: true, content: true, check: acceptAny}}
		for name, e := range edits {
			ld, lt, done, lerr := d.checkLocal(e.out, e.r)
			if !done {
				continue
			}
			local++
			fd, ft, ferr := d.checkFull(e.out, e.r)
			// Both must accept or both refuse; a refusal's reason may
			// differ (a full parse meets a duplicate slug first).
			msg := fmt.Sprintf("host %d, example %d, %s: local %v, full %v\n%s", h, ex.Example, name, lerr, ferr, e.out)
			require.Equal(t, ferr == nil, lerr == nil, msg)
			if lerr == nil {
				// And build the same document and task.
				require.Equal(t, fd, ld, msg)
				require.Equal(t, *ft, *lt, msg)
			}
		}
	})
	t.Logf("%d edits decided by the local check", local)
	require.Greater(t, local, 4000, "the local check should decide most of these edits")
}

// TestCommonEditsAreDecidedLocally checks that the edits agents make all
// the time are verified, and their Document built, by checkLocal from a
// parse of the edited task alone: no parse of the whole document.
func TestCommonEditsAreDecidedLocally(t *testing.T) {
	src := "---\nx: 1\n---\n# D\n\n## Tasks\n\n### A\n\n- Status: pending\n\n### B\n\n- Status: pending\n\n## Notes\n"
	d, err := Parse([]byte(src))
	require.NoError(t, err)
	a, b := d.Tasks[0].Span, d.Tasks[1].Span
	edits := []struct {
		name string
		edit func() (*Document, *Task, error)
		span Span // the range of d the edit replaces
	}{
		{"status", func() (*Document, *Task, error) { return d.SetStatus("b", StatusBlocked) }, b},
		{"complete", func() (*Document, *Task, error) { return d.Complete("a", "done", time.Time{}) }, a},
		{"field", func() (*Document, *Task, error) { return d.SetField("a", "Owner", "ana") }, a},
		{"remove field", func() (*Document, *Task, error) { return d.RemoveField("b", "Status") }, b},
		{"add after", func() (*Document, *Task, error) { return d.AddTask(NewTask{Title: "C", After: "a"}) }, Span{a.End, a.End}},
		{"add", func() (*Document, *Task, error) { return d.AddTask(NewTask{Title: "D"}) }, Span{b.End, b.End}},
		{"rename", func() (*Document, *Task, error) { return d.EditTask("a", Edit{Title: "E"}) }, a},
		{"content", func() (*Document, *Task, error) { return d.EditTask("b", Edit{Content: "- Status: blocked\n\nWhy."}) }, b},
		{"remove", func() (*Document, *Task, error) { nd, err := d.RemoveTask("a"); return nd, nil, err }, a},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			var nd *Document
			var task *Task
			var err error
			docs, _ := parsecount.During(func() { nd, task, err = e.edit() })
			require.NoError(t, err)
			require.Zero(t, docs, "the edit parsed the whole document")
			delta := len(nd.Source) - len(d.Source)
			r := region{start: e.span.Start, oldEnd: e.span.End, newEnd: e.span.End + delta,
				task: task != nil, check: acceptAny}
			ld, lt, done, err := d.checkLocal(nd.Source, r)
			require.NoError(t, err)
			require.True(t, done, "checkLocal left the edit to a full parse")
			require.Equal(t, nd, ld)
			if task != nil {
				require.Equal(t, *task, *lt)
			}
		})
	}
}
