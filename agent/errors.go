package agent

import "github.com/taskmd/taskmd/taskdoc"

// CodeAgentNotFound: no agent is registered with the id (it never was, or
// it unregistered).
const CodeAgentNotFound taskdoc.Code = "AGENT_NOT_FOUND"

// ErrAgentNotFound matches every AGENT_NOT_FOUND with errors.Is.
var ErrAgentNotFound = &taskdoc.Error{Code: CodeAgentNotFound}
