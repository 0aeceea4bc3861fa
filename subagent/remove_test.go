package subagent_test

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// opsInput is the document the golden removals and status changes start
// from: tasks in the list, bold-paragraph and no-metadata styles, a
// completed task with its outcome, a blocked one with its reason, and a
// section after the Tasks section.
func opsInput(t *testing.T) string {
	t.Helper()
	return golden(t, "input.md")
}

// golden reads a hand-written expected document from testdata/remove.
func golden(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "remove", name))
	require.NoError(t, err)
	return string(data)
}

func TestRemoveGolden(t *testing.T) {
	for _, tt := range []struct {
		slug   string
		r      taskdoc.Removal
		golden string
	}{
		// The last task before another section: that section stays.
		{"write-docs", taskdoc.Removal{}, "remove-write-docs.md"},
		// A task in progress held by an agent goes only when forced.
		{"implement-signing", taskdoc.Removal{Force: true}, "remove-implement-signing.md"},
	} {
		t.Run(tt.slug, func(t *testing.T) {
			tasks, root := setup(t, map[string]string{"docs/api/auth.md": opsInput(t)})
			removed, err := tasks.Remove(bg, "/api/auth.md#"+tt.slug, tt.r)
			require.NoError(t, err)
			assert.Equal(t, tt.slug, removed.Slug)
			assert.Equal(t, golden(t, tt.golden), filetest.Read(t, root, "docs/api/auth.md"))

			// A retry finds nothing to remove and changes nothing.
			before := filetest.Snapshot(t, root)
			_, err = tasks.Remove(bg, "/api/auth.md#"+tt.slug, tt.r)
			requireCode(t, err, taskdoc.CodeTaskNotFound)
			assert.Equal(t, before, filetest.Snapshot(t, root))
		})
	}
}

func TestRemoveRefusals(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": opsInput(t)})
	version := func(slug string) string {
		got, err := tasks.View(bg, "/api/auth.md", slug)
		require.NoError(t, err)
		return got[0].Version
	}
	for _, tt := range []struct {
		name    string
		address string
		r       taskdoc.Removal
		code    taskdoc.Code
	}{
		{"in progress", "/api/auth.md#implement-signing", taskdoc.Removal{}, taskdoc.CodeInvalidTransition},
		{"depended on", "/api/auth.md#setup-keys", taskdoc.Removal{Force: true}, taskdoc.CodeInvalidTask},
		{"changed since read", "/api/auth.md#write-docs", taskdoc.Removal{IfVersion: version("setup-keys")}, taskdoc.CodeConflict},
		{"unknown task", "/api/auth.md#nope", taskdoc.Removal{}, taskdoc.CodeTaskNotFound},
		{"no document", "/api/none.md#x", taskdoc.Removal{}, taskdoc.CodeDocumentNotFound},
		{"document address", "/api/auth.md", taskdoc.Removal{}, taskdoc.CodeSubagentRequiresSlug},
		{"coordinator", "/coordinator/active.md#x", taskdoc.Removal{}, taskdoc.CodeInvalidNamespace},
		{"bad address", "/api/../auth.md#x", taskdoc.Removal{}, taskdoc.CodeInvalidAddress},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := filetest.Snapshot(t, root)
			_, err := tasks.Remove(bg, tt.address, tt.r)
			requireCode(t, err, tt.code)
			assert.Equal(t, before, filetest.Snapshot(t, root), "a refused removal changes nothing")
		})
	}
	// With the version read, the removal goes through.
	_, err := tasks.Remove(bg, "/api/auth.md#write-docs", taskdoc.Removal{IfVersion: version("write-docs")})
	require.NoError(t, err)
}

// A pending task that an agent holds (its Assignee) is refused unless
// forced: subagent does not read claims, so it cannot tell whether the
// holder is still at work.
func TestRemoveHeldTask(t *testing.T) {
	doc := "## Tasks\n\n### A\n\n- Status: pending\n- Assignee: ag_1\n\n### B\n\n- Status: failed\n- Assignee: ag_1\n- Error: boom\n"
	tasks, root := setup(t, map[string]string{"docs/a.md": doc})
	_, err := tasks.Remove(bg, "/a.md#a", taskdoc.Removal{})
	requireCode(t, err, taskdoc.CodeInvalidTransition)
	assert.Contains(t, err.Error(), "ag_1")
	_, err = tasks.Remove(bg, "/a.md#b", taskdoc.Removal{})
	require.NoError(t, err, "a failed task is no longer worked on")
	_, err = tasks.Remove(bg, "/a.md#a", taskdoc.Removal{Force: true})
	require.NoError(t, err)
	// The blank line before the removed task stays, as RemoveTask keeps it.
	assert.Equal(t, "## Tasks\n\n", filetest.Read(t, root, "docs/a.md"))
}

// requireCode requires err to carry code.
func requireCode(t *testing.T, err error, code taskdoc.Code) {
	t.Helper()
	require.Error(t, err)
	require.Equalf(t, code, taskdoc.CodeOf(err), "error: %v", err)
}

// Of several removals of one task at once, exactly one removes it; the
// others find nothing to remove, and the rest of the document stays.
func TestRemoveConcurrent(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": opsInput(t)})
	var wg sync.WaitGroup
	var removed atomic.Int32
	for range 8 {
		wg.Go(func() {
			_, err := tasks.Remove(bg, "/api/auth.md#write-docs", taskdoc.Removal{})
			if err == nil {
				removed.Add(1)
				return
			}
			assert.Equal(t, taskdoc.CodeTaskNotFound, taskdoc.CodeOf(err), "%v", err)
		})
	}
	wg.Wait()
	assert.Equal(t, int32(1), removed.Load())
	assert.Equal(t, golden(t, "remove-write-docs.md"), filetest.Read(t, root, "docs/api/auth.md"))
}
