package subagent_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// Setting the status a task has is a retry: nothing is written, not even a
// Status field for a task without one or a respelled status, and the
// reason is dropped; only a new reason of a blocked or failed task is
// written, as its one change.
func TestSetStatusSameStatus(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		to        taskdoc.Status
		reason    string
		want      string // "" for the document unchanged
	}{
		{"no Status field", "## Tasks\n\n### A\n\nno fields\n", taskdoc.StatusPending, "some reason", ""},
		{"spelled by hand", "## Tasks\n\n### A\n\n- Status: In_Progress\n", taskdoc.StatusInProgress, "some reason", ""},
		{"skipped", "## Tasks\n\n### A\n\n- Status: Skipped\n", taskdoc.StatusSkipped, "why", ""},
		{"blocked, same reason", "## Tasks\n\n### A\n\n- Status: Blocked\n- Blocked: vault\n", taskdoc.StatusBlocked, "vault", ""},
		{"blocked, no reason", "## Tasks\n\n### A\n\n- Status: Blocked\n- Blocked: vault\n", taskdoc.StatusBlocked, "", ""},
		{"blocked, new reason", "## Tasks\n\n### A\n\n- Status: Blocked\n- Blocked: vault\n\nbody\n", taskdoc.StatusBlocked, "keys",
			"## Tasks\n\n### A\n\n- Status: Blocked\n- Blocked: keys\n\nbody\n"},
		{"blocked, first reason", "## Tasks\n\n### A\n\n- Status: Blocked\n", taskdoc.StatusBlocked, "keys",
			"## Tasks\n\n### A\n\n- Status: Blocked\n- Blocked: keys\n"},
		{"failed, new reason", "## Tasks\n\n### A\n\n**Status:** FAILED\n**Error:** e1\n", taskdoc.StatusFailed, "e2",
			"## Tasks\n\n### A\n\n**Status:** FAILED\n**Error:** e2\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tasks, root := setup(t, map[string]string{"docs/a.md": tt.doc})
			got, err := tasks.SetStatus(bg, "/a.md#a", tt.to, tt.reason)
			require.NoError(t, err)
			assert.Equal(t, tt.to, got.Status)
			want := tt.want
			if want == "" {
				want = tt.doc
			}
			assert.Equal(t, want, filetest.Read(t, root, "docs/a.md"))
		})
	}
}
