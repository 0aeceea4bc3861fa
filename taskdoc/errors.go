package taskdoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Code is a stable, machine-readable error code. Codes never change once
// released; MCP servers send them to agents as the first word of an error.
type Code string

// Error codes of documents, addresses and the files that hold them. Each
// package above declares the codes of its own rules as Codes too: agent
// (AGENT_NOT_FOUND), plan (STALE_CLAIM), worker (NO_ACK, SUSPENDED), worktree
// (WORKTREE_NOT_FOUND, and GIT_ERROR for every git failure, gitsync's
// too) and merge (MERGE_CONFLICT). Every error the library returns carries
// a Code.
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
	CodeControlCharacter     Code = "CONTROL_CHARACTER"
	CodeTooComplex           Code = "DOCUMENT_TOO_COMPLEX"
	CodeDependencyCycle      Code = "DEPENDENCY_CYCLE"
	// CodeTaskBlocked: a task's Depends-On are not all done (completed or
	// skipped), so it is not claimed, started or completed yet; the message
	// names them. Every task system answers it.
	CodeTaskBlocked Code = "TASK_BLOCKED"

	// Tasks and documents.
	CodeTaskNotFound         Code = "TASK_NOT_FOUND"
	CodeDuplicateTask        Code = "DUPLICATE_TASK"
	CodeDocumentNotFound     Code = "DOCUMENT_NOT_FOUND"
	CodeInvalidTransition    Code = "INVALID_TRANSITION"
	CodeMainWorkflowRequired Code = "MAIN_WORKFLOW_REQUIRED"
	CodeNoAvailableTasks     Code = "NO_AVAILABLE_TASKS"
	CodeEditChangedOutside   Code = "EDIT_CHANGED_OUTSIDE"
	// CodeMisplacedMetadata: a task's metadata list is written after its
	// description, where it is not read (see Document.Diagnostics); an
	// edit of the task's metadata, or content written that way, is
	// refused until the list is moved right under the heading.
	CodeMisplacedMetadata Code = "MISPLACED_METADATA"

	// Storage.
	CodeOutsideRoot  Code = "OUTSIDE_ROOT"
	CodeSymlink      Code = "SYMLINK_REFUSED"
	CodeFileTooLarge Code = "FILE_TOO_LARGE"
	CodeConflict     Code = "CONFLICT"
	CodeIO           Code = "IO_ERROR"
	CodeNotOpen      Code = "WORKSPACE_NOT_OPEN" // a nil or zero workspace, not made by workspace.Open
)

// Error is the one error type of the library. Match a kind of failure with
// errors.Is against the sentinels (ErrTaskNotFound below, those of the
// packages above such as plan.ErrStaleClaim), any code with CodeOf, and
// read the details with errors.As:
//
//	var e *taskdoc.Error
//	if errors.As(err, &e) && e.Code == taskdoc.CodeTaskNotFound { ... }
type Error struct {
	Code Code   `json:"code"`           // stable code, always set
	Path string `json:"path,omitempty"` // document path as the caller gave it, if any
	Slug string `json:"slug,omitempty"` // task slug, if any
	// Line and Column (1-based; 0 when unknown) locate the error in a
	// document, Offset is the byte offset of that place (meaningful when
	// Line > 0) and Excerpt the line there, trimmed, in at most about 60
	// characters. Errors of Parse and CheckUTF8 and a repeated slug point
	// into the document read (Document.Source); an edit's refusal
	// (INVALID_TASK, EDIT_CHANGED_OUTSIDE) points into the document as the
	// edit would have written it, which it does not return: its lines
	// before the edited task are those of Document.Source.
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Offset  int    `json:"-"`
	Excerpt string `json:"excerpt,omitempty"`
	// Available lists the task slugs that do exist, for TASK_NOT_FOUND.
	Available []string `json:"available,omitempty"`
	// Current is, for a CONFLICT about a version (Edit.IfVersion,
	// Removal.IfVersion, workspace UpdateIf), the version the task or file
	// has now: read it again, or retry with it knowingly. "" when the file
	// does not exist, and for other errors.
	Current string `json:"current,omitempty"`
	Msg     string `json:"-"` // lower-case human message without the code; see Error
	Err     error  `json:"-"` // wrapped cause, may be nil
}

