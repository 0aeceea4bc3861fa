package taskflow_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

const chain = "# Plan\n\n## Tasks\n\n### A\n\n- Status: pending\n\n### B\n\n- Status: pending\n- Depends-On: #a\n\n" +
	"### C\n\n- Status: pending\n- Depends-On: #b, /other.md#x\n"

// Depends-On is checked on every create and edit: entries are task
// addresses, same-document targets exist, and no cycle forms.
func TestDependencies(t *testing.T) {
	tests := []struct {
		name string
		run  func(*taskdoc.Document) error
		code taskdoc.Code
		msg  string
	}{
		{"a chain and another document", func(d *taskdoc.Document) error {
			_, _, err := flow.Create(d, []taskdoc.NewTask{{Title: "D", Content: "- Depends-On: #c #a, /other.md#y"}})
			return err
		}, "", ""},
		{"a cycle made by an edit", func(d *taskdoc.Document) error {
			_, _, err := flow.Edit(d, "a", taskdoc.Edit{Content: "- Status: pending\n- Depends-On: #c"})
			return err
		}, taskdoc.CodeDependencyCycle, "#a -> #c -> #b -> #a"},
		{"a task that depends on itself", func(d *taskdoc.Document) error {
			_, _, err := flow.Create(d, []taskdoc.NewTask{{Title: "D", Content: "- Depends-On: #d"}})
			return err
		}, taskdoc.CodeDependencyCycle, "#d -> #d"},
		{"a cycle inside one batch", func(d *taskdoc.Document) error {
			_, _, err := flow.Create(d, []taskdoc.NewTask{{Title: "D", Content: "- Depends-On: #e"}, {Title: "E", Content: "- Depends-On: #d"}})
			return err
		}, taskdoc.CodeDependencyCycle, "#d -> #e -> #d"},
		{"the same document by its address", func(d *taskdoc.Document) error {
			_, _, err := flow.Edit(d, "a", taskdoc.Edit{Content: "- Depends-On: /plan.md#c"})
			return err
		}, taskdoc.CodeDependencyCycle, "#a -> #c"},
		{"an unknown task", func(d *taskdoc.Document) error {
			_, _, err := flow.Create(d, []taskdoc.NewTask{{Title: "D", Content: "- Depends-On: #nope"}})
			return err
		}, taskdoc.CodeTaskNotFound, `depends on "#nope"`},
		{"a rename that would leave dependents dangling", func(d *taskdoc.Document) error {
			_, _, err := flow.Edit(d, "a", taskdoc.Edit{Title: "First"})
			return err
		}, taskdoc.CodeInvalidTask, "#b depend on it"},
		{"a rename nobody depends on", func(d *taskdoc.Document) error {
			_, _, err := flow.Edit(d, "c", taskdoc.Edit{Title: "Last"})
			return err
		}, "", ""},
		{"not an address", func(d *taskdoc.Document) error {
			_, _, err := flow.Create(d, []taskdoc.NewTask{{Title: "D", Content: "- Depends-On: soon"}})
			return err
		}, taskdoc.CodeInvalidAddress, `"soon"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(chain))
			require.NoError(t, err)
			err = tt.run(doc)
			if tt.code == "" {
				require.NoError(t, err)
				return
			}
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code)
			assert.Contains(t, e.Error(), tt.msg)
		})
	}
}

// A task's dependencies read as written.
func TestTaskDependencies(t *testing.T) {
	doc, err := taskdoc.Parse([]byte(chain))
	require.NoError(t, err)
	c, err := doc.Task("c")
	require.NoError(t, err)
	deps, err := c.Dependencies()
	require.NoError(t, err)
	assert.Equal(t, []taskdoc.Dependency{{Slug: "b"}, {Document: "/other.md", Slug: "x"}}, deps)
	assert.Equal(t, "#b", deps[0].String())
	a, _ := doc.Task("a")
	deps, err = a.Dependencies()
	require.NoError(t, err)
	assert.Empty(t, deps)
}

// A Depends-On written badly by hand on one task blocks no edit of a task
// whose dependencies do not lead to it.
func TestBadDependencyElsewhereBlocksNothing(t *testing.T) {
	doc, err := taskdoc.Parse([]byte(chain + "\n### D\n\n- Depends-On: soon\n"))
	require.NoError(t, err)
	_, _, err = flow.Edit(doc, "b", taskdoc.Edit{Content: "- Status: pending\n- Depends-On: #a\n\nNow with a body."})
	require.NoError(t, err)
	_, _, err = flow.Edit(doc, "d", taskdoc.Edit{Content: "- Depends-On: later"})
	assert.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err), "the task's own field is still checked")
}
