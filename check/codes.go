package check

import (
	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
)

// The codes of the problems found outside documents. A problem in a
// document has the code package editor's Diagnostics gives it (see
// editor's Code constants): DUPLICATE_TASK, UNKNOWN_STATUS, PARSE,
// MISPLACED_METADATA, DEPENDENCY_NOT_FOUND, DEPENDENCY_CYCLE,
// HOLDER_OFFLINE and the others there.
const (
	// CodeStrayTempFile: a temporary file a write killed before its
	// rename left behind (Warning, fixable: Fix removes it).
	CodeStrayTempFile taskdoc.Code = "STRAY_TEMP_FILE"
	// CodeStateNotIgnored: git does not ignore the state folder .taskmd/,
	// or files in it are committed (Warning; fixable when a .gitignore
	// line is all it takes: Fix adds ".taskmd/").
	CodeStateNotIgnored taskdoc.Code = "STATE_NOT_IGNORED"
	// CodeMergeDriverNotSet: git's config has no merge.taskmd.driver, or
	// .gitattributes does not send task documents to it, so git merges
	// them line by line (Warning, fixable: Fix sets it up as the taskmd
	// command's git-setup does).
	CodeMergeDriverNotSet taskdoc.Code = "MERGE_DRIVER_NOT_SET"
	// CodeMergeDriverNotRunnable: merge.taskmd.driver names a command that
	// is not found or not executable, so every merge of a task document
	// fails (Error, fixable: Fix sets up the command given WithCommand when
	// that one runs).
	CodeMergeDriverNotRunnable taskdoc.Code = "MERGE_DRIVER_NOT_RUNNABLE"
)

// hints say what to do about a problem, by code.
var hints = map[taskdoc.Code]string{
	taskdoc.CodeDuplicateTask:        "rename one of the tasks so that their headings differ",
	taskdoc.CodeUnknownStatus:        "write one of the statuses (pending, in_progress, completed, blocked, ...)",
	taskdoc.CodeParse:                "fix the front matter so that it reads as YAML (---) or TOML (+++)",
	taskdoc.CodeInvalidUTF8:          "save the file as UTF-8",
	taskdoc.CodeTooComplex:           "split the document into smaller ones",
	taskdoc.CodeFileTooLarge:         "split the document into smaller ones",
	taskdoc.CodeMisplacedMetadata:    "move the metadata list right under the task's heading, above the description",
	taskdoc.CodeInvalidAddress:       "write #slug for a task of this document, /doc.md#slug for one of another",
	taskdoc.CodeDependencyCycle:      "remove one Depends-On entry of the cycle",
	taskdoc.CodeMainWorkflowRequired: "add \"- Main-Workflow: NAME\" to the list's first task",
	editor.CodeDependencyNotFound:    "fix the address, or remove the entry if the task is gone",
	editor.CodeReferenceNotFound:     "create the document, or fix the reference",
	editor.CodeSectionNotFound:       "fix the anchor to a heading of that document",
	editor.CodeWorkflowNotFound:      "create the workflow file under workflows/, or fix the name",
	editor.CodeHolderOffline:         "the next claim takes the task over (taskmd next DOC offers it); or set its status by hand",
	editor.CodeCrossTaskLink:         "define the link reference inside the task, or write the link inline",
	CodeStrayTempFile:                "taskmd check --fix removes it",
	CodeStateNotIgnored:              "taskmd check --fix adds .taskmd/ to .gitignore",
	CodeMergeDriverNotSet:            "taskmd check --fix (or taskmd git-setup) sets it up",
	CodeMergeDriverNotRunnable:       "put taskmd on the PATH, or run taskmd git-setup --command /path/to/taskmd",
}
