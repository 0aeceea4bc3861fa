// Package editor serves editors: it reads and edits the tasks of a
// workspace the way an editor holds them, in open buffers that may not be
// saved, with every answer in the editor's line and character positions.
//
// A Session is one editor's view of a workspace. The documents open in the
// editor (Open, Change, Saved, Close) are their buffers: the Session reads
// the file of a document only while it is not open. On top of that view it
// gives what an editor shows and does for tasks:
//
//   - Diagnostics: problems in a document, each with a stable code;
//   - Symbols and WorkspaceSymbols: the Tasks section and its tasks, and
//     tasks across the workspace by title or slug;
//   - Hover, Definition and Complete on task headings, "@/" references,
//     Depends-On addresses, statuses and workflow names;
//   - Actions and Apply: start, complete, block, unblock, reopen and add a
//     task, each as the few small Edits that the library's byte-exact
//     change of the task makes to the buffer, never a rewrite of the
//     document; and Archive for a finished coordinator list.
//
// A Session never writes a document itself: its edits are for the editor
// to apply to its buffer, so that undo, the buffer's unsaved state and the
// user's own typing are never disturbed. Only Archive, which moves a file,
// writes, through package coordinator and only when the list's buffer has
// no unsaved changes.
//
// Positions count lines from 0 and characters in the Session's Encoding:
// UTF-16 code units by default, as the Language Server Protocol does, or
// UTF-8 bytes or code points when the editor asks for them. Lines end as
// everywhere in taskmd: at "\n", "\r\n" or a lone "\r".
//
// When a file changes on disk (an agent completed a task), DiskChanged
// reads it again: an open document without unsaved changes gets the edits
// that bring its buffer to the file, one with unsaved changes a
// diagnostic saying the buffer and the file disagree.
//
// cmd/taskmd-lsp is a Language Server Protocol server built on this
// package.
package editor
