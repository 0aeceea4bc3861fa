package merge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestTasksGolden merges each testdata/<case>/{base,ours,theirs}.md and
// compares with want.md and conflicts.txt ("slug field line" per
// conflict), written by hand.
func TestTasksGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*/want.md")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, want := range dirs {
		dir := filepath.Dir(want)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			read := func(name string) []byte {
				b, err := os.ReadFile(filepath.Join(dir, name))
				require.NoError(t, err)
				return b
			}
			base, ours, theirs := read("base.md"), read("ours.md"), read("theirs.md")
			got := Tasks(base, ours, theirs)
			assert.Equal(t, string(read("want.md")), string(got.Bytes))
			var cs strings.Builder
			for _, c := range got.Conflicts {
				fmt.Fprintf(&cs, "%s %s %d\n", c.Task, c.Field, c.Line)
			}
			assert.Equal(t, string(read("conflicts.txt")), cs.String())
			_, err := taskdoc.Parse(got.Bytes)
			assert.NoError(t, err, "the merge parses")

			// Swapping the sides swaps nothing that only one side changed.
			if got.Clean() {
				swapped := Tasks(base, theirs, ours)
				assert.True(t, swapped.Clean())
			}
		})
	}
}

const planBase = "# Plan\n\n## Tasks\n\n### One\n\n- Status: in_progress\n\nDo one.\n\n### Two\n\n- Status: in_progress\n\nDo two.\n"

var (
	planOne = strings.Replace(planBase, "- Status: in_progress\n\nDo one.", "- Status: completed\n- Completed: 2026-01-02\n- Note: one done\n\nDo one.", 1)
	planTwo = strings.Replace(planBase, "- Status: in_progress\n\nDo two.", "- Status: completed\n- Completed: 2026-01-03\n- Note: two done\n\nDo two.", 1)
)
