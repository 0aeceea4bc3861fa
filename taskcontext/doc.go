// Package taskcontext loads what a task needs to be worked on: the
// workflow prompt its Workflow field names (workflows/<name>.md), a
// coordinator list's Main-Workflow, and the documents and sections its
// @/path.md and @/path.md#section references name, followed recursively
// down to a depth limit.
//
// It sits between package workspace (files, confinement, locks) and the
// packages that start tasks (subagent, coordinator, the MCP tools), so that
// every one of them gets the same context by the same rules.
//
// # Workflows
//
// A workflow is named by its file name in workflows/, without ".md":
// "Workflow: tdd" is workflows/tdd.md. A name is never a path: one with a
// "/" or "\", a NUL byte or a line break, and "." or "..", cannot name a
// workflow file. A workflow file may open with YAML front matter whose
// title, description and whenToUse keys are read into Workflow; its
// Content is always the whole file, and front matter that does not decode
// only leaves the summary empty. A workflow has no sections: "tdd#red" is
// the file workflows/tdd#red.md.
//
// # References
//
// References are relative to docs/: "@/specs/jwt.md#token-lifetime" is the
// outline section with that GitHub anchor in docs/specs/jwt.md, from its
// heading to the next heading of the same or a higher level. The task's
// own references are depth 1; the references inside a loaded document (or
// inside a loaded section only) are depth 2, and so on up to
// Request.Depth. Documents are read breadth first, and each document or
// section is loaded once, at the shallowest depth it is reached from: a
// repeat, a cycle back, or a section of a document already loaded whole is
// cut. Each document is read and parsed once per call however many of its
// sections are referenced.
//
// # Missing or an error
//
// One rule decides, for workflows and references alike, whether a thing a
// task names that cannot be loaded is missing or an error.
//
// Missing: the file does not exist (DOCUMENT_NOT_FOUND), the name or path
// cannot name a file where it should be (INVALID_ADDRESS: a workflow name
// with "/" or "..", a reference like "@/../x.md", which is never read), or
// the referenced document has no section with that anchor. A missing thing
// is listed in Context.Missing, a workflow by its name and a reference by
// its raw text ("@/x.md#y"), once each and in the order met; loading goes
// on without it. A task naming something that is not there can still be
// worked on, and the caller tells its user.
//
// An error: every other failure. The file is a symbolic link
// (SYMLINK_REFUSED, wherever the link points), a linked folder leads
// outside the root (OUTSIDE_ROOT), the file is over the workspace's size
// limit (FILE_TOO_LARGE), is not UTF-8 (INVALID_UTF8), does not parse
// (PARSE_ERROR, for a referenced document), cannot be read (IO_ERROR), or
// the context was cancelled (IO_ERROR wrapping the context's error). These
// are something a person has to fix, and serving the task without the text
// it asks for would hide them. The error is a *taskdoc.Error naming the
// workflow or the reference, with the cause's Code, Line and Column, and
// the cause wrapped (errors.Is(err, context.Canceled) works).
//
// # Token budget
//
// A task's context is kept under a token budget (DefaultBudget, 8000, when
// none is given), as task_load_context's max_tokens asks
// (plan.LoadContext). Tokens are estimated, not counted: an Estimator is
// any func(text) int, and DefaultEstimator is a token per four bytes,
// never fewer than the words. The context is a list of parts, each of a
// kind; while the estimates of the parts add up to more than the budget,
// parts are dropped in this order, the first listed first:
//
//  1. checkpoint details, the oldest first;
//  2. checkpoints (heading, summary, files), the oldest first;
//  3. outcomes of tasks completed earlier, the oldest first;
//  4. referenced documents, the deepest first;
//  5. outcomes of the task's dependencies;
//  6. the Main-Workflow, then the task's Workflow;
//  7. the plan summary.
//
// The task itself is never dropped. The part that brings the total under
// the budget is cut short instead of dropped when it may be, ending with
// TruncationMark, and a task that alone is over the budget is cut to it.
// The Cut list reports what was dropped or shortened, and by how many
// tokens, so the caller can tell its agent what it is missing.
//
// # Example
//
//	tc, err := taskcontext.Load(ctx, ws, taskcontext.Request{Task: task, Depth: 3})
//	if err != nil {
//		return err // a person has to fix a file
//	}
//	// tc.Workflow, tc.References: the text to hand to the agent.
//	for _, m := range tc.Missing {
//		log.Printf("task names %s, which is not there", m)
//	}
//
// # Concurrency
//
// Loading is reading: it takes no lock and never writes. Workspace files
// are replaced atomically, so each file is read as one whole version; the
// files are read one after another, though, so a Context is not a snapshot
// of the workspace at one instant (a reference edited while Load runs may
// be seen before or after the edit). Every function is safe for concurrent
// use; a returned Context belongs to its caller.
package taskcontext
