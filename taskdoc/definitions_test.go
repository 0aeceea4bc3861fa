package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// definitionEdits are edits around link reference definitions. A
// definition reaches across the whole document: "[x][spec]" anywhere is a
// link when a definition of "spec" is anywhere, and the first definition of
// a label wins. An edit must not change what a label means outside the
// task it edits.
var definitionEdits = []struct {
	name string
	src  string
	edit func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error)
	slug string // the task edited (or added)
	// refused: the label the refusal names, and the line of the use
	// outside the task it points at; "" when the edit is accepted.
	refused string
	line    int
}{
	{"a new task defines a label a full reference outside uses",
		"See [x][spec].\n\n## Tasks\n\n### T\n",
		add("U", "[spec]: /url"), "u", "spec", 1},
	{"a collapsed reference outside",
		"See [spec][].\n\n## Tasks\n\n### T\n",
		add("U", "Body.\n\n[spec]: /url"), "u", "spec", 1},
	{"a shortcut reference outside, case folded",
		"# Doc\n\nSee [Spec].\n\n## Tasks\n\n### T\n",
		add("U", "[SPEC]: /url \"Title\""), "u", "SPEC", 3},
	{"a label with other spacing",
		"See [my  spec] and\n[more\nlines].\n\n## Tasks\n\n### T\n",
		add("U", "[More Lines]: /url"), "u", "More Lines", 2},
	{"a label in a block quote across lines",
		"> See [my\n> spec].\n\n## Tasks\n\n### T\n",
		add("U", "[my spec]: /url"), "u", "my spec", 1},
	{"a use in a heading outside",
		"# See [spec]\n\n## Tasks\n\n### T\n",
		add("U", "[spec]: /url"), "u", "spec", 1},
	{"a use after the task",
		"## Tasks\n\n### T\n\n### V\n\nSee [spec].\n",
		add("U", "[spec]: /url"), "u", "spec", 7},
	{"a label defined before the task and not used: the earlier definition wins",
		"[spec]: /a\n\n## Tasks\n\n### T\n",
		add("U", "[spec]: /b"), "u", "", 0},
	{"a label used outside and defined before the task: the earlier definition wins",
		"See [spec].\n\n[spec]: /a\n\n## Tasks\n\n### T\n",
		add("U", "[spec]: /b"), "u", "", 0},
	{"a later duplicate written into a task",
		"See [Spec].\n\n[spec]: /a\n\n## Tasks\n\n### T\n\nBody.\n\n### U\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("t", taskdoc.Edit{Content: "Body.\n\n[SPEC]: /other \"Other\""})
		}, "t", "", 0},
	{"a new definition that links where the later one does",
		"## Tasks\n\n### T\n\nBody.\n\n## Notes\n\nSee [spec].\n\n[spec]: /a\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("t", taskdoc.Edit{Content: "Body.\n\n[spec]: /a"})
		}, "t", "", 0},
	{"a new definition of a label only defined after the task",
		"## Tasks\n\n### T\n\n## Notes\n\n[spec]: /b\n",
		add("U", "[spec]: /a"), "u", "", 0},
	{"removing a definition that an earlier one overrides",
		"See [spec].\n\n[spec]: /a\n\n## Tasks\n\n### T\n\n[spec]: /b\n\n### U\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask("t"))
		}, "t", "", 0},
	{"removing a definition that overrides a later one used outside",
		"## Tasks\n\n### T\n\n[spec]: /a\n\n## Notes\n\n[spec]\n\n[spec]: /b\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("t", taskdoc.Edit{Content: "No definition."})
		}, "t", "spec", 9},
	{"an edit whose new definition would win over the one after it",
		"## Tasks\n\n### T\n\nBody.\n\n## Notes\n\nSee [spec].\n\n[spec]: /a\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("t", taskdoc.Edit{Content: "Body.\n\n[spec]: /b"})
		}, "t", "spec", 11},
	{"removing a task that defines a label used outside",
		"See [spec].\n\n## Tasks\n\n### T\n\n[spec]: /url\n\n### U\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask("t"))
		}, "t", "spec", 1},
	{"changing a definition used outside",
		"See [spec].\n\n## Tasks\n\n### T\n\n[spec]: /url\n\n### U\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("t", taskdoc.Edit{Content: "[spec]: /other"})
		}, "t", "spec", 1},
	{"editing content away from a definition used outside",
		"## Tasks\n\n### T\n\n[spec]: /url\n\n## Notes\n\n[spec] here.\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("t", taskdoc.Edit{Content: "No definition."})
		}, "t", "spec", 9},

	{"removing a definition that text outside only looks like",
		"## Tasks\n\n### T\n\n[spec]: /url\n\n## Notes\n\nText\n[spec]: /other\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask("t"))
		}, "t", "spec", 6},

	{"removing a definition that is also made outside and not used",
		"## Tasks\n\n### T\n\n[spec]: /url\n\n### U\n\n## Notes\n\n[spec]: /url\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask("t"))
		}, "t", "", 0},
	{"changing a definition that is also made outside and not used",
		"[spec]: /first\n\n## Tasks\n\n### T\n\n[spec]: /url\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("t", taskdoc.Edit{Content: "[spec]: /changed"})
		}, "t", "", 0},
	{"a definition and its use inside the new task",
		"See [other].\n\n## Tasks\n\n### T\n",
		add("U", "Use [spec].\n\n[spec]: /url"), "u", "", 0},
	{"an escaped bracket outside is not a use",
		"See \\[spec\\].\n\n## Tasks\n\n### T\n",
		add("U", "[spec]: /url"), "u", "", 0},
	{"the same definition written again",
		"See [spec].\n\n## Tasks\n\n### T\n\n[spec]: /url\n\n### U\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.EditTask("t", taskdoc.Edit{Content: "- Status: blocked\n\n[SPEC]: /url"})
		}, "t", "", 0},
	{"a status on a task holding a definition used outside",
		"See [spec].\n\n## Tasks\n\n### T\n\n[spec]: /url\n\n### U\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetStatus("t", taskdoc.StatusBlocked)
		}, "t", "", 0},
	{"a field on a task holding a definition used outside",
		"See [spec].\n\n## Tasks\n\n### T\n\n[spec]: /url\n\n### U\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.SetField("t", "Owner", "[spec]: /other")
		}, "t", "", 0},
	{"removing a task whose definition is used only inside it",
		"See [other].\n\n[other]: /o\n\n## Tasks\n\n### T\n\n[spec] here.\n\n[spec]: /url\n\n### U\n",
		func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask("t"))
		}, "t", "", 0},
	{"a new task next to unrelated definitions",
		"See [other].\n\n[other]: /o\n\n## Tasks\n\n### T\n",
		add("U", "[spec]: /url\n\nSee [spec]."), "u", "", 0},
}

func add(title, content string) func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
	return func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
		return d.AddTask(taskdoc.NewTask{Title: title, Content: content})
	}
}

// TestDefinitionsKeepTheirMeaningOutsideTheTask: an edit that adds a
// definition whose label is used or defined outside the task, or removes
// or changes one whose label is used there, is EDIT_CHANGED_OUTSIDE naming
// the label and pointing at the use; definitions and uses that stay inside
// the task are edited as usual.
func TestDefinitionsKeepTheirMeaningOutsideTheTask(t *testing.T) {
	for _, tt := range definitionEdits {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustParse(t, []byte(tt.src))
			nd, task, err := tt.edit(doc)
			if tt.refused == "" {
				require.NoError(t, err)
				assertEditProperty(t, doc.Source, nd, task, tt.slug)
				assertSameRendering(t, doc.Source, nd.Source, tt.slug)
				return
			}
			requireTypedError(t, err, nd)
			require.ErrorIs(t, err, taskdoc.ErrEditChangedOutside)
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.slug, e.Slug)
			assert.Contains(t, e.Msg, `"`+tt.refused+`"`)
			assert.Equal(t, tt.line, e.Line, "the error points at the use outside the task: %v", err)
		})
	}
}
