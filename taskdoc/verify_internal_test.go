package taskdoc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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

// TestLocalCheckAgreesWithFullParse runs the cheap local verification and
// the full-parse verification on the same edits, with every CommonMark
// spec example as new task content, and requires the same verdict
// whenever the local one claims to be sound.
func TestLocalCheckAgreesWithFullParse(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "spec.json"))
	require.NoError(t, err)
	var examples []struct {
		Markdown string `json:"markdown"`
		Example  int    `json:"example"`
	}
	require.NoError(t, json.Unmarshal(data, &examples))
	accept := func(*Task, *taskMeta) error { return nil }
	local := 0
	for h, host := range localHosts {
		d, err := Parse([]byte(host))
		require.NoError(t, err)
		task := &d.Tasks[0]
		for _, ex := range examples {
			content := formatContent(ex.Markdown, d.Newline)
			if content == "" {
				continue
			}
			edits := map[string]struct {
				out []byte
				r   region
			}{}
			cs := []change{d.contentChange(task, &d.metas[0], content)}
			out := splice(d.Source, cs)
			edits["edit"] = struct {
				out []byte
				r   region
			}{out, region{start: task.Span.Start, oldEnd: task.Span.End,
				newEnd: task.Span.End + len(out) - len(d.Source), task: true, content: true, check: accept}}
			ins := "### New" + d.Newline + d.Newline + content + d.Newline + d.Newline
			if d.taskLevel() == 2 {
				ins = "## New" + d.Newline + d.Newline + content + d.Newline + d.Newline
			}
			at := task.Span.End
			out = splice(d.Source, []change{{at, at, ins}})
			edits["add"] = struct {
				out []byte
				r   region
			}{out, region{start: at, oldEnd: at, newEnd: at + len(ins), task: true, content: true, check: accept}}
			for name, e := range edits {
				done, lerr := d.checkLocal(e.out, e.r)
				if !done {
					continue
				}
				local++
				ferr := d.checkFull(e.out, e.r)
				// Both must accept or both refuse; a refusal's reason may
				// differ (a full parse meets a duplicate slug first).
				require.Equal(t, ferr == nil, lerr == nil,
					"host %d, example %d, %s: local %v, full %v\n%s", h, ex.Example, name, lerr, ferr, e.out)
			}
		}
	}
	require.Greater(t, local, 4000, "the local check should decide most of these edits")
}

// TestTaskAfterParsesOnlyTheChange checks that TaskAfter answers common
// edits without a full parse.
func TestTaskAfterParsesOnlyTheChange(t *testing.T) {
	src := "---\nx: 1\n---\n# D\n\n## Tasks\n\n### A\n\n- Status: pending\n\n### B\n\n- Status: pending\n\n## Notes\n"
	d, err := Parse([]byte(src))
	require.NoError(t, err)
	edits := map[string]func() ([]byte, error){
		"b": func() ([]byte, error) { return d.SetStatus("b", StatusBlocked) },
		"a": func() ([]byte, error) { return d.Complete("a", "done", time.Time{}) },
		"c": func() ([]byte, error) { return d.AddTask(NewTask{Title: "C", After: "a"}) },
		"d": func() ([]byte, error) { return d.AddTask(NewTask{Title: "D"}) },
		"e": func() ([]byte, error) { return d.EditTask("a", Edit{Title: "E"}) },
	}
	for slug, edit := range edits {
		out, err := edit()
		require.NoError(t, err)
		task, ok := d.taskAfterLocal(out, slug)
		require.True(t, ok, "TaskAfter(%q) fell back to a full parse", slug)
		require.Equal(t, slug, task.Slug)
	}
}
