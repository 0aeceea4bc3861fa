package benchsuite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestGeneratedDocuments: the documents a listing row lists are task
// documents as the suite says (four or six tasks in mixed statuses, a
// title), and the change a warm row makes is to their first paragraph
// only, so that what a row measures is what its name says.
func TestGeneratedDocuments(t *testing.T) {
	for _, tt := range []struct {
		kind     docKind
		tasks    int
		min, max int // bytes
	}{{smallDocs, 4, 600, 800}, {designDocs, 6, 3000, 4000}} {
		src := tt.kind.doc(123, "")
		assert.True(t, len(src) >= tt.min && len(src) <= tt.max, "%q: %d bytes", tt.kind.name, len(src))
		doc, err := taskdoc.Parse(src)
		require.NoError(t, err)
		require.Len(t, doc.Tasks, tt.tasks, tt.kind.name)
		assert.NotEmpty(t, doc.Title())
		statuses := map[taskdoc.Status]bool{}
		for _, task := range doc.Tasks {
			statuses[task.Status] = true
		}
		assert.Len(t, statuses, 4, "every status: %v", statuses)

		changed := tt.kind.doc(123, " Changed 7.")
		assert.Equal(t, len(src)+len(" Changed 7."), len(changed))
		cdoc, err := taskdoc.Parse(changed)
		require.NoError(t, err)
		for i := range doc.Tasks {
			assert.Equal(t, doc.Tasks[i].Version, cdoc.Tasks[i].Version, "a task changed")
		}
		first := strings.Index(string(changed), " Changed 7.")
		assert.Less(t, first, doc.TasksSpan.Start, "the change is before the tasks")
	}
}
