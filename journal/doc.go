// Package journal keeps the task journal of the agent protocol: typed
// checkpoints that an agent records while it works on a task, so that it,
// another agent or a person can see what was done and pick the work up
// after a lost context.
//
// A journal belongs to one task of a plan document, addressed as the task
// systems address it ("/api/auth.md#implement-jwt-signing", relative to
// docs/). It is a Markdown file of its own, so that recording a checkpoint
// never rewrites the plan, and people can read it, annotate it and commit
// it. The resumable state a worker saves when it stops part way (the pivot
// and checkpoint-resume protocols) is package checkpoint's.
//
// # Use
//
// Journal.Add records an Entry after each significant step: a Type (plan,
// progress, decision, error, recovery, complete), a one-line Summary, and
// optionally the Agent, free-text Detail (JSON the caller serialised, a log
// excerpt), the FilesChanged and a retry Key. Journal.List reads entries
// back, newest first: Query{Limit: 5} for the recent checkpoints of a
// starting agent, the zero Query for the whole history an agent needs
// after its context was cleared, Query{SinceSequence: n} for what is new
// since entry n, Query{Types: ...} for decisions or errors only.
//
//	j := journal.New(ws)
//	e, err := j.Add(ctx, "/api/auth.md#implement-jwt-signing", journal.Entry{
//		Agent:        "worker-1",
//		Type:         journal.TypeDecision,
//		Summary:      "Chose JWT over session cookies for stateless auth",
//		Detail:       `{"reason": "Better for API-first architecture"}`,
//		FilesChanged: []string{"src/auth/jwt.go"},
//		Key:          requestID, // a retry of this call adds nothing
//	})
//	recent, err := j.List(ctx, "/api/auth.md#implement-jwt-signing", journal.Query{Limit: 5})
//
// # Files
//
// The journal of "/api/auth.md#implement-jwt-signing" is
// checkpoints/tasks/api/auth.md/implement-jwt-signing.md: a folder named as the
// document's path, then the slug (the ".md" of the folder keeps one
// document's journals apart from another's: /api/auth.md#x and
// /api/auth/x.md.md#y cannot meet). A slug longer than 160 bytes is cut to
// 160 and followed by "-" and 16 hex digits of its SHA-256, so that every
// slug names a file and no two slugs the same one. Only tasks of documents under docs/ have journals: an
// address without a slug, or in /coordinator/ or /archived/, is
// INVALID_ADDRESS.
//
// # Format
//
// A journal is a level-1 title, then one section per entry, oldest first,
// separated by blank lines:
//
//	# Checkpoints: /api/auth.md#implement-jwt-signing
//
//	## 1 · plan · 2026-11-23T09:58:10Z · worker-1
//
//	Sign with RS256, keys from the vault
//
//	## 2 · decision · 2026-11-23T10:00:00Z · worker-1
//
//	Chose JWT over session cookies for stateless auth
//
//	- Files: `src/auth/jwt.go`, `src/auth/jwt_test.go`
//	- Key: `req-7f3a`
//
//	```json
//	{"reason": "Better for API-first architecture"}
//	```
//
// The heading of an entry is "## <sequence> · <type> · <time>", then
// " · <agent>" when the entry has one; the time is RFC 3339 in UTC, to the
// second. Under it come the summary as a paragraph, a list with "Files:"
// and "Key:" items when the entry has files or a key (each value a code
// span, delimited by one backtick more than the value's longest run of
// backticks), and the detail, when there is one, in a fenced code block
// whose fence is one backtick longer than the detail's longest run of
// backticks (and at least three), so that no line of any detail can close
// it. The fence is labelled json when the detail is a JSON object or array,
// text otherwise. A summary that starts with ASCII punctuation gets a
// backslash before it, so that it never reads as a heading, a list item or
// a fence; Markdown viewers show it without the backslash.
//
// What Add writes reads back as Add returned it: every summary, agent,
// key, file name and detail round-trips, except that line endings in a
// detail are stored as "\n" (see Journal.Add for what Add normalises).
//
// # Appending and hand edits
//
// Add never re-renders a journal: it keeps every byte of the file and
// appends the new section after a blank line, in the file's own line
// endings (a journal a Windows editor saved with CRLF gets CRLF sections),
// so people may annotate a journal freely. Reading is a line reader that
// takes this grammar and nothing more:
//
//   - A line is ended by "\n", "\r\n" or a lone "\r"; a BOM is skipped.
//   - An entry starts at a level-2 ATX heading whose text starts with a
//     digit, outside code blocks. Its summary is the paragraph after it
//     (lines a person wrapped are joined with spaces); its fields are the
//     bullet items that follow ("-", "*" or "+"; names in any case; a value
//     without backticks is read as written, files split at commas; other
//     items are skipped); its detail is a fenced code block (backticks or
//     tildes) if one comes next.
//   - Everything else is a person's and is skipped: the title, paragraphs,
//     other headings, lists and code blocks between entries, and what
//     follows an entry's detail. A "## 3 · ..." line inside a code block
//     is not a heading.
//
// A journal that does not follow the grammar where it matters is a
// PARSE_ERROR naming the journal file with the line, column and an excerpt
// of the line to repair, for List and for Add, which writes nothing until
// the file reads: an entry heading that does not parse (its sequence, type
// or time), an entry without a summary, sequences that do not increase
// down the file, or a code fence that is never closed (which would hide
// every entry after it, and every entry appended). Failing is the safer
// choice over skipping such an entry: a skipped entry is a checkpoint an
// agent resuming the task would never see, and a number Add would reuse. A
// person's heading that starts with a digit at level 2 is read as an entry
// heading; give notes other headings.
//
// # Sequences, times and retries
//
// Add numbers an entry one more than the last entry in the file (1 for the
// first), under the journal's lock, so the entries of a task are numbered
// 1, 2, 3, ... whatever number of goroutines and processes add to it. The
// time is the clock's (WithClock) when the lock is held. An entry with a
// Key that the journal holds already is a retry: Add returns the recorded
// entry and writes nothing (a Key repeated with another entry is
// CONFLICT).
//
// # Concurrency and crashes
//
// Add checks that the task exists in its plan document by reading the
// document without its lock (it never writes it: recording a checkpoint
// and editing the plan never wait for each other), then updates the
// journal under the journal's lock with workspace.Update: atomically and
// durably, so that a crash leaves the journal without the new entry or
// with all of it. List takes no lock. A task removed from the plan just
// after the check may get one more entry; its journal stays readable.
//
// Each Add rewrites the journal file (the old bytes and the new section),
// so its cost grows with the journal; the workspace's size limit (16 MiB
// by default) is where a journal is full, and an Add beyond it is
// FILE_TOO_LARGE.
package journal
