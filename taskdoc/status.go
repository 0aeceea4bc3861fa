package taskdoc

import "strings"

// Status is the state of a task as written in its Status field.
type Status string

// The statuses a task can have. A task without a Status field is pending.
const (
	StatusPending    Status = "pending"
	StatusInProgress Status = "in_progress"
	StatusCompleted  Status = "completed"
	StatusBlocked    Status = "blocked"
)

// knownStatuses lists the statuses ParseStatus accepts, in the order they
// are shown to a caller who gave an unknown one.
var knownStatuses = []Status{StatusPending, StatusInProgress, StatusCompleted, StatusBlocked}

// ParseStatus reads a status the way people write it: surrounding space is
// ignored and case does not matter. Anything else is ErrUnknownStatus.
func ParseStatus(s string) (Status, error) {
	v := Status(strings.ToLower(strings.TrimSpace(s)))
	for _, k := range knownStatuses {
		if v == k {
			return k, nil
		}
	}
	names := make([]string, len(knownStatuses))
	for i, k := range knownStatuses {
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
