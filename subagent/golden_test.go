package subagent_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output (review the diff before committing)")

// goldenTask is the task each golden case creates.
var goldenTask = taskdoc.NewTask{Title: "Write the upgrade guide", Content: "- Status: pending\n\nCover the breaking changes."}

// goldenCases says why each testdata/<name>.md exists; an input without a
// reason fails the test.
var goldenCases = map[string]string{
	"notes": "what a re-rendering editor damages: YAML front matter, setext headings, '+' bullets, " +
		"a table, escapes, a hard line break, a fenced '###' line, a task with a '####' sub-heading, " +
		"and a '### Setup' note under '## Notes' besides the '### Setup' task",
	"crlf": "a file from Windows: BOM, CRLF line endings, TOML front matter, '*' bullets, " +
		"no final newline, and a '## Setup' section besides the '### Setup' task",
}

// touched are the slugs of the tasks the golden cases change.
var touched = []string{"setup", taskdoc.Slug(goldenTask.Title)}

// Each testdata/<name>.md is a document with a "Setup" task and a "Setup"
// heading outside the Tasks section, written to provoke an editor that
// re-renders Markdown (see goldenCases). The test creates a task, starts and completes #setup, and
// compares the result with <name>.golden. It also checks, independently of
// the golden file, that every byte outside the touched tasks is unchanged.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	for _, input := range inputs {
		name := strings.TrimSuffix(filepath.Base(input), ".md")
		t.Run(name, func(t *testing.T) {
			require.Contains(t, goldenCases, name, "say why %s exists in goldenCases", input)
			in, err := os.ReadFile(input)
			require.NoError(t, err)
			tasks, root := setup(t, map[string]string{"docs/" + name + ".md": string(in)})
			ctx := context.Background()
			address := "/" + name + ".md"

			_, err = tasks.Create(ctx, address, goldenTask)
			require.NoError(t, err)
			started, err := tasks.Start(ctx, address+"#setup")
			require.NoError(t, err)
			assert.Equal(t, 3, started.Task.Level, "the task, not the note heading of the same title")
			_, err = tasks.Complete(ctx, address+"#setup", "Cluster provisioned with terraform")
			require.NoError(t, err)
			out := []byte(filetest.Read(t, root, "docs/"+name+".md"))

			assert.Equal(t, string(outside(t, in, touched)), string(outside(t, out, touched)),
				"bytes outside the touched tasks changed")

			golden := filepath.Join("testdata", name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, out, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(out))
		})
	}
}

// outside returns src without the spans of the tasks with the given slugs
// (those that exist in it).
func outside(t *testing.T, src []byte, slugs []string) []byte {
	t.Helper()
	doc, err := taskdoc.Parse(src)
	require.NoError(t, err)
	var spans []taskdoc.Span
	for _, task := range doc.Tasks {
		if slices.Contains(slugs, task.Slug) {
			spans = append(spans, task.Span)
		}
	}
	var b bytes.Buffer
	at := 0
	for _, s := range spans {
		b.Write(src[at:s.Start])
		at = s.End
	}
	b.Write(src[at:])
	return b.Bytes()
}
