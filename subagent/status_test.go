package subagent_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestSetStatusGolden(t *testing.T) {
	for _, tt := range []struct {
		name   string
		slug   string
		to     taskdoc.Status
		reason string
		golden string
	}{
		// Reopen drops the outcome (Completed, Note); Workflow stays.
		{"reopen", "setup-keys", taskdoc.StatusPending, "", "reopen-setup-keys.md"},
		// Unblock drops the reason.
		{"unblock", "add-validation", taskdoc.StatusPending, "", "unblock-add-validation.md"},
		// Block records the reason; a task whose metadata is bold lines gets
		// it in a list after them, as taskdoc adds every new field there.
		{"block bold", "implement-signing", taskdoc.StatusBlocked, "the vault is down", "block-implement-signing.md"},
		// A task without metadata gets a list.
		{"block bare", "write-docs", taskdoc.StatusBlocked, " needs a\nreviewer ", "block-write-docs.md"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tasks, root := setup(t, map[string]string{"docs/api/auth.md": opsInput(t)})
			got, err := tasks.SetStatus(bg, "/api/auth.md#"+tt.slug, tt.to, tt.reason)
			require.NoError(t, err)
			assert.Equal(t, tt.to, got.Status)
			assert.Equal(t, golden(t, tt.golden), filetest.Read(t, root, "docs/api/auth.md"))

			// The same call again is a retry: nothing changes.
			before := filetest.Snapshot(t, root)
			again, err := tasks.SetStatus(bg, "/api/auth.md#"+tt.slug, tt.to, tt.reason)
			require.NoError(t, err)
			assert.Equal(t, got, again)
			assert.Equal(t, before, filetest.Snapshot(t, root))
		})
	}
}

func TestSetStatusReopenFailed(t *testing.T) {
	doc := "## Tasks\n\n### A\n\n- Status: failed\n- Workflow: tdd\n- Error: the build broke\n- Plan: retry with cache\n\nBody.\n"
	tasks, root := setup(t, map[string]string{"docs/a.md": doc})
	got, err := tasks.SetStatus(bg, "/a.md#a", taskdoc.StatusPending, "")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPending, got.Status)
	assert.Equal(t, "## Tasks\n\n### A\n\n- Status: pending\n- Workflow: tdd\n- Plan: retry with cache\n\nBody.\n", filetest.Read(t, root, "docs/a.md"))
}

func TestSetStatusFailAndReasons(t *testing.T) {
	doc := "## Tasks\n\n### A\n\n- Status: in_progress\n- Workflow: tdd\n"
	tasks, root := setup(t, map[string]string{"docs/a.md": doc})

	_, err := tasks.SetStatus(bg, "/a.md#a", taskdoc.StatusFailed, "  ")
	requireCode(t, err, taskdoc.CodeNoteRequired)
	assert.Equal(t, doc, filetest.Read(t, root, "docs/a.md"))

	_, err = tasks.SetStatus(bg, "/a.md#a", taskdoc.StatusBlocked, "waiting")
	require.NoError(t, err)
	// A new reason for a blocked task is recorded.
	got, err := tasks.SetStatus(bg, "/a.md#a", taskdoc.StatusBlocked, "still waiting")
	require.NoError(t, err)
	reason, _ := got.Field(taskdoc.KeyBlocked)
	assert.Equal(t, "still waiting", reason)
	// Failing a blocked task drops the block's reason for the error text.
	_, err = tasks.SetStatus(bg, "/a.md#a", taskdoc.StatusFailed, "gave up")
	require.NoError(t, err)
	assert.Equal(t, "## Tasks\n\n### A\n\n- Status: failed\n- Workflow: tdd\n- Error: gave up\n", filetest.Read(t, root, "docs/a.md"))
}

func TestSetStatusRefusals(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": opsInput(t)})
	for _, tt := range []struct {
		name    string
		address string
		to      taskdoc.Status
		code    taskdoc.Code
	}{
		{"completed needs a note", "/api/auth.md#write-docs", taskdoc.StatusCompleted, taskdoc.CodeInvalidTransition},
		{"unknown status", "/api/auth.md#write-docs", "done", taskdoc.CodeUnknownStatus},
		{"not in the table", "/api/auth.md#setup-keys", taskdoc.StatusFailed, taskdoc.CodeInvalidTransition},
		{"unknown task", "/api/auth.md#nope", taskdoc.StatusBlocked, taskdoc.CodeTaskNotFound},
		{"document address", "/api/auth.md", taskdoc.StatusBlocked, taskdoc.CodeSubagentRequiresSlug},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := filetest.Snapshot(t, root)
			_, err := tasks.SetStatus(bg, tt.address, tt.to, "why")
			requireCode(t, err, tt.code)
			assert.Equal(t, before, filetest.Snapshot(t, root))
		})
	}
}
