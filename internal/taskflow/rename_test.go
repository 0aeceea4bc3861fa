package taskflow_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// A rename of a task that tasks of other documents depend on is refused,
// naming them, as its removal is: they would wait for a task that no
// longer exists. Only the documents that name the slug are parsed, and an
// edit that renames nothing reads no other document.
func TestCheckRenameSeesOtherDocuments(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	var far strings.Builder
	far.WriteString("# Far\n\n## Tasks\n\n")
	for i := range 20 {
		far.WriteString("### Far task " + string(rune('a'+i)) + "\n\n- Status: pending\n- Depends-On: /auth.md#other\n\n")
	}
	filetest.WriteAll(t, root, map[string]string{
		"docs/auth.md":          "# Auth\n\n## Tasks\n\n### Write docs\n\n- Status: pending\n\n### Other\n\n- Status: pending\n",
		"docs/other.md":         "# Other\n\n## Tasks\n\n### Uses it\n\n- Status: pending\n- Depends-On: /auth.md#write-docs\n",
		"docs/far.md":           far.String(),
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: pending\n- Main-Workflow: tdd\n- Depends-On: /auth.md#write-docs\n",
	})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	src, ok, err := taskflow.ReadOne(ctx, ws, "docs/auth.md")
	require.True(t, ok)
	require.NoError(t, err)
	require.NoError(t, src.Err)
	f := taskflow.Flow{Path: "/auth.md", File: "docs/auth.md"}

	_, renamed, err := f.Edit(src.Doc, "write-docs", taskdoc.Edit{Title: "Write the docs"})
	require.NoError(t, err, "the document itself has no dependent")
	require.Equal(t, "write-the-docs", renamed.Slug)
	var docs int64
	docs, _ = parsecount.During(func() { err = f.CheckRename(ctx, ws, "write-docs", renamed) })
	require.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	assert.ErrorContains(t, err, "/other.md#uses-it, /coordinator/active.md#lead in other documents depend on it")
	assert.ErrorContains(t, err, "then add /auth.md#write-the-docs there")
	assert.Equal(t, int64(2), docs, "only the documents naming #write-docs are parsed")

	// An edit that keeps the slug reads nothing.
	reads := 0
	hooks.Read = func(string) error { reads++; return nil }
	t.Cleanup(func() { hooks.Read = func(string) error { return nil } })
	_, kept, err := f.Edit(src.Doc, "write-docs", taskdoc.Edit{Content: "- Status: blocked\n"})
	require.NoError(t, err)
	require.NoError(t, f.CheckRename(ctx, ws, "write-docs", kept))
	assert.Zero(t, reads)
	hooks.Read = func(string) error { return nil }

	// Once the dependents no longer name it, the rename passes.
	filetest.Write(t, root, "docs/other.md", "# Other\n\n## Tasks\n\n### Uses it\n\n- Status: pending\n")
	filetest.Write(t, root, "coordinator/active.md", "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: pending\n- Main-Workflow: tdd\n")
	assert.NoError(t, f.CheckRename(ctx, ws, "write-docs", renamed))

	// A task the document itself depends on is Edit's refusal, with the
	// same way out.
	doc, err := taskdoc.Parse([]byte("## Tasks\n\n### A\n\n### B\n\n- Depends-On: #a\n"))
	require.NoError(t, err)
	_, _, err = f.Edit(doc, "a", taskdoc.Edit{Title: "Z"})
	require.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	assert.ErrorContains(t, err, `task "a" in /auth.md cannot be renamed to "z": #b depend on it; take it out of their Depends-On first, rename it, then add #z there`)
}
