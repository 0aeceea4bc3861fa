package taskdoc

import (
	"slices"
	"strings"
)

// Status is the state of a task as written in its Status field.
type Status string

// The statuses a task can have. A task without a Status field is pending.
const (
	StatusPending    Status = "pending"
	StatusInProgress Status = "in_progress"
	StatusCompleted  Status = "completed"
	StatusBlocked    Status = "blocked"
)

// Statuses lists every known status, in the order they are shown to a
// caller who gave an unknown one.
var Statuses = []Status{StatusPending, StatusInProgress, StatusCompleted, StatusBlocked}

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
	// completed (Edit.Reopen).
	MoveReopen Move = "reopen"
)

// moves is the status machine: for each move, the statuses it may leave and
// the ones it may reach from each. Every write path checks its move here
// (CheckMove); a status a move does not list is refused as
// INVALID_TRANSITION. Starting a task in progress is allowed and changes
// nothing: a worker resuming after losing its context. An edit may set any
// status but completed, which only Complete reaches, with a note; and it
// cannot take a task out of completed unless it asks to reopen it, so that
// a writer holding content read before the completion cannot undo it.
var moves = map[Move]map[Status][]Status{
	MoveStart: {
		StatusPending:    {StatusInProgress},
		StatusInProgress: {StatusInProgress},
	},
	MoveComplete: {
		StatusPending:    {StatusCompleted},
		StatusInProgress: {StatusCompleted},
		StatusBlocked:    {StatusCompleted},
	},
	MoveEdit: {
		StatusPending:    {StatusPending, StatusInProgress, StatusBlocked},
		StatusInProgress: {StatusPending, StatusInProgress, StatusBlocked},
		StatusBlocked:    {StatusPending, StatusInProgress, StatusBlocked},
		StatusCompleted:  {StatusCompleted},
	},
	MoveReopen: {
		StatusCompleted: {StatusPending, StatusInProgress, StatusBlocked, StatusCompleted},
	},
}

// CheckMove reports whether move may take a task from status from to
// status to: nil when it may, ErrInvalidTransition when it may not.
func CheckMove(move Move, from, to Status) error {
	if slices.Contains(moves[move][from], to) {
		return nil
	}
	return &Error{Code: CodeInvalidTransition,
		Msg: "a task cannot " + string(move) + " from " + string(from) + " to " + string(to)}
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
// ignored and case does not matter. Anything else is ErrUnknownStatus.
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
