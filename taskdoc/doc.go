// Package taskdoc reads and edits the tasks kept in plain Markdown
// documents, changing only the bytes of the task being edited.
//
// People keep these documents in git next to their specs and edit them by
// hand; agents edit them through this package. Every edit therefore
// gives the document's bytes with one task changed and every other byte
// exactly as it was: front matter, spacing, bullet characters, setext
// headings, escapes, line endings and a missing final newline all
// survive. The package never renders Markdown.
//
// taskdoc does no I/O: it takes bytes and returns documents, whose Source
// is the bytes to write. Reading, locking and writing files belong to the
// caller (see package workspace).
//
// # Format
//
// A document is CommonMark, optionally preceded by a byte order mark and
// by YAML ("---") or TOML ("+++") front matter, which is decoded into
// FrontMatter.Values and kept byte for byte. Front matter that does not
// decode is kept byte for byte too, as opaque bytes: the document parses,
// its tasks can be edited, and FrontMatter.Err says what is wrong with it
// (ParseFrontMatter returns that error). Lines end in "\n", "\r\n" or
// a lone "\r", mixed as they come, as in CommonMark. Any valid UTF-8 is
// read, control characters included, but edits write none (see Edits).
//
//	---
//	owner: platform-team
//	---
//	# Authentication
//
//	Free text, other sections, code, tables ... untouched.
//
//	## Tasks
//
//	### Implement JWT signing
//
//	- Status: pending
//	- Workflow: tdd-incremental-orchestration
//
//	Implement token signing logic.
//
//	@/specs/jwt-spec.md
//
//	### Add token validation
//
//	- Status: in_progress
//
//	Validate tokens in middleware.
//
// Headings come from goldmark's CommonMark parse, never from a pattern, so
// a "#" in a fenced or indented code block or an HTML block is not a
// heading, and setext headings ("Title" over "-----") are. Every heading
// is in the outline (Document.Headings) with its GitHub anchor; headings
// inside lists and block quotes are in the outline too, but only headings
// at the top level of the document delimit sections and tasks.
//
// The Tasks section starts at the first top-level heading whose text is
// "Tasks" (any case, any level) and ends at the next top-level heading of
// the same or a higher level. Its tasks are its top-level headings exactly
// one level deeper; a task runs to the next task or the end of the
// section, so deeper headings ("####" under "###") belong to the task's
// body. Text between the Tasks heading and the first task belongs to no
// task. A heading with a task's title anywhere else is never a task.
//
// A task's metadata is the bullet list ("-", "*" or "+") of "Key: value"
// items that directly follows its heading: the list counts when its first
// item is "Key: value", and each such item is a field (other items, and
// items nested under them, are kept but are not fields). A key is letters,
// digits, "-", "_" and inner spaces; keys match ignoring case and keep
// their spelling when written. Unknown keys are kept as they are. Two
// other forms, written by other task tools, are read too: a
// paragraph of "**Key:** value" lines right under the heading (before any
// list), and a list of only "Completed:" and "Note:" items at the very end
// of the task. A value wrapped onto further lines of its item reads as one
// line. The body is everything after the metadata.
//
// A metadata list written after the first paragraph of the body
// ("Description.", then "- Status: in_progress"), as people often write
// one, is not metadata: it is body text, and the task reads as it would
// without it. A list there counts as such when its first item is
// "Key: value" and it holds a Status with a known status or a Workflow,
// Main-Workflow, Depends-On, Assignee or Checkpoint field. Parse reports
// it in Document.Diagnostics (MISPLACED_METADATA, with its line and
// column), and the edits refuse to answer it with a second list: those
// that write a task's metadata refuse such a task, and AddTask and
// EditTask refuse content written that way into a task that did not have
// it, with CodeMisplacedMetadata saying to move the list above the
// description (EditTask of such a task writes its new content as given:
// a round trip changes nothing).
//
// Status is one of pending, planning, in_progress, paused, blocked,
// completed, failed and skipped (ParseStatus ignores case and surrounding
// space); completed and skipped are final. A task without a Status field is
// pending; a Status value that is not known is reported as written, in
// lower case, so that callers can see and fix it. Which moves between them
// the task systems (packages subagent and coordinator) allow is one table
// that they share:
//
//	start     pending, planning, paused -> in_progress (in_progress: a resume)
//	complete  anything not final -> completed (with a note)
//	update    between the working statuses, to failed (with an error text)
//	          and to skipped; failed -> pending, planning, in_progress
//	edit      any status but completed and failed; a final task stays final
//	reopen    completed, skipped -> any status an edit may write
//
// Documents have limits that no document a person writes comes near, and
// that keep the time and memory to read one in proportion to its size:
// lists and block quotes nested at most MaxNesting deep, at most
// MaxDefinitions lines that start a link reference definition, and at
// most MaxHeadings lines that may be a heading (and so at most that many
// tasks), MaxListItems list items and MaxLines lines; a document with more
// is to be split. Parse refuses a document
// past them with CodeTooComplex, pointing at the line where the limit is
// passed, after a scan of its lines and before any Markdown parse, so a
// pathological file costs microseconds per kilobyte. A heading whose text
// holds more than MaxHeadingMarkup markup characters is read as plain text.
//
// A reference is "@/path.md" or "@/path.md#section" in a task's body:
// the path is relative to the workspace's docs/ directory and the section
// is a heading anchor in that document (see Document.Section). Trailing
// punctuation is not part of a reference, and an "@" inside a word (as in
// an e-mail address) does not start one.
//
// # Addressing
//
// A task is addressed as "/api/auth.md#implement-jwt-signing": the
// document's path relative to docs/, then "#" and the task's slug (see
// ParseAddress). A slug is the GitHub anchor of the task's title (see
// Slug): "Add API: auth & tokens!" is "add-api-auth--tokens". Task slugs
// are unique within the Tasks section: AddTask and EditTask refuse to
// create a second (ErrDuplicateTask). A document edited by hand may still
// repeat a title; it parses, its other tasks work as usual, and the
// repeated slug is ErrDuplicateTask, with the lines of the tasks sharing
// it, wherever it is used as an address. The outline's anchors
// (Heading.Slug) are unique across the whole document the way GitHub
// makes them, "setup", "setup-1", "setup-2", and are what section
// references use; a task's slug never gets such a suffix.
//
// # Edits
//
// AddTask, EditTask, SetField, RemoveField, SetStatus, Complete and
// RemoveTask each return a new Document (its Source the new bytes) and,
// but for RemoveTask, the task as it reads there; the Document edited is
// not changed. Each edit splices bytes into the range of one task, then
// reparses that range and returns no document and an error when anything
// outside it changed meaning or the edit does not show: CodeInvalidTask
// when the caller's text is to blame (content holding a heading at the
// task's level or above, or an unclosed code fence or HTML comment that
// would swallow the next task), ErrEditChangedOutside otherwise. The check
// costs a parse of the edited task, not of the document, and the new
// Document is built from the old one and that parse, exactly as Parse
// would read the new bytes: see the comment on region in verify.go for why
// that is sound, and when it falls back to a full parse. AddTasks adds
// many tasks with the bytes and errors of one AddTask per task, but in one
// splice and one check when they go to one place in order, and returns
// the tasks it added.
//
// Link reference definitions reach across the document ("[x][spec]",
// "[spec][]" and "[spec]" anywhere are links when "spec" is defined
// anywhere, and the first definition of a label wins). An edit that
// changes what a label used outside the task resolves to (it adds the
// first definition of the label, or changes or removes the one that was
// first, for another destination or title) is therefore
// ErrEditChangedOutside, naming the label (matched as CommonMark matches
// labels: case-folded, spaces collapsed) and pointing at that use. A
// definition that an earlier one of the same label overrides changes
// nothing and is accepted; definitions and uses inside the task are the
// task's own. The text outside is scanned for "[label]", not parsed, so a
// label written in code counts as a use too: a refusal can be needless,
// but no accepted edit changes a link outside its task. Only edits that
// change a definition pay for the scan, and those that define a label
// text outside holds for a parse of the document.
//
// Edits write no control character (NUL, the other C0 controls but tab,
// line feed and carriage return, DEL, and the C1 controls U+0080 to
// U+009F): one in a title, content, note,
// field key or value is CONTROL_CHARACTER, naming it as U+00XX and
// where it is in that text. A title or content that EditTask writes in
// place of the task's own may keep the control characters that held (as
// many of each), so that a task's Content written back is accepted. An edit whose result would pass a limit is
// CodeTooComplex, so that every Document an edit returns parses.
//
// New lines follow the document: its line ending (that of its first line,
// written so that it cannot join a different one next to it into one
// "\r\n"), the bullet, indentation and key style of the metadata list
// they join, lower-case keys when all of the task's keys are lower-case,
// setext task headings when the Tasks heading is setext, and no final
// newline when the document has none. Decisions the format leaves open:
//
//   - SetStatus puts a missing Status first in the metadata; other new
//     fields go last. A task without metadata gets a "- Key: value" list
//     under its heading, with a blank line on each side; its bullet is
//     "*" when the body starts with a "-" list (which it would otherwise
//     join), and is followed by more spaces when the body's first line is
//     indented (which would otherwise continue the item). Likewise the
//     "* Completed:" list below "**Status:**" lines.
//   - Complete writes Status, Completed (YYYY-MM-DD in the location of the
//     time given) and Note into the metadata at the top of the task, never
//     after its body or sub-sections; an existing Completed or Note (a
//     reopened task) is replaced. A task in the "**Status:**" form gets a
//     "* Completed:"/"* Note:" list under that paragraph, since bold lines
//     run together when rendered. The note's line breaks become spaces, so
//     it stays one metadata item.
//   - Field values are single lines; SetField refuses line breaks.
//   - RemoveField removes every field with the key and, when that empties
//     the metadata list, the list and the blank line that separated it.
//     Removing a field the task does not have returns the Document itself.
//   - AddTask keeps a blank line before the new heading, adding line
//     endings before it when the text above does not end in one (those
//     bytes extend the task or heading above). A document without a Tasks
//     section gets "## Tasks" appended at its end. Content is written as
//     given, with the document's line endings and no leading or trailing
//     blank lines.
//   - A title is written as given, Markdown and all. Markdown in it can make
//     the heading's text, and so the slug, differ from Slug(title) ("a
//     <b>b</b>" reads as "a b"); the edit checks that slug instead, and
//     callers learn it from the task the edit returns.
//   - EditTask replaces the title in place (redrawing a setext underline to
//     the new length) and the content between the heading and the task's
//     last non-blank line, so the spacing before the next task stays.
//     Task.Content gives content that EditTask writes back unchanged in
//     meaning.
//   - RemoveTask removes the task's whole range: its heading, content and
//     the blank lines before the next task.
//
// Reparse is the read side of the same proof: given a later version of a
// document's bytes (another process completed a few of its tasks), it
// parses only the run of tasks that changed and builds the rest from the
// Document it is called on, or parses in full when the change reaches
// outside the tasks; the result is always what Parse gives.
//
// # Errors
//
// Every error is a *Error with a stable Code; match the kinds a caller
// handles with errors.Is against the sentinels (ErrTaskNotFound, ...) and
// any code with CodeOf (CodeOf(err) == CodeInvalidArguments). Errors
// point at the byte where the parser knows it: Offset, Line, Column (in
// characters, lines ended as in CommonMark, see Position) and an Excerpt
// of that line, which Error prints. Parse reports invalid UTF-8 (CodeInvalidUTF8) at the first
// bad byte and a document past a limit (CodeTooComplex) at the line that
// passes it, and refuses nothing else; front matter that does not decode
// is ErrParse at the line the decoder names, in FrontMatter.Err. Task
// reports a missing slug with the slugs that exist in Error.Available,
// and a repeated one as ErrDuplicateTask at its second task's heading. An
// edit refused for the heading or block it would write (CodeInvalidTask,
// ErrEditChangedOutside) points at it in the document it would have
// written, one refused for a link reference label at the text outside the
// task that uses it. Parse never panics.
//
// # Concurrency
//
// A *Document is immutable after Parse and safe for concurrent use by many
// goroutines, including concurrent edits of it. It does not retain
// goldmark's syntax tree.
//
// # Example
//
//	doc, err := taskdoc.Parse(src)
//	if err != nil {
//		return err
//	}
//	doc, task, err = doc.Complete("implement-jwt-signing", "Signed with RS256.", time.Now())
//	if err != nil {
//		return err // nothing to write
//	}
//	// doc.Source differs from src only inside task.Span; doc reads as
//	// Parse(doc.Source) would, ready for the next edit.
package taskdoc
