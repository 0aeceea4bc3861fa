package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/taskdoc"
)

// The status machine of seed 003, move by move: start takes a pending task
// (and resumes one in progress), complete takes anything but a completed
// task, an edit sets any status but completed and keeps a completed task
// completed, and only an explicit reopen takes a task out of completed.
func TestStatusMoves(t *testing.T) {
	const (
		p = taskdoc.StatusPending
		i = taskdoc.StatusInProgress
		c = taskdoc.StatusCompleted
		b = taskdoc.StatusBlocked
	)
	allowed := map[taskdoc.Move]map[[2]taskdoc.Status]bool{
		taskdoc.MoveStart:    {{p, i}: true, {i, i}: true},
		taskdoc.MoveComplete: {{p, c}: true, {i, c}: true, {b, c}: true},
		taskdoc.MoveEdit: {
			{p, p}: true, {p, i}: true, {p, b}: true,
			{i, p}: true, {i, i}: true, {i, b}: true,
			{b, p}: true, {b, i}: true, {b, b}: true,
			{c, c}: true,
		},
		taskdoc.MoveReopen: {{c, p}: true, {c, i}: true, {c, b}: true, {c, c}: true},
	}
	for move, ok := range allowed {
		for _, from := range append(taskdoc.Statuses, "paused") {
			for _, to := range taskdoc.Statuses {
				err := taskdoc.CheckMove(move, from, to)
				if ok[[2]taskdoc.Status{from, to}] {
					assert.NoError(t, err, "%s %s -> %s", move, from, to)
				} else {
					assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition, "%s %s -> %s", move, from, to)
				}
			}
		}
	}
	to, ok := taskdoc.MoveTarget(taskdoc.MoveStart, p)
	assert.True(t, ok)
	assert.Equal(t, i, to)
	_, ok = taskdoc.MoveTarget(taskdoc.MoveStart, b)
	assert.False(t, ok)
	_, ok = taskdoc.MoveTarget(taskdoc.MoveEdit, p)
	assert.False(t, ok, "an edit has no single target")
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
