package claims

import "github.com/taskmd/taskmd/taskdoc"

// CodeStaleClaim: a write on a claimed task that does not present the
// task's current claim (its holder and fencing token), because the claim
// was taken over, released or replaced; it writes nothing. File.Check is
// the one place that answers it; package plan exports it.
const CodeStaleClaim taskdoc.Code = "STALE_CLAIM"

// ErrStaleClaim matches every STALE_CLAIM with errors.Is.
var ErrStaleClaim = &taskdoc.Error{Code: CodeStaleClaim}
