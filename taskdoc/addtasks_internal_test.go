package taskdoc

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAddTasksOneSplice: the usual batches take the one-splice path (the
// differential test proves its bytes; this proves it is used) and give
// the bytes of AddTask one by one.
func TestAddTasksOneSplice(t *testing.T) {
	docs := map[string]string{
		"end of file":         "# Doc\n\n## Tasks\n\n### A\n\n- Status: pending\n\nBody.\n",
		"section after":       "# Doc\n\n## Tasks\n\n### A\n\nBody.\n## Notes\n\nText.\n",
		"crlf":                "# Doc\r\n\r\n## Tasks\r\n\r\n### A\r\n\r\nBody.\r\n",
		"lone cr":             "# Doc\r\r## Tasks\r\r### A\r\rBody.\r",
		"no trailing newline": "# Doc\n\n## Tasks\n\n### A\n\nBody.",
		"setext":              "Doc\n===\n\nTasks\n-----\n\n### A\n\nBody.\n",
		"no tasks section":    "# Doc\n\nText.\n",
		"empty":               "",
	}
	for name, src := range docs {
		t.Run(name, func(t *testing.T) {
			d, err := Parse([]byte(src))
			require.NoError(t, err)
			after := ""
			if len(d.Tasks) > 0 {
				after = "a"
			}
			for _, tasks := range [][]NewTask{
				{{Title: "B", Content: "- Status: pending\n\nB body."}, {Title: "C"}, {Title: "D", Content: "D body."}},
				{{Title: "B", After: after}, {Title: "C", After: "b"}, {Title: "D", Content: "x", After: "c"}},
			} {
				got, ok := d.addBatch(tasks)
				require.True(t, ok, "%+v", tasks)
				want, err := d.addOneByOne(tasks)
				require.NoError(t, err)
				require.Equal(t, string(want), string(got))
				nd, err := Parse(got)
				require.NoError(t, err)
				require.Len(t, nd.Tasks, len(d.Tasks)+3)
				for _, nt := range tasks {
					task, err := nd.Task(strings.ToLower(nt.Title))
					require.NoError(t, err)
					require.Equal(t, nt.Title, task.Title)
				}
			}
		})
	}
}
