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
