package taskdoc

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taskmd/taskmd/internal/plaintext"
)

// NewTask is a task to add.
type NewTask struct {
	Title   string // required, single line
	Content string // "- Status: pending\n- Workflow: x\n\nbody\n\n@/specs/y.md" (the form callers send)
	After   string // slug to insert after; "" appends at the end of the Tasks section
}

// Edit replaces a task's title, content or both.
type Edit struct {
	Title   string // "" keeps the title
	Content string // "" keeps the content
	// Reopen says the caller means to take a completed task out of
	// completed (or change its Completed or Note). EditTask applies no
	// status rules itself; the task systems refuse such an edit without
	// it, so that a writer holding content read before the completion
	// cannot undo it by accident.
	Reopen bool
	// IfVersion, when set, is the Task.Version the caller read; the task
	// systems refuse the edit with CONFLICT when the task has changed since.
	// EditTask itself does not check it.
	IfVersion string
}

// change replaces src[start:end] with text.
type change struct {
	start, end int
	text       string
}

// splice applies changes, sorted and not overlapping, to src.
func splice(src []byte, cs []change) []byte {
	n := len(src)
	for _, c := range cs {
		n += len(c.text) - (c.end - c.start) + 2
	}
	out := make([]byte, 0, n)
	at := 0
	for _, c := range cs {
		out = append(out, src[at:c.start]...)
		out = append(out, keepLineEndings(src, c)...)
		at = c.end
	}
	return append(out, src[at:]...)
}

// keepLineEndings returns the change's text, made such that it cannot
// join a line ending next to it: in a document that mixes line endings, a
// lone "\r" and a "\n" that end up side by side would read as one "\r\n",
// losing a line. A "\n" is added to make such a "\r" a "\r\n" of its
// own.
func keepLineEndings(src []byte, c change) string {
	text := c.text
	var after byte
	if c.end < len(src) {
		after = src[c.end]
	}
	if text != "" && text[len(text)-1] == '\r' && after == '\n' {
		text += "\n"
	}
	if text != "" {
		after = text[0]
	}
	if c.start > 0 && src[c.start-1] == '\r' && after == '\n' {
		text = "\n" + text
	}
	return text
}

// editTask applies changes inside task i and verifies the result.
func (d *Document) editTask(i int, cs []change, content bool, check func(*Task) error) (*Document, *Task, error) {
	span := d.Tasks[i].Span
	out := splice(d.Source, cs)
	return d.finish(out, region{
		start: span.Start, oldEnd: span.End, newEnd: span.End + len(out) - len(d.Source),
		task: true, content: content, check: check, slug: d.Tasks[i].Slug,
	})
}

// editFields applies changes to task i's metadata. Beyond check, the
// result must keep the task's body as it read: new metadata lines must
// never take in body text (a lazy continuation, an indented line, a list
// with the same bullet), nor removed ones turn body text into metadata.
//
// A task whose metadata list is written after its description (see
// Diagnostics) is refused (CodeMisplacedMetadata): the edit would add a
// second list above the one the writer meant, which says otherwise.
// Refusing, rather than reading that list as the metadata, keeps one
// reading of the format for Parse, the edits and every tool that reads
// the Markdown; the error says how to fix the task.
func (d *Document) editFields(i int, cs []change, content bool, check func(*Task) error) (*Document, *Task, error) {
	if d.metas[i].misplaced != (Span{}) {
		return nil, nil, d.misplacedError(i)
	}
	return d.editTask(i, cs, content, func(t *Task) error {
		if t.Body != d.Tasks[i].Body {
			return &Error{Code: CodeEditChangedOutside, Slug: d.Tasks[i].Slug,
				Msg: "the edit would change how the body of " + quote(d.Tasks[i].Slug) + " reads; nothing was written"}
		}
		return check(t)
	})
}

// find returns the index of the task with the given slug.
func (d *Document) find(slug string) (int, error) {
	if _, err := d.Task(slug); err != nil {
		return -1, err
	}
	return d.bySlug[slug], nil
}

// SetStatus sets a task's Status field, adding it at the top of the
// metadata when it is missing. It validates s only: which transitions are
// allowed is the caller's rule.
func (d *Document) SetStatus(slug string, s Status) (*Document, *Task, error) {
	status, err := ParseStatus(string(s))
	if err != nil {
		return nil, nil, withSlug(err, slug)
	}
	i, err := d.find(slug)
	if err != nil {
		return nil, nil, err
	}
	cs := d.fieldChanges(i, []fieldSet{{key: KeyStatus, value: string(status), top: true}})
	return d.editFields(i, cs, false, func(t *Task) error {
		if t.Status != status {
			return d.notShown(slug, "status "+quote(string(status)))
		}
		return nil
	})
}

