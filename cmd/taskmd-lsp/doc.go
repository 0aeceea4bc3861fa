// Command taskmd-lsp is a Language Server Protocol server for the tasks of
// a taskmd workspace, on stdin and stdout. It is a module of its own, so
// that the library and the taskmd command never depend on an LSP library;
// from a clone of taskmd (its go.mod points at the library beside it):
//
//	cd cmd/taskmd-lsp && go install .   # then: taskmd-lsp, or taskmd lsp
//
// An editor starts it on a workspace folder (the first workspace folder of
// the initialize request, or its rootUri) and gets, in the Markdown files
// of docs/ and in coordinator/active.md:
//
//   - diagnostics with taskmd's codes (source "taskmd"): repeated slugs,
//     unknown statuses, broken references and dependencies, a buffer that
//     disagrees with its file;
//   - an outline of the Tasks section (documentSymbol) and tasks across
//     the workspace by title or slug (workspace/symbol);
//   - hover, go to definition and completion on task headings, "@/"
//     references, Depends-On addresses, statuses and workflow names;
//   - code actions that start, complete, block, unblock, reopen and add a
//     task, and archive a finished coordinator list.
//
// It is a thin layer over package editor, which does all of that: the
// server turns the protocol's messages into calls of an editor.Session and
// its answers into the protocol's types, publishes diagnostics, and
// watches the workspace's folders for files that other processes change.
//
// # Edits
//
// The server never writes a document. A code action that needs nothing
// more (start, block, unblock, reopen, add a task) carries its edit: the
// few small TextEdits of the library's own change of the task, versioned,
// so that an editor refuses them once the buffer has changed. Complete
// needs a note: its code action carries the command taskmd.complete with
// the argument {"uri", "slug", "version"}; the editor asks the user for
// the note, adds it to the argument and sends workspace/executeCommand,
// and the server answers with a workspace/applyEdit of the change. The
// commands, each with one object argument:
//
//	taskmd.start    {uri, slug, version?}
//	taskmd.complete {uri, slug, version?, note}
//	taskmd.block    {uri, slug, version?, reason?}  (the reason goes in a Blocked field)
//	taskmd.unblock  {uri, slug, version?}
//	taskmd.reopen   {uri, slug, version?}
//	taskmd.addTask  {uri, slug?, version?, title}   (after slug; at the end without)
//	taskmd.archive  {}
//
// A version other than the buffer's is CONFLICT; without one the command
// applies to the buffer as it is. On coordinator/active.md, start and
// complete take the list's current task when the slug is left out. A
// command without what it needs is InvalidParams, saying what is missing;
// one the library refuses is RequestFailed with the taskmd code leading
// its message and as its data ({"code": "CONFLICT"}). taskmd.archive
// moves the finished coordinator list to archived/coordinator/ (the one
// change made on disk, refused while the list's buffer has unsaved
// changes) and tells the editor where it went.
//
// # Diagnostics
//
// Diagnostics carry the codes package editor documents (DUPLICATE_TASK,
// ...) and the source "taskmd". A change of one document can change what
// is wrong in another (a renamed task breaks a dependency on it), so after
// each change, once the editor has paused for 50 ms, the server computes
// the diagnostics of every open document and publishes those that changed,
// with the version of the buffer they were computed on.
//
// # Files changed on disk
//
// When a file changes on disk (an agent completed a task), a buffer
// without unsaved changes gets the edits that bring it to the file, and one
// with unsaved changes a BUFFER_DIFFERS_FROM_DISK diagnostic. The server
// learns of such changes from its own watch of docs/, coordinator/,
// workflows/ and .taskmd/, and from workspace/didChangeWatchedFiles.
//
// # Positions
//
// Positions count characters in UTF-8 bytes when the editor offers
// "utf-8" in general.positionEncodings, and in UTF-16 code units, the
// protocol's default, otherwise; the initialize result names the one
// chosen.
//
// # Concurrency
//
// Notifications (the buffers' changes) are handled one at a time, in the
// order the editor sent them, before the next message is read, so every
// request sees the buffers as the editor had them when it asked; requests
// run concurrently with each other and with what follows them.
//
// # Flags
//
//	-version  print the version and exit
//	-v        log every message to stderr
//
// The server logs to stderr; stdout carries only the protocol.
package main
