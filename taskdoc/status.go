package taskdoc

import (
	"slices"
	"strings"
)

// Status is the state of a task as written in its Status field.
type Status string

// The statuses a task can have. A task without a Status field is pending.
// Completed and skipped are final: only an explicit reopen leaves them.
const (
	StatusPending    Status = "pending"     // not started
	StatusPlanning   Status = "planning"    // an agent is working out how
	StatusInProgress Status = "in_progress" // being worked on
	StatusPaused     Status = "paused"      // stopped on purpose, to be resumed
	StatusBlocked    Status = "blocked"     // waiting for something outside the task
	StatusCompleted  Status = "completed"   // done, with a note (the outcome)
	StatusFailed     Status = "failed"      // given up on, with an error text; may be tried again
	StatusSkipped    Status = "skipped"     // decided not to be done
)

// Statuses lists every known status, in the order they are shown to a
// caller who gave an unknown one.
var Statuses = []Status{StatusPending, StatusPlanning, StatusInProgress, StatusPaused,
	StatusBlocked, StatusCompleted, StatusFailed, StatusSkipped}

// Final reports whether s is completed or skipped: a task there stays
// there unless it is reopened.
func (s Status) Final() bool { return s == StatusCompleted || s == StatusSkipped }

// A Move is one way a task's status changes, named after the operation
// that makes it.
type Move string

// The moves.
const (
	// MoveStart is a worker taking the task (Start).
	MoveStart Move = "start"
	// MoveComplete records the task's note and date (Complete).
	MoveComplete Move = "complete"
	// MoveEdit is a person or an agent writing the Status field by hand
	// (an edit of the task's content, or SetField).
	MoveEdit Move = "edit"
	// MoveReopen is an edit that asks, explicitly, to take a task out of
	// a final status (Edit.Reopen).
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
var moves = map[Move]map[Status][]Status{
	MoveStart: {
		StatusPending:    {StatusInProgress},
		StatusInProgress: {StatusInProgress},
		StatusPlanning:   {StatusInProgress},
		StatusPaused:     {StatusInProgress},
	},
	MoveComplete: {
		StatusPending:    {StatusCompleted},
		StatusPlanning:   {StatusCompleted},
		StatusInProgress: {StatusCompleted},
		StatusPaused:     {StatusCompleted},
		StatusBlocked:    {StatusCompleted},
		StatusFailed:     {StatusCompleted},
	},
	MoveUpdate: {
		StatusPending:    {StatusPlanning, StatusInProgress, StatusBlocked, StatusSkipped},
		StatusPlanning:   {StatusPending, StatusInProgress, StatusPaused, StatusBlocked, StatusFailed, StatusSkipped},
		StatusInProgress: {StatusPending, StatusPlanning, StatusPaused, StatusBlocked, StatusFailed, StatusSkipped},
		StatusPaused:     {StatusPending, StatusPlanning, StatusInProgress, StatusBlocked, StatusFailed, StatusSkipped},
		StatusBlocked:    {StatusPending, StatusPlanning, StatusInProgress, StatusFailed, StatusSkipped},
		StatusFailed:     {StatusPending, StatusPlanning, StatusInProgress, StatusSkipped},
	},
	MoveEdit: {
		StatusPending:    editable,
		StatusPlanning:   editable,
		StatusInProgress: editable,
		StatusPaused:     editable,
		StatusBlocked:    editable,
		StatusFailed:     append([]Status{StatusFailed}, editable...),
		StatusCompleted:  {StatusCompleted},
		StatusSkipped:    {StatusSkipped},
	},
	MoveReopen: {
		StatusCompleted: append([]Status{StatusCompleted}, editable...),
		StatusSkipped:   editable,
	},
}

// editable is what an edit may write: every status but completed (only
// Complete, with a note) and failed (MoveUpdate, with an error text).
var editable = []Status{StatusPending, StatusPlanning, StatusInProgress, StatusPaused, StatusBlocked, StatusSkipped}

// CheckMove reports whether move may take a task from status from to
// status to: nil when it may, ErrInvalidTransition when it may not.
func CheckMove(move Move, from, to Status) error {
	if slices.Contains(moves[move][from], to) {
		return nil
	}
	return &Error{Code: CodeInvalidTransition,
		Msg: "a " + string(move) + " cannot take a task from " + string(from) + " to " + string(to)}
}

// MoveTarget returns the status move leads to from status from when there is
// exactly one (start and complete), and whether move may leave from at all.
func MoveTarget(move Move, from Status) (Status, bool) {
	to := moves[move][from]
	if len(to) != 1 {
		return "", false
	}
	return to[0], true
}

// ParseStatus reads a status the way people write it: surrounding space is
// ignored and case does not matter. Anything else is UNKNOWN_STATUS.
func ParseStatus(s string) (Status, error) {
	v := Status(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Statuses, v) {
		return v, nil
	}
	names := make([]string, len(Statuses))
	for i, k := range Statuses {
		names[i] = string(k)
	}
	return "", &Error{
		Code: CodeUnknownStatus,
		Msg:  "unknown status " + quote(s) + " (want one of " + strings.Join(names, ", ") + ")",
	}
}

// statusOf is the status a field value stands for. A value that is not a
// known status is kept in its normalised spelling rather than dropped, so a
// caller sees what the file says.
func statusOf(value string) Status {
	v := strings.ToLower(strings.TrimSpace(value))
	if v == "" {
		return StatusPending
	}
	return Status(v)
}
