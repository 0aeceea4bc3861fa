package taskdoc

import (
	"errors"
	"fmt"
	"strings"
)

// Code is a stable, machine-readable error code. Codes never change once
// released; MCP servers send them to agents as the first word of an error.
type Code string

// Error codes. Every error the library returns carries one of these.
const (
	// Input and addressing.
	CodeInvalidAddress       Code = "INVALID_ADDRESS"
	CodeSubagentRequiresSlug Code = "SUBAGENT_REQUIRES_SLUG"
	CodeInvalidNamespace     Code = "INVALID_NAMESPACE_FOR_SUBAGENT"
	CodeNoSlugAllowed        Code = "COORDINATOR_NO_SLUG_ALLOWED"
	CodeInvalidTask          Code = "INVALID_TASK"
	CodeUnknownStatus        Code = "UNKNOWN_STATUS"
	CodeNoteRequired         Code = "NOTE_REQUIRED"
	CodeInvalidUTF8          Code = "INVALID_UTF8"
	CodeParse                Code = "PARSE_ERROR"
	CodeInvalidArguments     Code = "INVALID_ARGUMENTS"

	// Tasks and documents.
	CodeTaskNotFound         Code = "TASK_NOT_FOUND"
	CodeDuplicateTask        Code = "DUPLICATE_TASK"
	CodeDocumentNotFound     Code = "DOCUMENT_NOT_FOUND"
	CodeInvalidTransition    Code = "INVALID_TRANSITION"
	CodeMainWorkflowRequired Code = "MAIN_WORKFLOW_REQUIRED"
	CodeNoAvailableTasks     Code = "NO_AVAILABLE_TASKS"
	CodeEditChangedOutside   Code = "EDIT_CHANGED_OUTSIDE"

	// Storage.
	CodeOutsideRoot  Code = "OUTSIDE_ROOT"
	CodeSymlink      Code = "SYMLINK_REFUSED"
	CodeFileTooLarge Code = "FILE_TOO_LARGE"
	CodeConflict     Code = "CONFLICT"
	CodeIO           Code = "IO_ERROR"
)

// Error is the one error type of the library. Match a kind of failure with
// errors.Is against the sentinels below (ErrTaskNotFound, ...) and read the
// details with errors.As:
//
//	var e *taskdoc.Error
//	if errors.As(err, &e) && e.Code == taskdoc.CodeTaskNotFound { ... }
type Error struct {
	Code Code   // stable code, always set
	Path string // document path as the caller gave it, if any
	Slug string // task slug, if any
	// Line and Column locate a parse error (1-based; 0 when unknown).
	Line, Column int
	// Available lists the task slugs that do exist, for TASK_NOT_FOUND.
	Available []string
	Msg       string // lower-case human message without the code
	Err       error  // wrapped cause, may be nil
}

// Error returns the message: it starts lower-case and names the path and
// slug. The code is not part of it; see Code.
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Msg != "":
		b.WriteString(e.Msg)
	case e.Code == CodeTaskNotFound && e.Slug != "":
		fmt.Fprintf(&b, "task %q not found", e.Slug)
		if e.Path != "" {
			fmt.Fprintf(&b, " in %s", e.Path)
		}
	case e.Code == CodeDuplicateTask && e.Slug != "":
		fmt.Fprintf(&b, "task %q already exists", e.Slug)
		if e.Path != "" {
			fmt.Fprintf(&b, " in %s", e.Path)
		}
	default:
		b.WriteString(strings.ToLower(strings.ReplaceAll(string(e.Code), "_", " ")))
		if e.Slug != "" {
			fmt.Fprintf(&b, ": %q", e.Slug)
		}
		if e.Path != "" {
			fmt.Fprintf(&b, " in %s", e.Path)
		}
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d, column %d)", e.Line, e.Column)
	}
	if len(e.Available) > 0 && e.Code == CodeTaskNotFound {
		b.WriteString("; available: ")
		b.WriteString(strings.Join(e.Available, ", "))
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, taskdoc.ErrTaskNotFound) matches every TASK_NOT_FOUND.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels, one per code, for errors.Is.
var (
	ErrInvalidAddress       = &Error{Code: CodeInvalidAddress}
	ErrSubagentRequiresSlug = &Error{Code: CodeSubagentRequiresSlug}
	ErrInvalidNamespace     = &Error{Code: CodeInvalidNamespace}
	ErrNoSlugAllowed        = &Error{Code: CodeNoSlugAllowed}
	ErrInvalidTask          = &Error{Code: CodeInvalidTask}
	ErrUnknownStatus        = &Error{Code: CodeUnknownStatus}
	ErrNoteRequired         = &Error{Code: CodeNoteRequired}
	ErrInvalidUTF8          = &Error{Code: CodeInvalidUTF8}
	ErrParse                = &Error{Code: CodeParse}
	ErrInvalidArguments     = &Error{Code: CodeInvalidArguments}
	ErrTaskNotFound         = &Error{Code: CodeTaskNotFound}
	ErrDuplicateTask        = &Error{Code: CodeDuplicateTask}
	ErrDocumentNotFound     = &Error{Code: CodeDocumentNotFound}
	ErrInvalidTransition    = &Error{Code: CodeInvalidTransition}
	ErrMainWorkflowRequired = &Error{Code: CodeMainWorkflowRequired}
	ErrNoAvailableTasks     = &Error{Code: CodeNoAvailableTasks}
	ErrEditChangedOutside   = &Error{Code: CodeEditChangedOutside}
	ErrOutsideRoot          = &Error{Code: CodeOutsideRoot}
	ErrSymlink              = &Error{Code: CodeSymlink}
	ErrFileTooLarge         = &Error{Code: CodeFileTooLarge}
	ErrConflict             = &Error{Code: CodeConflict}
	ErrIO                   = &Error{Code: CodeIO}
)

// CodeOf returns the Code of the first *Error in err's chain, or "" if none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
