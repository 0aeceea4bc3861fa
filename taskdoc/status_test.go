package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// The status machine, every move from every status (and an unknown one) to
// every status: start takes a pending, planning or paused task (and
// resumes one in progress); complete takes anything not final; an update
// moves between the working statuses and to failed or skipped; an edit
// writes any status but completed and failed and keeps a final task where
// it is; only an explicit reopen leaves completed or skipped.
func TestStatusMoves(t *testing.T) {
	const (
		p  = taskdoc.StatusPending
		pl = taskdoc.StatusPlanning
		i  = taskdoc.StatusInProgress
		pa = taskdoc.StatusPaused
		b  = taskdoc.StatusBlocked
		c  = taskdoc.StatusCompleted
		f  = taskdoc.StatusFailed
		s  = taskdoc.StatusSkipped
	)
	type pair = [2]taskdoc.Status
	set := func(from taskdoc.Status, tos ...taskdoc.Status) map[pair]bool {
		m := map[pair]bool{}
		for _, to := range tos {
			m[pair{from, to}] = true
		}
		return m
	}
	union := func(ms ...map[pair]bool) map[pair]bool {
		out := map[pair]bool{}
		for _, m := range ms {
			for k := range m {
				out[k] = true
			}
		}
		return out
	}
	editable := []taskdoc.Status{p, pl, i, pa, b, s}
	allowed := map[taskdoc.Move]map[pair]bool{
		taskdoc.MoveStart:    union(set(p, i), set(pl, i), set(i, i), set(pa, i)),
		taskdoc.MoveComplete: union(set(p, c), set(pl, c), set(i, c), set(pa, c), set(b, c), set(f, c)),
		taskdoc.MoveUpdate: union(
			set(p, pl, i, b, s),
			set(pl, p, i, pa, b, f, s),
			set(i, p, pl, pa, b, f, s),
			set(pa, p, pl, i, b, f, s),
			set(b, p, pl, i, f, s),
			set(f, p, pl, i, s)),
		taskdoc.MoveEdit: union(set(p, editable...), set(pl, editable...), set(i, editable...), set(pa, editable...),
			set(b, editable...), set(f, append([]taskdoc.Status{f}, editable...)...), set(c, c), set(s, s)),
		taskdoc.MoveReopen: union(set(c, append([]taskdoc.Status{c}, editable...)...), set(s, editable...)),
	}
	require.Len(t, taskdoc.Statuses, 8)
	checked := 0
	for move, ok := range allowed {
		for _, from := range append(taskdoc.Statuses, "someday") {
			for _, to := range append(taskdoc.Statuses, "someday") {
				err := taskdoc.CheckMove(move, from, to)
				checked++
				if ok[pair{from, to}] {
					assert.NoError(t, err, "%s %s -> %s", move, from, to)
					continue
				}
				if assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition, "%s %s -> %s", move, from, to) {
					assert.Contains(t, err.Error(), string(from)+" to "+string(to))
				}
			}
		}
	}
	assert.Equal(t, 5*9*9, checked)
	for _, st := range taskdoc.Statuses {
		assert.Equal(t, st == c || st == s, st.Final(), st)
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
