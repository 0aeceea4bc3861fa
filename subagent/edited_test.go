package subagent

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// editedTask must return exactly the task a full parse of the edited
// document finds, offsets and line included, for every task of documents
// that exercise the shortcut and its fallbacks.
func TestEditedTaskMatchesFullParse(t *testing.T) {
	// shortcut says whether the document's tasks take the shortcut.
	shortcut := map[string]bool{
		"link reference definitions fall back": false,
	}
	docs := map[string]string{
		"setext tasks heading, last task without final newline": "Title\n=====\n\nTasks\n-----\n\n### One\n\n+ Status: pending\n\nBody.\n\n### Two\n\nNo metadata, no newline",
		"level-1 tasks heading, setext task headings":           "# Tasks\n\nOne\n---\n\n- Status: pending\n\nTwo\n---\n\nText.\n",
		"sections after the tasks and a sub-heading in a task":  "# Doc\n\n## Tasks\n\n### A\n\n* Status: blocked\n\n#### Inside\n\nx\n\n### B\n\n**Status:** pending\n\n## After\n\ntext\n",
		"link reference definitions fall back":                  "# Doc\n\n[ref]: https://example.com\n\n## Tasks\n\n### [Linked][ref]\n\n- Status: pending\n\n### Plain\n",
		"CRLF line endings":                                     "# Doc\r\n\r\n## Tasks\r\n\r\n### A\r\n\r\n- Status: pending\r\n\r\nBody\r\n\r\n### B\r\n",
		"a Tasks heading inside a quote is not the section":     "# Doc\n\n> ## Tasks\n\n## Tasks\n\n### A\n\n- Status: pending\n",
		"code fence with a fake heading in a task":              "# Doc\n\n## Tasks\n\n### A\n\n```\n### not a task\n```\n\n### B\n\n- Status: in_progress\n",
	}
	for _, name := range []string{"notes.md", "crlf.md"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		require.NoError(t, err)
		docs["testdata/"+name] = string(data)
	}
	date := time.Date(2025, 10, 14, 0, 0, 0, 0, time.UTC)
	for name, src := range docs {
		t.Run(name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(src))
			require.NoError(t, err)
			require.NotEmpty(t, doc.Tasks)
			for i := range doc.Tasks {
				before := &doc.Tasks[i]
				edits := map[string]func() ([]byte, error){
					"start":    func() ([]byte, error) { return doc.SetStatus(before.Slug, taskdoc.StatusInProgress) },
					"complete": func() ([]byte, error) { return doc.Complete(before.Slug, "done, see notes", date) },
				}
				for what, edit := range edits {
					if what == "complete" && before.Status == taskdoc.StatusCompleted {
						continue
					}
					out, err := edit()
					require.NoError(t, err, "%s %s", what, before.Slug)
					got, err := editedTask(doc, before, out)
					require.NoError(t, err)
					_, short := taskInPart(doc, before, out)
					wantShort, listed := shortcut[name]
					assert.Equal(t, !listed || wantShort, short, "shortcut taken for %s %s", what, before.Slug)
					full, err := taskdoc.Parse(out)
					require.NoError(t, err)
					want, err := full.Task(before.Slug)
					require.NoError(t, err)
					assert.Equal(t, want, got, "%s %s", what, before.Slug)
				}
			}
		})
	}
}
