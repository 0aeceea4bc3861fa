package subagent

import "github.com/taskmd/taskmd/internal/taskflow"

// CodeTaskBlocked: the task's Depends-On are not all done (completed or
// skipped); it is not started or completed yet.
const CodeTaskBlocked = taskflow.CodeTaskBlocked

// ErrTaskBlocked matches every TASK_BLOCKED with errors.Is.
var ErrTaskBlocked = taskflow.ErrTaskBlocked
