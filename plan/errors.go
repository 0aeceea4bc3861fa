package plan

import "github.com/taskmd/taskmd/internal/claims"

// CodeStaleClaim: a write on a claimed task that does not present the
// task's current claim (its holder and fencing token), because the claim
// was taken over, released or replaced; it writes nothing. A task whose
// dependencies are not done is taskdoc.CodeTaskBlocked, as in every task
// system.
const CodeStaleClaim = claims.CodeStaleClaim

// ErrStaleClaim matches every STALE_CLAIM with errors.Is.
var ErrStaleClaim = claims.ErrStaleClaim