// SetField sets a metadata field, replacing the value of an existing
// field with that key (matched ignoring case, its spelling kept) or adding
// an item at the end of the metadata list in the list's own bullet and
// indentation. The value must be a single line.
func (d *Document) SetField(slug, key, value string) (*Document, *Task, error) {
	if err := checkText(slug, callerText{"field key", key, ""}, callerText{"field value", value, ""}); err != nil {
		return nil, nil, err
	}
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if err := validField(slug, key, value); err != nil {
		return nil, nil, err
	}
	if strings.EqualFold(key, KeyStatus) {
		if _, err := ParseStatus(value); err != nil {
			return nil, nil, withSlug(err, slug)
		}
	}
	i, err := d.find(slug)
	if err != nil {
		return nil, nil, err
	}
	cs := d.fieldChanges(i, []fieldSet{{key: key, value: value, top: strings.EqualFold(key, KeyStatus)}})
	return d.editFields(i, cs, true, func(t *Task) error {
		if got, ok := t.Field(key); !ok || got != value {
			return &Error{Code: CodeInvalidTask, Slug: slug,
				Msg: "the value of " + quote(key) + " does not read back as written; it breaks the metadata list"}
		}
		return nil
	})
}

// IsFieldKey reports whether key reads back as a metadata field's key:
// at most 64 letters, digits, '-', '_' and inner spaces, starting with a
// letter or digit.
func IsFieldKey(key string) bool {
	k, colon, _, ok := keyValue([]byte(key + ":"))
	return ok && k == key && colon == len(key)+1
}

// validField checks a key and value written into a metadata list.
func validField(slug, key, value string) error {
	if !IsFieldKey(key) {
		return &Error{Code: CodeInvalidTask, Slug: slug,
			Msg: "invalid field key " + quote(key) + ": use letters, digits, '-', '_' and inner spaces"}
	}
	if strings.ContainsAny(value, "\r\n") {
		return &Error{Code: CodeInvalidTask, Slug: slug, Msg: "the value of " + quote(key) + " must be a single line"}
	}
	return nil
}

// RemoveField removes every field with the given key (ignoring case).
// Removing a field the task does not have changes nothing.
func (d *Document) RemoveField(slug, key string) (*Document, *Task, error) {
	i, err := d.find(slug)
	if err != nil {
		return nil, nil, err
	}
	key = strings.TrimSpace(key)
	cs := d.removeFieldChanges(i, key)
	if len(cs) == 0 {
		return d, &d.Tasks[i], nil
	}
	return d.editFields(i, cs, false, func(t *Task) error {
		if _, ok := t.Field(key); ok {
			return d.notShown(slug, "removal of "+quote(key))
		}
		return nil
	})
}

// Complete marks a task completed: Status: completed, Completed: the date
// (YYYY-MM-DD, in date's location) and Note: the note, in the task's
// metadata at the top, never after its body or sub-sections. The note is
// required; its lines are joined into one. A completed task cannot be
// completed again (ErrInvalidTransition).
func (d *Document) Complete(slug, note string, date time.Time) (*Document, *Task, error) {
	if err := checkText(slug, callerText{"note", note, ""}); err != nil {
		return nil, nil, err
	}
	note = plaintext.FoldLine(note)
	if note == "" {
		return nil, nil, &Error{Code: CodeNoteRequired, Slug: slug, Msg: "completing " + quote(slug) + " needs a note"}
	}
	i, err := d.find(slug)
	if err != nil {
		return nil, nil, err
	}
	if d.Tasks[i].Status == StatusCompleted {
		return nil, nil, &Error{Code: CodeInvalidTransition, Slug: slug, Msg: "task " + quote(slug) + " is already completed"}
	}
	day := date.Format(time.DateOnly)
	cs := d.fieldChanges(i, []fieldSet{
		{key: KeyStatus, value: string(StatusCompleted), top: true},
		{key: KeyCompleted, value: day},
		{key: KeyNote, value: note},
	})
	return d.editFields(i, cs, true, func(t *Task) error {
		completed, _ := t.Field(KeyCompleted)
		got, _ := t.Field(KeyNote)
		if t.Status != StatusCompleted || completed != day {
			return d.notShown(slug, "completion")
		}
		if got != note {
			return &Error{Code: CodeInvalidTask, Slug: slug, Msg: "the note does not read back as written in a metadata list"}
		}
		return nil
	})
}

