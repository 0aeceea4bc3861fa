package subagent_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// Create and Edit refuse a Depends-On entry that names a task of another
// document that does not exist, or that closes a cycle across documents,
// and write nothing; a document that does not read is passed over.
func TestCrossDocumentDependencies(t *testing.T) {
	s, root := setup(t, map[string]string{
		"docs/a.md":      "# A\n\n## Tasks\n\n### One\n- Status: pending\n- Depends-On: /b.md#two\n",
		"docs/b.md":      "# B\n\n## Tasks\n\n### Two\n- Status: pending\n",
		"docs/broken.md": "# Broken\n\n## Tasks\n\n### Dup\n\n### Dup\n\xff\n",
	})
	before := filetest.Snapshot(t, root)
	cases := []struct {
		name string
		call func() error
		code taskdoc.Code
		msg  string
	}{
		{"create, no document", func() error {
			_, err := s.Create(bg, "/b.md", taskdoc.NewTask{Title: "Three", Content: "- Depends-On: /plans/nope.md#z"})
			return err
		}, taskdoc.CodeTaskNotFound, "there is no document /plans/nope.md"},
		{"create, no task", func() error {
			_, err := s.Create(bg, "/new.md", taskdoc.NewTask{Title: "Three", Content: "- Depends-On: /b.md#nope"})
			return err
		}, taskdoc.CodeTaskNotFound, `/b.md has no task "nope"`},
		{"edit, cycle", func() error {
			_, err := s.Edit(bg, "/b.md#two", taskdoc.Edit{Content: "- Status: pending\n- Depends-On: /a.md#one\n"})
			return err
		}, taskdoc.CodeDependencyCycle, "/b.md#two -> /a.md#one -> /b.md#two"},
	}
	for _, c := range cases {
		err := c.call()
		require.Error(t, err, c.name)
		assert.Equal(t, c.code, taskdoc.CodeOf(err), "%s: %v", c.name, err)
		assert.Contains(t, err.Error(), c.msg, c.name)
		assert.Equal(t, before, filetest.Snapshot(t, root), c.name)
	}
	var e *taskdoc.Error
	_, err := s.Create(bg, "/b.md", taskdoc.NewTask{Title: "Three", Content: "- Depends-On: /a.md#nope"})
	require.ErrorAs(t, err, &e)
	assert.Equal(t, []string{"one"}, e.Available)

	_, err = s.Create(bg, "/b.md", taskdoc.NewTask{Title: "Three", Content: "- Depends-On: /a.md#one, /broken.md#dup"})
	require.NoError(t, err)
}
