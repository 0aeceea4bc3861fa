package subagent_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// A Depends-On with one entry that is no task address still names the
// tasks its other entries name: Remove must not take the task they wait
// for.
func TestRemoveDependentWithUnreadableEntry(t *testing.T) {
	doc := "## Tasks\n\n### A\n\na\n\n### B\n\n- Depends-On: #a, not-an-address\n\nb\n"
	tasks, root := setup(t, map[string]string{"docs/a.md": doc})
	_, err := tasks.Remove(bg, "/a.md#a", taskdoc.Removal{Force: true})
	requireCode(t, err, taskdoc.CodeInvalidTask)
	assert.Contains(t, err.Error(), "#b")
	assert.Equal(t, doc, filetest.Read(t, root, "docs/a.md"))
}

// Tasks of other documents (and of the coordinator list) that depend on a
// task by its full address keep it unless the removal is forced; broken
// documents and entries that name another task or document do not.
func TestRemoveDependentsInOtherDocuments(t *testing.T) {
	auth := "## Tasks\n\n### Setup keys\n\nk\n\n### Other\n\no\n"
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  []string // the dependents named; none: the removal is made
	}{
		{"other document", map[string]string{"docs/other.md": "## Tasks\n\n### D\n\n- Depends-On: /api/auth.md#setup-keys\n"},
			[]string{"/other.md#d"}},
		{"without the leading slash, beside a bad entry", map[string]string{"docs/x/y.md": "## Tasks\n\n### E\n\n- Depends-On: ??, api/auth.md#setup-keys\n"},
			[]string{"/x/y.md#e"}},
		{"coordinator list", map[string]string{"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### C\n\n- Main-Workflow: m\n- Depends-On: /api/auth.md#setup-keys\n"},
			[]string{"/coordinator/active.md#c"}},
		{"same slug in its own document", map[string]string{"docs/other.md": "## Tasks\n\n### Setup keys\n\n### D\n\n- Depends-On: #setup-keys\n"}, nil},
		{"another task", map[string]string{"docs/other.md": "## Tasks\n\n### D\n\n- Depends-On: /api/auth.md#other\n"}, nil},
		{"broken document", map[string]string{"docs/bad.md": "## Tasks\n\n### D\xff\n\n- Depends-On: /api/auth.md#setup-keys\n"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"docs/api/auth.md": auth}
			for k, v := range tt.files {
				files[k] = v
			}
			tasks, root := setup(t, files)
			before := filetest.Snapshot(t, root)
			_, err := tasks.Remove(bg, "/api/auth.md#setup-keys", taskdoc.Removal{})
			if tt.want == nil {
				require.NoError(t, err)
				assert.NotContains(t, filetest.Read(t, root, "docs/api/auth.md"), "Setup keys")
				return
			}
			requireCode(t, err, taskdoc.CodeInvalidTask)
			for _, d := range tt.want {
				assert.Contains(t, err.Error(), d)
			}
			assert.Equal(t, before, filetest.Snapshot(t, root))

			removed, err := tasks.Remove(bg, "/api/auth.md#setup-keys", taskdoc.Removal{Force: true})
			require.NoError(t, err, "forced")
			assert.Equal(t, "setup-keys", removed.Slug)
			_, err = tasks.Remove(bg, "/api/auth.md#setup-keys", taskdoc.Removal{})
			requireCode(t, err, taskdoc.CodeTaskNotFound) // the retry
		})
	}
}
