package subagent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

// authDoc has a task in every status.
const authDoc = `# Auth

## Tasks

### Pending one

- Status: pending

Waiting.

### Running

- Status: in_progress

Busy.

### Done

- Status: completed
- Completed: 2025-10-01
- Note: shipped

Finished.

### Stuck

- Status: blocked

Needs a key.

### Linked

- Status: pending

Reads @/outside.md
`

var availableAuth = []string{"pending-one", "running", "done", "stuck", "linked"}

// Every refused call: the error's code, the caller's path and slug on it,
// and no file changed.
func TestErrors(t *testing.T) {
	tests := []struct {
		name      string
		call      func(context.Context, *subagent.Tasks) error
		code      taskdoc.Code
		path      string
		slug      string
		available []string
	}{
		{"start without slug", start("/api/auth.md"), taskdoc.CodeSubagentRequiresSlug, "/api/auth.md", "", nil},
		{"complete without slug", complete("/api/auth.md", "x"), taskdoc.CodeSubagentRequiresSlug, "/api/auth.md", "", nil},
		{"edit without slug", edit("/api/auth.md", taskdoc.Edit{Title: "X"}), taskdoc.CodeSubagentRequiresSlug, "/api/auth.md", "", nil},
		{"start in the coordinator list", start("/coordinator/active.md#research"), taskdoc.CodeInvalidNamespace, "/coordinator/active.md", "research", nil},
		{"start the coordinator list without slug", start("/coordinator/active.md"), taskdoc.CodeInvalidNamespace, "/coordinator/active.md", "", nil},
		{"complete in an archive", complete("/archived/coordinator/active-2025-10-14-153045.md#x", "n"), taskdoc.CodeInvalidNamespace, "/archived/coordinator/active-2025-10-14-153045.md", "x", nil},
		{"create in the coordinator folder", create("/coordinator/active.md", taskdoc.NewTask{Title: "X"}), taskdoc.CodeInvalidNamespace, "/coordinator/active.md", "", nil},
		{"list the coordinator folder, other case", list("/Coordinator/active.md"), taskdoc.CodeInvalidNamespace, "/Coordinator/active.md", "", nil},
		{"unknown slug", start("/api/auth.md#nope"), taskdoc.CodeTaskNotFound, "/api/auth.md", "nope", availableAuth},
		{"unknown slug on complete", complete("/api/auth.md#nope", "n"), taskdoc.CodeTaskNotFound, "/api/auth.md", "nope", availableAuth},
		{"unknown slug on view", view("/api/auth.md", "running", "nope"), taskdoc.CodeTaskNotFound, "/api/auth.md", "nope", availableAuth},
		{"unknown slug on edit", edit("/api/auth.md#nope", taskdoc.Edit{Title: "X"}), taskdoc.CodeTaskNotFound, "/api/auth.md", "nope", availableAuth},
		{"start in a missing document", start("/api/missing.md#x"), taskdoc.CodeDocumentNotFound, "/api/missing.md", "x", nil},
		{"complete in a missing document", complete("/api/missing.md#x", "n"), taskdoc.CodeDocumentNotFound, "/api/missing.md", "x", nil},
		{"edit in a missing document", edit("/api/missing.md#x", taskdoc.Edit{Title: "Y"}), taskdoc.CodeDocumentNotFound, "/api/missing.md", "x", nil},
		{"list a missing document", list("/api/missing.md"), taskdoc.CodeDocumentNotFound, "/api/missing.md", "", nil},
		{"view a missing document", view("/api/missing.md"), taskdoc.CodeDocumentNotFound, "/api/missing.md", "", nil},
		{"create a duplicate", create("/api/auth.md", taskdoc.NewTask{Title: "Running"}), taskdoc.CodeDuplicateTask, "/api/auth.md", "", nil},
		{"create a duplicate by slug", create("/api/auth.md", taskdoc.NewTask{Title: "running!"}), taskdoc.CodeDuplicateTask, "/api/auth.md", "", nil},
		{"create the same task twice in one call", create("/api/auth.md", taskdoc.NewTask{Title: "New"}, taskdoc.NewTask{Title: "New"}), taskdoc.CodeDuplicateTask, "/api/auth.md", "", nil},
		{"create: the last of three fails, none is written", create("/api/new.md", taskdoc.NewTask{Title: "A"}, taskdoc.NewTask{Title: "B"}, taskdoc.NewTask{Title: "Stuck", Content: "- Status: nonsense"}), taskdoc.CodeUnknownStatus, "/api/new.md", "", nil},
		{"create with an unknown status", create("/api/auth.md", taskdoc.NewTask{Title: "New", Content: "- Status: finished"}), taskdoc.CodeUnknownStatus, "/api/auth.md", "", nil},
		{"create completed", create("/api/auth.md", taskdoc.NewTask{Title: "New", Content: "- Status: completed"}), taskdoc.CodeInvalidTask, "/api/auth.md", "", nil},
		{"create nothing", create("/api/auth.md"), taskdoc.CodeInvalidTask, "/api/auth.md", "", nil},
		{"create without title", create("/api/auth.md", taskdoc.NewTask{Content: "- Status: pending"}), taskdoc.CodeInvalidTask, "/api/auth.md", "", nil},
		{"create with a task address", create("/api/auth.md#running", taskdoc.NewTask{Title: "X"}), taskdoc.CodeInvalidAddress, "/api/auth.md", "running", nil},
		{"edit to a duplicate title", edit("/api/auth.md#pending-one", taskdoc.Edit{Title: "Running"}), taskdoc.CodeDuplicateTask, "/api/auth.md", "pending-one", nil},
		{"edit to completed", edit("/api/auth.md#running", taskdoc.Edit{Content: "- Status: completed\n\nBusy."}), taskdoc.CodeInvalidTransition, "/api/auth.md", "running", nil},
		{"edit to an unknown status", edit("/api/auth.md#running", taskdoc.Edit{Content: "- Status: halfway\n\nBusy."}), taskdoc.CodeUnknownStatus, "/api/auth.md", "running", nil},
		{"edit nothing", edit("/api/auth.md#running", taskdoc.Edit{}), taskdoc.CodeInvalidTask, "/api/auth.md", "running", nil},
		{"start a completed task", start("/api/auth.md#done"), taskdoc.CodeInvalidTransition, "/api/auth.md", "done", nil},
		{"start a blocked task", start("/api/auth.md#stuck"), taskdoc.CodeInvalidTransition, "/api/auth.md", "stuck", nil},
		{"complete twice", complete("/api/auth.md#done", "again"), taskdoc.CodeInvalidTransition, "/api/auth.md", "done", nil},
		{"complete without note", complete("/api/auth.md#running", ""), taskdoc.CodeNoteRequired, "/api/auth.md", "running", nil},
		{"complete with a blank note", complete("/api/auth.md#running", " \n\t "), taskdoc.CodeNoteRequired, "/api/auth.md", "running", nil},
		{"list an unknown status", list("/api/auth.md", "done"), taskdoc.CodeUnknownStatus, "/api/auth.md", "", nil},
		{"address outside docs", start("/api/../../etc/x.md#a"), taskdoc.CodeInvalidAddress, "/api/../../etc/x.md", "a", nil},
		{"address not a Markdown file", start("/api/auth.txt#a"), taskdoc.CodeInvalidAddress, "/api/auth.txt", "a", nil},
		{"empty address", start(""), taskdoc.CodeInvalidAddress, "", "", nil},
		{"empty slug", start("/api/auth.md#"), taskdoc.CodeInvalidAddress, "/api/auth.md", "", nil},
		{"document is a symbolic link", start("/links/auth.md#running"), taskdoc.CodeSymlink, "/links/auth.md", "running", nil},
		{"document is not UTF-8", start("/bad.md#x"), taskdoc.CodeInvalidUTF8, "/bad.md", "x", nil},
		{"start a task whose status a person mistyped", start("/odd.md#odd"), taskdoc.CodeUnknownStatus, "/odd.md", "odd", nil},
		{"complete a task whose status a person mistyped", complete("/odd.md#odd", "n"), taskdoc.CodeUnknownStatus, "/odd.md", "odd", nil},
		{"a reference is a symbolic link", start("/api/auth.md#linked"), taskdoc.CodeSymlink, "/api/auth.md", "linked", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tasks, root := setup(t, map[string]string{
				"docs/api/auth.md": authDoc,
				"docs/bad.md":      "# Bad\n\n## Tasks\n\n### X\n\n\xff\n",
				"secret.md":        "# Outside docs\n",
				"docs/odd.md":      "# Odd\n\n## Tasks\n\n### Odd\n\n- Status: finished\n",
			})
			require.NoError(t, os.MkdirAll(filepath.Join(root, "docs/links"), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(root, "docs/api/auth.md"), filepath.Join(root, "docs/links/auth.md")))
			require.NoError(t, os.Symlink(filepath.Join(root, "secret.md"), filepath.Join(root, "docs/outside.md")))
			before := filetest.Snapshot(t, root)

			err := tt.call(context.Background(), tasks)

			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code, "%v", err)
			assert.True(t, errors.Is(err, &taskdoc.Error{Code: tt.code}))
			assert.Equal(t, tt.path, e.Path, "path")
			if tt.slug != "" {
				assert.Equal(t, tt.slug, e.Slug, "slug")
			}
			if tt.available != nil {
				assert.Equal(t, tt.available, e.Available)
				assert.Contains(t, err.Error(), "available: "+availableAuth[0])
			}
			assert.NotContains(t, err.Error(), string(tt.code), "the message does not repeat the code")
			assert.Equal(t, before, filetest.Snapshot(t, root), "no file changed")
		})
	}
}

