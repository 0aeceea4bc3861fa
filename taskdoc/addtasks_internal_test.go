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
				got, added, ok := d.addBatch(tasks)
				require.True(t, ok, "%+v", tasks)
				want, wantAdded, err := d.addOneByOne(tasks)
				require.NoError(t, err)
				require.Equal(t, string(want.Source), string(got.Source))
				require.Equal(t, wantAdded, added)
				nd, err := Parse(got.Source)
				require.NoError(t, err)
				require.Equal(t, nd, got)
				require.Len(t, nd.Tasks, len(d.Tasks)+3)
				for k, nt := range tasks {
					task, err := nd.Task(strings.ToLower(nt.Title))
					require.NoError(t, err)
					require.Equal(t, nt.Title, task.Title)
					require.Equal(t, task, added[k])
				}
			}
		})
	}
}

// TestAddTasksOneByOneReturnsTheTasks: orders that the one-splice path
// does not take are added one by one, and still return every added task,
// in the order given, as it reads in the final document.
func TestAddTasksOneByOneReturnsTheTasks(t *testing.T) {
	d, err := Parse([]byte("# Doc\n\n## Tasks\n\n### A\n\nBody.\n\n### Z\n\nLast.\n"))
	require.NoError(t, err)
	tasks := []NewTask{
		{Title: "B", After: "a"},
		{Title: "C", Content: "- Status: blocked"},
		{Title: "D", After: "a"},
		{Title: "E", After: "c"},
	}
	_, _, ok := d.addBatch(tasks)
	require.False(t, ok, "this order is not one splice")
	nd, added, err := d.AddTasks(tasks)
	require.NoError(t, err)
	parsed, err := Parse(nd.Source)
	require.NoError(t, err)
	require.Equal(t, parsed, nd)
	var order []string
	for _, task := range nd.Tasks {
		order = append(order, task.Slug)
	}
	require.Equal(t, []string{"a", "d", "b", "z", "c", "e"}, order)
	require.Len(t, added, len(tasks))
	for k, want := range []string{"b", "c", "d", "e"} {
		task, err := nd.Task(want)
		require.NoError(t, err)
		require.Same(t, task, added[k], "task %d", k)
	}
	require.Equal(t, StatusBlocked, added[1].Status)
}
