package worker

import "github.com/taskmd/taskmd/taskdoc"

// The codes of the worker's rules.
const (
	// CodeNoAck: a worker did not acknowledge a pivot within the wait
	// (Pivots.Wait); a hard pivot takes its task back without it.
	CodeNoAck taskdoc.Code = "NO_ACK"
	// CodeSuspended: no answer to a worker's clarification request came
	// during its brief poll; its checkpoint is saved and the worker must
	// exit. Its parent resumes it when the answer arrives.
	CodeSuspended taskdoc.Code = "SUSPENDED"
)

// ErrSuspended is the error Await returns when no answer came during the
// brief poll: the worker's checkpoint is saved, and the worker must exit
// (and spend nothing more) at once. Match it with errors.Is; its code is
// SUSPENDED.
var ErrSuspended = &taskdoc.Error{Code: CodeSuspended}
