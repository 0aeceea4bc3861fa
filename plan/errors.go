package plan

import (
	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
)

// The codes of the claim and dependency rules that a plan's writes answer.
const (
	// CodeStaleClaim: a write on a claimed task that does not present the
	// task's current claim (its holder and fencing token), because the
	// claim was taken over, released or replaced; it writes nothing.
	CodeStaleClaim = claims.CodeStaleClaim
	// CodeTaskBlocked: the task's Depends-On are not all done; it is not
	// claimed, started or completed yet.
	CodeTaskBlocked = taskflow.CodeTaskBlocked
)

// Sentinels of the codes, for errors.Is.
var (
	ErrStaleClaim  = claims.ErrStaleClaim
	ErrTaskBlocked = taskflow.ErrTaskBlocked
)
