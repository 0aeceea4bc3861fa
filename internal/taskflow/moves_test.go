package taskflow_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/taskflow"
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
	allowed := map[taskflow.Move]map[pair]bool{
		taskflow.MoveStart:    union(set(p, i), set(pl, i), set(i, i), set(pa, i)),
		taskflow.MoveComplete: union(set(p, c), set(pl, c), set(i, c), set(pa, c), set(b, c), set(f, c)),
		taskflow.MoveUpdate: union(
			set(p, pl, i, b, s),
			set(pl, p, i, pa, b, f, s),
			set(i, p, pl, pa, b, f, s),
			set(pa, p, pl, i, b, f, s),
			set(b, p, pl, i, f, s),
			set(f, p, pl, i, s)),
		taskflow.MoveEdit: union(set(p, editable...), set(pl, editable...), set(i, editable...), set(pa, editable...),
			set(b, editable...), set(f, append([]taskdoc.Status{f}, editable...)...), set(c, c), set(s, s)),
		taskflow.MoveReopen: union(set(c, append([]taskdoc.Status{c}, editable...)...), set(s, editable...)),
	}
	require.Len(t, taskdoc.Statuses, 8)
	checked := 0
	for move, ok := range allowed {
		for _, from := range append(taskdoc.Statuses, "someday") {
			for _, to := range append(taskdoc.Statuses, "someday") {
				err := taskflow.CheckMove(move, from, to)
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
	to, ok := taskflow.MoveTarget(taskflow.MoveStart, p)
	assert.True(t, ok)
	assert.Equal(t, i, to)
	_, ok = taskflow.MoveTarget(taskflow.MoveStart, b)
	assert.False(t, ok)
	_, ok = taskflow.MoveTarget(taskflow.MoveEdit, p)
	assert.False(t, ok, "an edit has no single target")
}
