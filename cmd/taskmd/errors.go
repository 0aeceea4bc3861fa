package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/merge"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
	"github.com/taskmd/taskmd/worktree"
)

// The tool's own codes, beside the library's.
const (
	codeUsage          taskdoc.Code = "USAGE"           // bad command line
	codeAlreadyClaimed taskdoc.Code = "ALREADY_CLAIMED" // claim: another online agent holds the task
	codeOther          taskdoc.Code = "ERROR"           // an error without a code
)

// Exit statuses, by kind of error.
const (
	exitOK        = 0
	exitOther     = 1 // I/O and anything without a code
	exitUsage     = 2 // bad command line
	exitNotFound  = 3 // no such task, document, agent or request; nothing to start
	exitConflict  = 4 // the state does not allow it: changed meanwhile, stale or held claim, wrong status, duplicate
	exitInvalid   = 5 // the input is wrong: address, status, text, file
	exitSuspended = 6 // the worker waits for an answer (SUSPENDED)
	exitNoAck     = 7 // a pivot was not acknowledged in time (NO_ACK)
)

// exitCodes is the one table from error codes to exit statuses; a code it
// does not list exits with exitOther.
var exitCodes = map[taskdoc.Code]int{
	codeUsage: exitUsage,

	taskdoc.CodeTaskNotFound:      exitNotFound,
	taskdoc.CodeDocumentNotFound:  exitNotFound,
	agent.CodeAgentNotFound:       exitNotFound,
	taskdoc.CodeNoAvailableTasks:  exitNotFound,
	worktree.CodeWorktreeNotFound: exitNotFound,
	workspace.CodeNoWorkspace:     exitNotFound,
	codeNotInstalled:              exitNotFound,

	taskdoc.CodeConflict:          exitConflict,
	plan.CodeStaleClaim:           exitConflict,
	codeAlreadyClaimed:            exitConflict,
	taskdoc.CodeDuplicateTask:     exitConflict,
	taskdoc.CodeInvalidTransition: exitConflict,
	taskdoc.CodeTaskBlocked:       exitConflict,
	merge.CodeMergeConflict:       exitConflict,

	taskdoc.CodeInvalidAddress:       exitInvalid,
	taskdoc.CodeSubagentRequiresSlug: exitInvalid,
	taskdoc.CodeInvalidNamespace:     exitInvalid,
	taskdoc.CodeNoSlugAllowed:        exitInvalid,
	taskdoc.CodeInvalidTask:          exitInvalid,
	taskdoc.CodeUnknownStatus:        exitInvalid,
	taskdoc.CodeNoteRequired:         exitInvalid,
	taskdoc.CodeInvalidUTF8:          exitInvalid,
	taskdoc.CodeParse:                exitInvalid,
	taskdoc.CodeInvalidArguments:     exitInvalid,
	taskdoc.CodeControlCharacter:     exitInvalid,
	taskdoc.CodeTooComplex:           exitInvalid,
	taskdoc.CodeDependencyCycle:      exitInvalid,
	taskdoc.CodeMainWorkflowRequired: exitInvalid,
	taskdoc.CodeEditChangedOutside:   exitInvalid,
	taskdoc.CodeMisplacedMetadata:    exitInvalid,
	taskdoc.CodeOutsideRoot:          exitInvalid,
	taskdoc.CodeSymlink:              exitInvalid,
	taskdoc.CodeFileTooLarge:         exitInvalid,
	codeProblems:                     exitInvalid,

	worker.CodeSuspended: exitSuspended,
	worker.CodeNoAck:     exitNoAck,
}

// errorJSON is an error as --json prints it on stderr.
type errorJSON struct {
	SchemaVersion int          `json:"schema_version"`
	Code          taskdoc.Code `json:"code"`
	Message       string       `json:"message"`
	Path          string       `json:"path,omitempty"`
	Slug          string       `json:"slug,omitempty"`
	Line          int          `json:"line,omitempty"`
	Column        int          `json:"column,omitempty"`
	Excerpt       string       `json:"excerpt,omitempty"`
	Available     []string     `json:"available,omitempty"`
	Exit          int          `json:"exit"`
}

// fail prints err on stderr ("taskmd: CODE: message", or one JSON object
// with --json) and returns the exit status for it. An interrupt never gets
// here: run exits 128 + the signal's number.
func (e *env) fail(err error) int {
	if err == nil {
		return exitOK
	}
	var status exitStatus
	if errors.As(err, &status) {
		return int(status) // the program the tool ran has said why
	}
	code := taskdoc.CodeOf(err)
	if code == "" {
		code = codeOther
	}
	exit, ok := exitCodes[code]
	if !ok {
		exit = exitOther
	}
	if !e.json {
		fmt.Fprintf(e.stderr, "taskmd: %s: %v\n", code, err)
		return exit
	}
	out := errorJSON{SchemaVersion: schemaVersion, Code: code, Message: err.Error(), Exit: exit}
	var te *taskdoc.Error
	if errors.As(err, &te) {
		out.Path, out.Slug, out.Available = te.Path, te.Slug, te.Available
		out.Line, out.Column, out.Excerpt = te.Line, te.Column, te.Excerpt
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(e.stderr, "%s\n", b)
	return exit
}