// callerText is text a caller gives an edit to write, and what it is
// ("title", "content", "note", "field key", "field value"); replaces is
// the text of the document it takes the place of ("" when it adds).
type callerText struct{ what, text, replaces string }

// checkText refuses caller text that is not valid UTF-8 (Parse would
// refuse the result) or that adds a control character: NUL, the other C0
// controls but tab, line feed and carriage return, and DEL. A document
// may hold them (Parse reads them as text), but they are invisible, and
// no edit writes new ones; an edit that keeps those of the text it
// replaces (a task's Content written back) writes none new.
func checkText(slug string, texts ...callerText) error {
	for _, t := range texts {
		valid := utf8.ValidString(t.text)
		at := addedControlAt(t.text, t.replaces)
		if valid && at < 0 {
			continue
		}
		of := ""
		if slug != "" {
			of = " of task " + quote(slug)
		}
		if !valid {
			return &Error{Code: CodeInvalidUTF8, Slug: slug, Msg: "the " + t.what + of + " is not valid UTF-8"}
		}
		line, column := Position([]byte(t.text), at)
		where := "column " + itoa(column)
		if strings.ContainsAny(t.text, "\r\n") {
			where = "line " + itoa(line) + ", " + where
		}
		return &Error{Code: CodeControlCharacter, Slug: slug,
			Msg: fmt.Sprintf("the %s%s holds the control character U+%04X at %s; of the control characters only tab and line breaks may be written",
				t.what, of, controlRune(t.text[at:]), where)}
	}
	return nil
}

// CheckText refuses text a caller gives to be written into a document
// that is not valid UTF-8 (CodeInvalidUTF8) or holds a control character
// but tab and line breaks (CONTROL_CHARACTER), by the rule edits follow;
// what names the text in the message ("title", "summary").
func CheckText(what, text string) error {
	return checkText("", callerText{what, text, ""})
}

// addedControlAt is the offset in s of the first control character that
// an edit may not write (IsControl, but tab, line feed and carriage
// return) and that s holds more of than old, the text s replaces: the
// one past old's count of it. It is -1 when s adds none. s is valid UTF-8
// or the answer does not matter.
func addedControlAt(s, old string) int {
	var kept map[rune]int // what old holds, counted down as s uses it
	for i, r := range s {
		if !plaintext.IsControl(r) || r == '\t' || r == '\n' || r == '\r' {
			continue
		}
		if kept == nil {
			kept = map[rune]int{}
			for _, o := range old {
				if plaintext.IsControl(o) {
					kept[o]++
				}
			}
		}
		if kept[r] == 0 {
			return i
		}
		kept[r]--
	}
	return -1
}

// controlRune is the control character s starts with.
func controlRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// notShown reports an edit whose result does not show in the reparse.
func (d *Document) notShown(slug, what string) error {
	return &Error{Code: CodeEditChangedOutside, Slug: slug,
		Msg: "the " + what + " of " + quote(slug) + " does not show after the edit; nothing was written"}
}

func withSlug(err error, slug string) error {
	if e, ok := err.(*Error); ok {
		e.Slug = slug
	}
	return err
}

// AddTask adds a task at the end of the Tasks section, or right after the
// task After names, with a blank line before and after it. A document
// without a Tasks section gets a "## Tasks" section appended at its end.
// The title must be one line that has a slug not used by another task
// (ErrDuplicateTask); the content goes under the heading as it is given,
// with the document's line endings.
func (d *Document) AddTask(nt NewTask) (*Document, *Task, error) {
	if err := checkText(Slug(nt.Title), callerText{"title", nt.Title, ""}, callerText{"content", nt.Content, ""}); err != nil {
		return nil, nil, err
	}
	title, err := d.checkTitle(nt.Title, -1)
	if err != nil {
		return nil, nil, err
	}
	src, nl := d.text, d.Newline
	at := len(src)
	switch {
	case nt.After != "":
		i, err := d.find(nt.After)
		if err != nil {
			return nil, nil, err
		}
		at = d.Tasks[i].Span.End
	case d.TasksHeading != nil:
		at = d.TasksSpan.End
	}
	level := d.taskLevel()
	if level > 6 {
		return nil, nil, &Error{Code: CodeInvalidTask, Msg: "the Tasks heading is at level 6, so tasks cannot be one level deeper"}
	}
	text, _ := d.newTaskText(separator(src, at, nl), d.TasksHeading == nil, title, nt.Content,
		at < len(src), len(src) == 0 || src[len(src)-1] == '\n')
	out := splice(d.Source, []change{{at, at, text}})
	want := Slug(title)
	return placed(d.finish(out, region{
		start: at, oldEnd: at, newEnd: at + len(out) - len(src), task: true, content: true,
		section: d.TasksHeading == nil, slug: want,
		check: func(t *Task) error { return d.checkNewTitle(t, want, -1) },
	}))
}

