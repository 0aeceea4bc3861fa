// Package checkpoint keeps worker checkpoints, the state of the pivot and
// checkpoint-resume protocols: what a worker saves when it stops part way
// (pivoted, or waiting for a clarification), so that it, a new worker or a
// person can resume: a Checkpoint. A Store (New) keeps them; Render, Parse,
// JSON, ParseJSON and Diff work on values. The journal of typed entries an
// agent appends to a task while it works is package journal's.
//
//	w := checkpoint.New(ws)
//	saved, err := w.Save(ctx, checkpoint.Checkpoint{
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
// task journals live in checkpoints/tasks/, so the two never meet). Save numbers
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
// it. Empty sections are left out. Parse reads back what
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
// ...) are ignored when read; see ParseJSON.
//
// Bad input is a *taskdoc.Error and writes nothing: INVALID_ARGUMENTS for a
// value that breaks the rules above, INVALID_UTF8 and CONTROL_CHARACTER
// (any but tab and line breaks) for text, PARSE_ERROR with the line, column
// and an excerpt for a document or JSON that does not read.
//
// The words (journal entry, checkpoint, agent) are defined once in docs/vocabulary.md.
package checkpoint
