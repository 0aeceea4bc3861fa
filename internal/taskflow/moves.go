package taskflow

import (
	"slices"

	"github.com/taskmd/taskmd/taskdoc"
)

// The status machine of the task systems: which operation may move a task
// from which status to which. taskdoc reads and writes statuses; the task
// systems decide which changes they make.

// A Move is one way a task's status changes, named after the operation
// that makes it.
type Move string

// The moves.
const (
	// MoveStart is a worker taking the task (a task system's Start).
	MoveStart Move = "start"
	// MoveComplete records the task's note and date (Complete).
	MoveComplete Move = "complete"
	// MoveEdit is a person or an agent writing the Status field by hand
	// (an edit of the task's content, or a field set).
	MoveEdit Move = "edit"
	// MoveReopen is an edit that asks, explicitly, to take a task out of
	// a final status (taskdoc.Edit.Reopen).
	MoveReopen Move = "reopen"
	// MoveUpdate is an agent reporting where its task stands (the agent protocol's
	// task_update_status): planning, pausing, failing with an error text,
	// skipping.
	MoveUpdate Move = "update"
)

// moves is the status machine: for each move, the statuses it may leave and
// the ones it may reach from each. Every write path checks its move here
// (CheckMove); a status a move does not list is refused as
// INVALID_TRANSITION. Starting a task in progress is allowed and changes
// nothing: a worker resuming after losing its context. Completed is
// reached only by Complete, with a note; an edit may set the other
// statuses but failed (which needs an error text: MoveUpdate) and cannot
// take a task out of a final status unless it asks to reopen it, so that a
// writer holding content read before the completion cannot undo it.
var moves = map[Move]map[taskdoc.Status][]taskdoc.Status{
	MoveStart: {
		taskdoc.StatusPending:    {taskdoc.StatusInProgress},
		taskdoc.StatusInProgress: {taskdoc.StatusInProgress},
		taskdoc.StatusPlanning:   {taskdoc.StatusInProgress},
		taskdoc.StatusPaused:     {taskdoc.StatusInProgress},
	},
	MoveComplete: {
		taskdoc.StatusPending:    {taskdoc.StatusCompleted},
		taskdoc.StatusPlanning:   {taskdoc.StatusCompleted},
		taskdoc.StatusInProgress: {taskdoc.StatusCompleted},
		taskdoc.StatusPaused:     {taskdoc.StatusCompleted},
		taskdoc.StatusBlocked:    {taskdoc.StatusCompleted},
		taskdoc.StatusFailed:     {taskdoc.StatusCompleted},
	},
	MoveUpdate: {
		taskdoc.StatusPending:    {taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusBlocked, taskdoc.StatusSkipped},
		taskdoc.StatusPlanning:   {taskdoc.StatusPending, taskdoc.StatusInProgress, taskdoc.StatusPaused, taskdoc.StatusBlocked, taskdoc.StatusFailed, taskdoc.StatusSkipped},
		taskdoc.StatusInProgress: {taskdoc.StatusPending, taskdoc.StatusPlanning, taskdoc.StatusPaused, taskdoc.StatusBlocked, taskdoc.StatusFailed, taskdoc.StatusSkipped},
		taskdoc.StatusPaused:     {taskdoc.StatusPending, taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusBlocked, taskdoc.StatusFailed, taskdoc.StatusSkipped},
		taskdoc.StatusBlocked:    {taskdoc.StatusPending, taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusFailed, taskdoc.StatusSkipped},
		taskdoc.StatusFailed:     {taskdoc.StatusPending, taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusSkipped},
	},
	MoveEdit: {
		taskdoc.StatusPending:    editable,
		taskdoc.StatusPlanning:   editable,
		taskdoc.StatusInProgress: editable,
		taskdoc.StatusPaused:     editable,
		taskdoc.StatusBlocked:    editable,
		taskdoc.StatusFailed:     append([]taskdoc.Status{taskdoc.StatusFailed}, editable...),
		taskdoc.StatusCompleted:  {taskdoc.StatusCompleted},
		taskdoc.StatusSkipped:    {taskdoc.StatusSkipped},
	},
	MoveReopen: {
		taskdoc.StatusCompleted: append([]taskdoc.Status{taskdoc.StatusCompleted}, editable...),
		taskdoc.StatusSkipped:   editable,
	},
}

// editable is what an edit may write: every status but completed (only
// Complete, with a note) and failed (MoveUpdate, with an error text).
var editable = []taskdoc.Status{taskdoc.StatusPending, taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusPaused, taskdoc.StatusBlocked, taskdoc.StatusSkipped}

// CheckMove reports whether move may take a task from status from to
// status to: nil when it may, INVALID_TRANSITION when it may not.
func CheckMove(move Move, from, to taskdoc.Status) error {
	if slices.Contains(moves[move][from], to) {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidTransition,
		Msg: "a " + string(move) + " cannot take a task from " + string(from) + " to " + string(to)}
}

// MoveTarget returns the status move leads to from status from when there is
// exactly one (start and complete), and whether move may leave from at all.
func MoveTarget(move Move, from taskdoc.Status) (taskdoc.Status, bool) {
	to := moves[move][from]
	if len(to) != 1 {
		return "", false
	}
	return to[0], true
}