func start(address string) func(context.Context, *subagent.Tasks) error {
	return func(ctx context.Context, s *subagent.Tasks) error {
		_, err := s.Start(ctx, address)
		return err
	}
}

func complete(address, note string) func(context.Context, *subagent.Tasks) error {
	return func(ctx context.Context, s *subagent.Tasks) error {
		_, err := s.Complete(ctx, address, note)
		return err
	}
}

func edit(address string, e taskdoc.Edit) func(context.Context, *subagent.Tasks) error {
	return func(ctx context.Context, s *subagent.Tasks) error {
		_, err := s.Edit(ctx, address, e)
		return err
	}
}

func create(document string, tasks ...taskdoc.NewTask) func(context.Context, *subagent.Tasks) error {
	return func(ctx context.Context, s *subagent.Tasks) error {
		_, err := s.Create(ctx, document, tasks...)
		return err
	}
}

func list(document string, statuses ...taskdoc.Status) func(context.Context, *subagent.Tasks) error {
	return func(ctx context.Context, s *subagent.Tasks) error {
		_, err := s.List(ctx, document, statuses...)
		return err
	}
}

func view(document string, slugs ...string) func(context.Context, *subagent.Tasks) error {
	return func(ctx context.Context, s *subagent.Tasks) error {
		_, err := s.View(ctx, document, slugs...)
		return err
	}
}
