// Package checkpoint keeps the task journal of the agent protocol: typed checkpoints
// that an agent records while it works on a task, so that it, another
// agent or a person can see what was done and pick the work up after a
// lost context.
//
// A journal belongs to one task of a plan document, addressed as the task
// systems address it ("/api/auth.md#implement-jwt-signing", relative to
// docs/). It is a Markdown file of its own, so that recording a checkpoint
// never rewrites the plan, and people can read it, annotate it and commit
// it. (Worker checkpoints, the pivot and checkpoint-resume protocols, will live in this package
// too; everything here is named for the journal.)
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
//	j := checkpoint.New(ws)
//	e, err := j.Add(ctx, "/api/auth.md#implement-jwt-signing", checkpoint.Entry{
//		Agent:        "worker-1",
//		Type:         checkpoint.TypeDecision,
//		Summary:      "Chose JWT over session cookies for stateless auth",
//		Detail:       `{"reason": "Better for API-first architecture"}`,
//		FilesChanged: []string{"src/auth/jwt.go"},
//		Key:          requestID, // a retry of this call adds nothing
//	})
//	recent, err := j.List(ctx, "/api/auth.md#implement-jwt-signing", checkpoint.Query{Limit: 5})
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
//
// # Worker checkpoints
//
// A worker checkpoint (the pivot and checkpoint-resume protocols) is what a worker saves when it
// stops part way (pivoted, or waiting for a clarification), so that it,
// a new worker or a person can resume: a WorkerCheckpoint. Workers
// (NewWorkers) keeps them; Render, ParseWorkerCheckpoint, JSON,
// ParseWorkerCheckpointJSON and Diff work on values.
//
//	w := checkpoint.NewWorkers(ws)
//	saved, err := w.Save(ctx, checkpoint.WorkerCheckpoint{
//		Worker: "worker-1", Task: "/api/users.md#add-rate-limiting",
//		Status: checkpoint.StatusPartial, Phase: "pivoted",
//		PivotMode: checkpoint.PivotGraceful, PivotReason: "Auth bug is blocking",
//		Completed:  []string{"Created `src/middleware/rateLimit.ts`"},
//		InProgress: []string{"Integration with routes"},
//		Remaining:  []string{"Tests for rate limiting"},
//	})
//	current, err := w.Get(ctx, "worker-1", 0) // 0: the newest
//	what := checkpoint.Diff(previous, current)
//
// Worker ids are 1 to 64 lower-case letters, digits, '_' and '-', starting
// with a letter or digit, as agent ids. The checkpoints of worker-1 are
// checkpoints/workers/worker-1/000001.md, 000002.md, ... (FolderWorkers;
// journals live in checkpoints/tasks/, so the two never meet). Save numbers
// a checkpoint one more than the worker's newest file and dates it with the
// clock, under a lock of the worker's folder, so checkpoints saved at once
// by goroutines or processes get distinct, increasing sequences; it creates
// the file atomically and durably (workspace) and never rewrites one, so
// the older files are the worker's history (List, newest first) and the
// newest is its current checkpoint. A checkpoint equal to the current one
// but for its time and sequence is a retry: Save writes nothing and returns
// the current one. ListWorkers gives the workers that have checkpoints,
// ListAll the newest checkpoints of each.
//
// A checkpoint is Markdown: YAML front matter with the machine fields, a
// title, then the sections that have something in them, in this order:
//
//	---
//	worker: "worker-1"
//	task: "/api/users.md#add-rate-limiting"
//	status: "PARTIAL"
//	phase: "pivoted"
//	pivot_mode: "graceful"
//	pivot_reason: "Auth bug is blocking"
//	clarification_id: "clarif_xyz789"
//	time: "2026-01-18T10:15:23Z"
//	sequence: 3
//	---
//
//	# Worker Checkpoint: worker-1
//
//	## Original Task
//
//	Add rate limiting to /api/users endpoint
//
//	## Completed
//
//	- [x] Created `src/middleware/rateLimit.ts`
//
//	## In Progress
//
//	- [ ] Integration with routes (50% done)
//
//	## Remaining
//
//	- [ ] Tests for rate limiting
//
//	## Blocked
//
//	- Supervision pattern selection (needs Q1 answer)
//
//	## Parallel Work Available
//
//	- File watching logic
//
//	## Files Changed
//
//	- `src/middleware/rateLimit.ts` (new)
//
//	## Decisions
//
//	- Token bucket over a fixed window
//
//	## Notes
//
//	Markdown text, kept as written.
//
//	## Resumption Instructions
//
//	1. Complete route integration in src/routes/posts.ts
//
//	## A heading of the worker's own
//
//	Extra sections come last, in their order.
//
// Every front matter value is written as a YAML double-quoted string (the
// sequence as a number), so no value is ever read as a boolean, number or
// mapping ("yes", "1.0", ": x"); characters that are not printable are
// escaped. Front matter keys are optional: a missing status is PARTIAL. The
// phase is a lower_snake word (working, waiting_clarification, pivoted,
// ...), the status PARTIAL, DONE or BLOCKED and the pivot mode graceful,
// immediate or hard, each in any case. List items are one line each
// (Render folds line breaks); an item starting with '[' or '\' gets a
// backslash, so that it never reads as a checkbox or loses one. Text
// sections (Original Task, Notes, Resumption Instructions and the extra
// sections) are Markdown kept as written, but for blank lines around them
// and line endings; a line in them that would read as a level-2 heading,
// outside a code block, and a code fence never closed are refused, since
// the first would start a section and the second hide the sections after
// it. Empty sections are left out. ParseWorkerCheckpoint reads back what
// Render writes as the value Render wrote.
//
// Reading takes hand edits: a BOM; CRLF or lone CR line endings; YAML
// values unquoted (a number or boolean is read as Go prints it) or TOML
// front matter; unknown front matter keys (ignored); no front matter at
// all; sections in any order, missing, or repeated (their items and texts
// are joined); headings in any case, with a final ':' or a parenthesis
// ("Files Changed (uncommitted)") and a few other names (Task, Done, Todo,
// Blockers, Parallel Work, Files, Resume Instructions); the pivot protocol's "##
// Status: PARTIAL" line (the front matter's status wins over it); "-", "*",
// "+" and ordered items, items wrapped onto the next lines; files written
// without backticks ("src/a.go (new)"). Skipped: the title and what comes
// before the first section, and in list sections the paragraphs, deeper
// headings and code blocks between items. A checked item under In Progress
// or Remaining is read as completed: it moves to the end of Completed.
// Level-2 headings of other names are extra sections, kept. Sections are
// level-2 headings outside code blocks, so a person's note needs "###".
//
// The JSON form uses the checkpoint-resume protocol's names. Fields the protocol lacks go into its
// context and metadata objects, so Markdown → JSON → Markdown loses
// nothing:
//
//	agentId                   Worker
//	timestamp                 Time
//	phase                     Phase
//	clarificationRequestId    Clarification
//	workState.completed       Completed
//	workState.inProgress      In Progress
//	workState.blocked         Blocked
//	workState.parallelWorkAvailable  Parallel Work Available
//	context.task              Task
//	context.originalTask      Original Task
//	context.remaining         Remaining
//	context.decisions         Decisions
//	context.filesChanged      Files Changed, [{"path", "note"}]
//	context.filesCreated, context.filesModified  the paths noted new (or
//	                          created) and modified, for readers of that form;
//	                          read only when filesChanged is absent
//	context.notes             Notes
//	context.sections          extra sections, [{"heading", "body"}]
//	resumeInstructions.text   Resumption Instructions
//	metadata.status           Status
//	metadata.sequence         Sequence
//	metadata.pivotMode        PivotMode
//	metadata.pivotReason      PivotReason
//
// The protocol's other fields (context.sessionContext, metadata.tokensBurned,
// ...) are ignored when read; see ParseWorkerCheckpointJSON.
//
// Bad input is a *taskdoc.Error and writes nothing: INVALID_ARGUMENTS for a
// value that breaks the rules above, INVALID_UTF8 and CONTROL_CHARACTER
// (any but tab and line breaks) for text, PARSE_ERROR with the line, column
// and an excerpt for a document or JSON that does not read.
//
// The words (journal entry, checkpoint, agent) are defined once in docs/vocabulary.md.
package checkpoint
