package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/taskdoc"
)

// Completed and skipped are final, and no other status is.
func TestStatusFinal(t *testing.T) {
	for _, st := range taskdoc.Statuses {
		assert.Equal(t, st == taskdoc.StatusCompleted || st == taskdoc.StatusSkipped, st.Final(), st)
	}
}

// An address knows the folder and the file it names.
func TestAddressFile(t *testing.T) {
	tests := []struct{ address, folder, file string }{
		{"/api/auth.md#x", taskdoc.FolderDocs, "docs/api/auth.md"},
		{"api/auth.md", taskdoc.FolderDocs, "docs/api/auth.md"},
		{"/docs/x.md", taskdoc.FolderDocs, "docs/docs/x.md"},
		{"/coordinator/active.md", taskdoc.FolderCoordinator, "coordinator/active.md"},
		{"/Coordinator/active.md", taskdoc.FolderCoordinator, "coordinator/active.md"},
		{"/archived/docs/a.md", taskdoc.FolderArchived, "archived/docs/a.md"},
		{"/coordinator.md", taskdoc.FolderDocs, "docs/coordinator.md"},
		{"/archivedx/a.md", taskdoc.FolderDocs, "docs/archivedx/a.md"},
	}
	for _, tt := range tests {
		a, err := taskdoc.ParseAddress(tt.address)
		if assert.NoError(t, err, tt.address) {
			assert.Equal(t, tt.folder, a.Folder(), tt.address)
			assert.Equal(t, tt.file, a.File(), tt.address)
		}
	}
}