// MarshalJSON writes the error's fields with its whole message (Error) as
// "message", so that a JSON reader sees what a Go caller prints.
func (e *Error) MarshalJSON() ([]byte, error) {
	type fields Error // without the method, so that it does not recurse
	return json.Marshal(struct {
		*fields
		Message string `json:"message"`
	}{(*fields)(e), e.Error()})
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
		fmt.Fprintf(&b, " (line %d, column %d", e.Line, e.Column)
		if e.Excerpt != "" {
			fmt.Fprintf(&b, ": %q", e.Excerpt)
		}
		b.WriteString(")")
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

// ErrorAt points err, when it is an *Error that points nowhere yet, at the
// byte offset of src (Line, Column, Offset and an Excerpt of the line), and
// returns it: also for packages that report positions in files they read.
func ErrorAt(err error, src []byte, offset int) error {
	var e *Error
	if !errors.As(err, &e) || e.Line > 0 {
		return err
	}
	e.Offset = offset
	e.Line, e.Column = Position(src, offset)
	e.Excerpt = excerpt(src, offset)
	return err
}

// excerptRunes is about how many characters of a line an error quotes.
const excerptRunes = 60

// excerpt is the line of src holding offset, trimmed; a longer line is cut
// to excerptRunes characters around offset, "…" marking each cut. Bytes
// that are not UTF-8 are kept (the error quotes them escaped).
func excerpt(src []byte, offset int) string {
	offset = max(0, min(offset, len(src)))
	start := startOfLine(src, offset)
	end := len(src)
	if i := bytes.IndexAny(src[start:], "\r\n"); i >= 0 {
		end = start + i
	}
	line := src[start:end]
	trimmed := bytes.TrimLeft(line, " \t")
	at := max(0, offset-start-(len(line)-len(trimmed)))
	line = bytes.TrimRight(trimmed, " \t")
	if utf8.RuneCount(line) <= excerptRunes {
		return string(line)
	}
	// Keep the runes from a third of the width before the offset.
	from := 0
	if before := utf8.RuneCount(line[:min(at, len(line))]); before > excerptRunes/3 {
		from = runeOffset(line, before-excerptRunes/3)
	}
	to := runeOffset(line[from:], excerptRunes) + from
	out := string(line[from:to])
	if from > 0 {
		out = "…" + out
	}
	if to < len(line) {
		out += "…"
	}
	return out
}

// runeOffset is the byte offset of the n-th rune of b (len(b) past its
// end), counting each byte that is not UTF-8 as one rune.
func runeOffset(b []byte, n int) int {
	at := 0
	for ; n > 0 && at < len(b); n-- {
		_, size := utf8.DecodeRune(b[at:])
		at += size
	}
	return at
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, taskdoc.ErrTaskNotFound) matches every TASK_NOT_FOUND.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels, for errors.Is, of the failures a caller handles: a task or
// document that is not there, a change the task's state refuses, a write
// that lost a race, a document that does not read. The refusals of bad
// input and of storage (INVALID_ARGUMENTS, INVALID_ADDRESS, OUTSIDE_ROOT,
// IO_ERROR, ...) are reported rather than handled, and have none: match
// any code with CodeOf(err) == CodeInvalidArguments.
var (
	ErrParse              = &Error{Code: CodeParse}
	ErrTaskNotFound       = &Error{Code: CodeTaskNotFound}
	ErrDuplicateTask      = &Error{Code: CodeDuplicateTask}
	ErrDocumentNotFound   = &Error{Code: CodeDocumentNotFound}
	ErrInvalidTransition  = &Error{Code: CodeInvalidTransition}
	ErrTaskBlocked        = &Error{Code: CodeTaskBlocked}
	ErrNoAvailableTasks   = &Error{Code: CodeNoAvailableTasks}
	ErrEditChangedOutside = &Error{Code: CodeEditChangedOutside}
	ErrConflict           = &Error{Code: CodeConflict}
	ErrNotOpen            = &Error{Code: CodeNotOpen}
)

// CodeOf returns the Code of the first *Error in err's chain, or "" if none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
