// Command lsp is a Language Server Protocol server for the tasks of a
// taskmd workspace, on stdin and stdout:
//
//	go build -o taskmd-lsp . && taskmd-lsp
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
// more carries its edit: a few small TextEdits, versioned, so that an
// editor refuses them once the buffer has changed. An action that needs
// input from the user runs as a command: the code action carries the
// command taskmd.complete (or taskmd.block, taskmd.addTask) with the
// argument {"uri", "slug", "version"}; the editor asks for the note (the
// reason, the title), adds it to the argument and sends
// workspace/executeCommand; the server answers with a workspace/applyEdit
// of the change. The commands, each with one object argument:
//
//	taskmd.start    {uri, slug, version?}
//	taskmd.complete {uri, slug, version?, note}
//	taskmd.block    {uri, slug, version?, reason?}
//	taskmd.unblock  {uri, slug, version?}
//	taskmd.reopen   {uri, slug, version?}
//	taskmd.addTask  {uri, slug?, version?, title}
//	taskmd.archive  {}
//
// A version other than the buffer's is CONFLICT. taskmd.archive moves the
// finished coordinator list to archived/coordinator/ (the one change made
// on disk, refused while the list's buffer has unsaved changes) and tells
// the editor where it went.
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
// # Flags
//
//	-version  print the version and exit
//	-v        log every message to stderr
//
// The server logs to stderr; stdout carries only the protocol.
package main
