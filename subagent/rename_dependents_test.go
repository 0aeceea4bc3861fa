package subagent_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestRenameDependedOnWithBadEntry: a rename is refused when a task
// depends on the old slug, even if that task's Depends-On also holds an
// entry that is no task address (the reading Remove uses).
func TestRenameDependedOnWithBadEntry(t *testing.T) {
	doc := "## Tasks\n\n### A\n\na\n\n### B\n\n- Depends-On: #a, not-an-address\n\nb\n"
	tasks, root := setup(t, map[string]string{"docs/a.md": doc})
	_, err := tasks.Edit(bg, "/a.md#a", taskdoc.Edit{Title: "Renamed"})
	requireCode(t, err, taskdoc.CodeInvalidTask)
	assert.Equal(t, doc, filetest.Read(t, root, "docs/a.md"))
}