// placed passes on the result of an edit that wrote a task's content,
// unless the content writes its metadata list below its description: no
// edit writes one (see editFields).
func placed(nd *Document, t *Task, err error) (*Document, *Task, error) {
	if err == nil {
		err = nd.checkPlacement(t)
	}
	if err != nil {
		return nil, nil, err
	}
	return nd, t, nil
}

// newTaskText is the text AddTask inserts for one task: sep (the line
// endings that give it a blank line before), the "## Tasks" heading when
// section, the task's heading and content, then a blank line when more
// text follows, or a final line ending when the document ends with one.
// head is the offset of the task's heading in text.
func (d *Document) newTaskText(sep string, section bool, title, content string, followed, endsLine bool) (text string, head int) {
	nl := d.Newline
	var b strings.Builder
	b.WriteString(sep)
	if section {
		b.WriteString("## Tasks" + nl + nl)
	}
	head = b.Len()
	b.WriteString(d.headingLine(d.taskLevel(), title))
	if c := formatContent(content, nl); c != "" {
		b.WriteString(nl + nl + c)
	}
	switch {
	case followed:
		b.WriteString(nl + nl)
	case endsLine:
		b.WriteString(nl)
	}
	return b.String(), head
}

// headingLine renders a new task heading: ATX, or setext when the
// Tasks heading is setext and the level allows it, to match the document.
func (d *Document) headingLine(level int, title string) string {
	if level <= 2 && d.TasksHeading != nil && !d.raw[d.headingAt(d.TasksHeading.Span.Start)].atx {
		return title + d.Newline + strings.Repeat("-", max(3, utf8.RuneCountInString(title)))
	}
	return strings.Repeat("#", level) + " " + title
}

// underline redraws a setext heading's underline to the new title's
// length, as people keep it.
func (d *Document) underline(t *Task, title string) change {
	src := d.text
	start := lineStart(src, t.HeadingSpan.End-1)
	end := contentEnd(src, start)
	line := bytes.TrimLeft(src[start:end], " ")
	indent := end - start - len(line)
	return change{start + indent, end, strings.Repeat(string(line[:1]), max(3, utf8.RuneCountInString(title)))}
}

// separator is what goes before new lines inserted at offset at so that
// they start a line after a blank one.
func separator(src []byte, at int, nl string) string {
	switch {
	case at == 0:
		return ""
	case src[at-1] != '\n':
		return nl + nl
	case isBlankLine(src, lineStart(src, at-1)):
		return ""
	default:
		return nl
	}
}

// formatContent prepares task content for the document: the document's
// line endings and no leading or trailing blank lines.
func formatContent(content, nl string) string {
	s := normaliseText([]byte(content))
	if nl != "\n" {
		s = strings.ReplaceAll(s, "\n", nl)
	}
	return s
}

// checkTitle validates a task title and its slug; self is the index of
// the task being renamed, or -1.
func (d *Document) checkTitle(title string, self int) (string, error) {
	title = strings.TrimSpace(title)
	switch {
	case title == "":
		return "", &Error{Code: CodeInvalidTask, Msg: "a task needs a title"}
	case strings.ContainsAny(title, "\r\n"):
		return "", &Error{Code: CodeInvalidTask, Msg: "a task title must be a single line: " + quote(title)}
	case Slug(title) == "":
		return "", &Error{Code: CodeInvalidTask, Msg: "the title " + quote(title) + " has no letter or digit to make a slug from"}
	}
	return title, d.checkSlugFree(Slug(title), self)
}

