package editor

import "github.com/taskmd/taskmd/taskdoc"

// The codes of Diagnostics. They never change once released, so an editor
// may filter on them or offer fixes by them. Where a diagnostic means what
// an error of the library means, it has that error's code, and a task
// system refuses the same thing with it:
//
//   - taskdoc.CodeDuplicateTask: two tasks of the Tasks section have the
//     same slug, so no address can name either (Error, on each heading;
//     Related is the other).
//   - taskdoc.CodeUnknownStatus: a Status value that is not one of
//     taskdoc.Statuses (Error, on the value).
//   - taskdoc.CodeInvalidAddress: a Depends-On entry that is not a task
//     address, "#slug" or "/doc.md#slug" (Error, on the entry).
//   - taskdoc.CodeParse: front matter that does not decode as YAML or TOML
//     (Error, on the line the decoder names). The document still reads;
//     its front matter is kept as bytes.
//   - taskdoc.CodeInvalidUTF8: the document is not valid UTF-8 and does
//     not read at all (Error, on the first bad byte). It has no other
//     diagnostics.
//   - taskdoc.CodeTooComplex: the document is past one of taskdoc's limits
//     and does not read at all (Error, on the line that passes it). It has
//     no other diagnostics.
//   - taskdoc.CodeDependencyCycle: the task's dependencies lead back to
//     it, in its document or across documents, so no task of the cycle can
//     start (Error, on the Depends-On entry that leads on along the cycle,
//     one diagnostic per task of the cycle in the document; Related are the
//     other tasks of the cycle).
//   - taskdoc.CodeMisplacedMetadata: a task's metadata list is written
//     after its description, where it is not read (Error, from the list to
//     the end of its first line; see taskdoc.Document.Diagnostics).
//   - taskdoc.CodeMainWorkflowRequired: the first task of the coordinator's
//     list has no Main-Workflow field (Error, on its heading).
//
// The codes below are the editor's own.
const (
	// CodeReferenceNotFound: an "@/doc.md" reference in a task names a
	// document that does not exist (Warning, on the reference): the task
	// starts without it.
	CodeReferenceNotFound taskdoc.Code = "REFERENCE_NOT_FOUND"
	// CodeSectionNotFound: an "@/doc.md#section" reference names a section
	// anchor the document's outline does not have (Warning, on the anchor).
	CodeSectionNotFound taskdoc.Code = "SECTION_NOT_FOUND"
	// CodeWorkflowNotFound: a Workflow or Main-Workflow field names a
	// workflow with no workflows/<name>.md file (Warning, on the value):
	// the task starts without it.
	CodeWorkflowNotFound taskdoc.Code = "WORKFLOW_NOT_FOUND"
	// CodeDependencyNotFound: a Depends-On entry names a document or a
	// task that does not exist (Error, on the entry): the task waits for
	// it for ever.
	CodeDependencyNotFound taskdoc.Code = "DEPENDENCY_NOT_FOUND"
	// CodeHolderOffline: a task under way whose claim holder is offline:
	// its claim is stale and the next agent to claim it takes it over
	// (Warning, on its Assignee value, else its heading).
	CodeHolderOffline taskdoc.Code = "HOLDER_OFFLINE"
	// CodeCrossTaskLink: a link reference label ties the task to text
	// outside it (Warning, on the "[label]" in the task): the task defines
	// a label that text outside uses or defines too, or uses a label only
	// a definition outside it gives, so moving or removing the task would
	// change what a link means. See taskdoc.Document.CrossLinks.
	CodeCrossTaskLink taskdoc.Code = "CROSS_TASK_LINK"
	// CodeBufferDiffersFromDisk: the file changed on disk while the buffer
	// had unsaved changes (Warning, at the start of the buffer).
	CodeBufferDiffersFromDisk taskdoc.Code = "BUFFER_DIFFERS_FROM_DISK"
)
