package mcptools

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// codeInvalidArguments is the code of a call whose arguments do not fit the
// tool: rejected by the input schema, or a field that the operation does not
// take.
const codeInvalidArguments = taskdoc.CodeInvalidArguments

// toolError is a failed call as the agent reads it: the stable code first,
// then the library's message, which names the document and the slug
// ("TASK_NOT_FOUND: task "x" not found in /api/auth.md; available: a, b").
// Agents branch on the code and show people the message.
type toolError struct {
	code taskdoc.Code
	err  error
	hint string // what the agent should probably do instead, or ""
}

// newToolError wraps a library error. Every library error carries a code; a
// bare error (a cancelled call) is reported as IO_ERROR rather than without
// a code, so that the text of every tool error starts with one.
func newToolError(err error) *toolError {
	code := taskdoc.CodeOf(err)
	if code == "" {
		code = taskdoc.CodeIO
	}
	return &toolError{code: code, err: err}
}

// argumentError reports arguments that the schema lets through but the
// operation cannot use.
func argumentError(format string, args ...any) error {
	return &taskdoc.Error{Code: codeInvalidArguments, Msg: fmt.Sprintf(format, args...)}
}

func (e *toolError) Error() string {
	if e.hint != "" {
		return string(e.code) + ": " + e.err.Error() + "; " + e.hint
	}
	return string(e.code) + ": " + e.err.Error()
}

// addressError is newToolError for a call on a subagent address. Other
// task servers write the docs/ folder into their addresses
// ("/docs/api/auth.md"), where addresses here are relative to docs/
// ("/api/auth.md"); a document not found under such an address gets the
// address the agent probably meant.
func addressError(address string, err error) *toolError {
	te := newToolError(err)
	if te.code == taskdoc.CodeDocumentNotFound && strings.HasPrefix(address, "/docs/") {
		te.hint = fmt.Sprintf("document addresses are relative to docs/: did you mean %s?",
			strings.TrimPrefix(address, "/docs"))
	}
	return te
}

func (e *toolError) Unwrap() error { return e.err }