func (d *Document) checkSlugFree(slug string, self int) error {
	if i, ok := d.bySlug[slug]; ok && i != self {
		return ErrorAt(&Error{Code: CodeDuplicateTask, Slug: slug,
			Msg: "a task with the slug " + quote(slug) + " already exists"}, d.Source, d.Tasks[i].Span.Start)
	}
	return nil
}

// checkNewTitle verifies a new or renamed task as reparsed: its heading
// may read differently from the title as given (Markdown in it), but its
// slug must be usable and free.
func (d *Document) checkNewTitle(t *Task, want string, self int) error {
	if t.Slug == "" {
		return &Error{Code: CodeInvalidTask, Msg: "the title reads as an empty heading"}
	}
	if t.Slug != want {
		if err := d.checkSlugFree(t.Slug, self); err != nil {
			return err
		}
	}
	return nil
}

// EditTask replaces a task's title, its content (metadata and body), or
// both. Trailing blank lines before the next task stay as they are.
func (d *Document) EditTask(slug string, e Edit) (*Document, *Task, error) {
	i, err := d.find(slug)
	if err != nil {
		return nil, nil, err
	}
	if e.Title == "" && e.Content == "" {
		return d, &d.Tasks[i], nil
	}
	t, m := &d.Tasks[i], d.meta(i)
	src := d.text
	if err := checkText(slug, callerText{"title", e.Title, string(src[m.titleSpan.Start:m.titleSpan.End])},
		callerText{"content", e.Content, string(src[t.HeadingSpan.End:max(m.lastLine, t.HeadingSpan.End)])}); err != nil {
		return nil, nil, err
	}
	var cs []change
	want := t.Slug
	if e.Title != "" {
		title, err := d.checkTitle(e.Title, i)
		if err != nil {
			return nil, nil, withSlug(err, Slug(strings.TrimSpace(e.Title)))
		}
		want = Slug(title)
		text := title
		if m.atx && m.titleSpan.Start == m.titleSpan.End {
			text = " " + title // an empty "###" has no space to write after
		}
		cs = append(cs, change{m.titleSpan.Start, m.titleSpan.End, text})
		if !m.atx {
			cs = append(cs, d.underline(t, title))
		}
	}
	check := func(nt *Task) error { return d.checkNewTitle(nt, want, i) }
	if e.Content == "" {
		return d.editTask(i, cs, true, check) // a title alone writes no metadata
	}
	cs = append(cs, d.contentChange(t, m, formatContent(e.Content, d.Newline)))
	if m.misplaced != (Span{}) {
		// A task whose list was below its description already: its new
		// content is written as given (a round trip changes nothing), and
		// Diagnostics goes on reporting the list until it is moved up.
		return d.editTask(i, cs, true, check)
	}
	return placed(d.editTask(i, cs, true, check))
}

// contentChange replaces everything between the task's heading and its
// last non-blank line.
func (d *Document) contentChange(t *Task, m *taskMeta, content string) change {
	src, nl := d.text, d.Newline
	at := t.HeadingSpan.End
	if content == "" {
		return change{at, m.lastLine, ""}
	}
	text := nl + content
	end := max(m.lastLine, at)
	switch {
	case at > 0 && src[at-1] != '\n':
		text = nl + text
	case m.lastLine > at && src[m.lastLine-1] != '\n':
	case end < len(src) && !isBlankLine(src, end) && !isATXLine(src[end:lineEnd(src, end)]):
		// The text of a setext heading follows without a blank line
		// (after a fence or a rule, say): the new content's last
		// paragraph would take it in.
		text += nl + nl
	default:
		text += nl
	}
	return change{at, end, text}
}

// RemoveTask removes a task: its heading, content and the blank lines
// before the next task.
func (d *Document) RemoveTask(slug string) (*Document, error) {
	i, err := d.find(slug)
	if err != nil {
		return nil, err
	}
	span := d.Tasks[i].Span
	gap := ""
	if src := d.text; span.Start > 0 && span.End < len(src) && !isBlankLine(src, lineStart(src, span.Start-1)) &&
		!isATXLine(src[span.End:lineEnd(src, span.End)]) {
		// A setext heading follows the task and text precedes it: without
		// a blank line between them, that text would take in the
		// heading's.
		gap = d.Newline
	}
	out := splice(d.Source, []change{{span.Start, span.End, gap}})
	nd, _, err := d.finish(out, region{start: span.Start, oldEnd: span.End, newEnd: span.End + len(out) - len(d.Source), slug: slug})
	return nd, err
}
