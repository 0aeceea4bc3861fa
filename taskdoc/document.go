package taskdoc

import (
	"bytes"
	"strings"
)

// Span is a half-open range [Start, End) of byte offsets into
// Document.Source.
type Span struct{ Start, End int }

// FrontMatter is the YAML (---) or TOML (+++) block at the top of a
// document.
type FrontMatter struct {
	Raw    []byte         `json:"-"`                // exact bytes incl. delimiters and the closing line's newline; nil when none
	Format string         `json:"format,omitempty"` // "yaml", "toml" or ""
	Values map[string]any `json:"values,omitempty"` // decoded with adrg/frontmatter; nil when it does not decode
	// Err is why the front matter does not decode (a *Error, ErrParse,
	// pointing at the line the decoder names), or nil. Such front matter
	// is kept as opaque bytes: the document parses and can be edited.
	Err error `json:"-"`
}

// Heading is one heading of the document's outline.
type Heading struct {
	Level    int    `json:"level"`
	Text     string `json:"text"`      // plain text
	Slug     string `json:"slug"`      // outline anchor, unique in the document: "x", then "x-1", "x-2" (GitHub); Slug(Text) but for a line break (dropped) and space next to HTML at an end ("-")
	Line     int    `json:"line"`      // 1-based
	Span     Span   `json:"-"`         // start of the heading's first line .. end of its last line incl. line ending
	TopLevel bool   `json:"top_level"` // a direct child of the document (not inside a list or blockquote)
}

// Field is one "Key: value" item of a task's metadata.
type Field struct {
	Key   string `json:"key"`   // as written
	Value string `json:"value"` // trimmed
	Span  Span   `json:"-"`     // the whole item/line incl. its line ending
}

// Reference is an "@/path.md" or "@/path.md#section" mention in a task's
// body.
type Reference struct {
	Raw     string `json:"raw"`               // "@/specs/jwt-spec.md#section"
	Path    string `json:"path"`              // "/specs/jwt-spec.md" (relative to docs/)
	Section string `json:"section,omitempty"` // "section" or ""
}

// Task is one task of the Tasks section.
type Task struct {
	Title       string      `json:"title"`
	Slug        string      `json:"slug"` // the heading's GitHub anchor (see Heading.Slug), without a -1 suffix; unique within the Tasks section
	Level       int         `json:"level"`
	Status      Status      `json:"status"`               // StatusPending when there is no Status field
	Fields      []Field     `json:"fields,omitempty"`     // metadata in source order
	Body        string      `json:"body,omitempty"`       // text after the metadata, leading/trailing blank lines trimmed, line endings normalised to \n
	References  []Reference `json:"references,omitempty"` // every @/... in the body, in order, de-duplicated
	Line        int         `json:"line"`                 // 1-based, of the heading
	Span        Span        `json:"-"`                    // heading line start .. start of the next task or the end of the Tasks section
	HeadingSpan Span        `json:"-"`
	// Version changes whenever the task's text (heading to last non-blank
	// line) changes, and only then: an editor that read the task passes it
	// back (Edit.IfVersion) to learn that someone changed the task since,
	// whatever happened to the rest of the file.
	Version string `json:"version"`
}

// Field returns the value of the first field whose key matches key,
// ignoring case.
func (t *Task) Field(key string) (string, bool) {
	key = strings.TrimSpace(key)
	for _, f := range t.Fields {
		if strings.EqualFold(f.Key, key) {
			return f.Value, true
		}
	}
	return "", false
}

// Content returns the task's metadata and body in the form AddTask and
// EditTask take: one "- Key: value" line per field, a blank line, then
// the body, with \n line endings. Passing it back to EditTask keeps the
// task's meaning; fields the reference server wrote after the body move
// into the metadata list at the top.
func (t *Task) Content() string {
	var b strings.Builder
	for _, f := range t.Fields {
		b.WriteString("- " + f.Key + ": " + f.Value + "\n")
	}
	if t.Body != "" {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(t.Body)
	}
	return b.String()
}

// Document is a parsed Markdown document. It is immutable: every edit
// returns a new Document and leaves this one as it was, so one *Document
// may be used by many goroutines at once. The Document an edit returns
// shares what did not change (front matter values, the fields of other
// tasks) with this one, so neither may be modified.
type Document struct {
	Source       []byte      `json:"-"`
	FrontMatter  FrontMatter `json:"front_matter"`
	Headings     []Heading   `json:"headings"`                // the outline, in source order (all headings, with anchors)
	TasksHeading *Heading    `json:"tasks_heading,omitempty"` // nil when there is no Tasks section
	TasksSpan    Span        `json:"-"`                       // Tasks heading start .. end of the section; zero when none
	Tasks        []Task      `json:"tasks"`
	Newline      string      `json:"newline"` // "\n", "\r\n" or "\r" (the document's first line ending; "\n" if none)

	// text is Source with every lone "\r" (a line ending in CommonMark,
	// but not to goldmark) read as "\n"; the structure is read from it.
	// It is Source itself when there is no lone "\r".
	text []byte

	body    int              // where the Markdown starts, after the BOM and front matter
	openEnd bool             // the document ends inside an unclosed fence or HTML block
	raw     []rawHeading     // parallel to Headings: how each is written
	hasRefs bool             // the document defines link references
	lines   counts           // the line scan of the body, for the limits (see scanLines)
	bySlug  map[string]int   // task index by slug (the first, when repeated)
	dups    map[string][]int // tasks sharing a slug, for the ambiguity error
	// metas says where each task's metadata sits, for edits. Its offsets
	// count from the task's start (see meta), so that the tasks after an
	// edit, which move, share theirs with the Document before it.
	metas []*taskMeta
}

// Task returns the task with the given slug. A slug no task has is
// ErrTaskNotFound listing the slugs that exist; a slug that several tasks
// share (a title repeated by hand) is ErrDuplicateTask naming their lines,
// since the address cannot say which one is meant.
func (d *Document) Task(slug string) (*Task, error) {
	if same := d.dups[slug]; len(same) > 0 {
		lines := make([]string, len(same))
		for k, i := range same {
			lines[k] = itoa(d.Tasks[i].Line)
		}
		return nil, ErrorAt(&Error{Code: CodeDuplicateTask, Slug: slug,
			Msg: "tasks on lines " + strings.Join(lines, ", ") + " share the slug " + quote(slug) + "; rename all but one"},
			d.Source, d.Tasks[same[1]].Span.Start)
	}
	if i, ok := d.bySlug[slug]; ok {
		return &d.Tasks[i], nil
	}
	available := make([]string, 0, len(d.Tasks))
	for i := range d.Tasks {
		if d.bySlug[d.Tasks[i].Slug] == i {
			available = append(available, d.Tasks[i].Slug)
		}
	}
	return nil, &Error{Code: CodeTaskNotFound, Slug: slug, Available: available}
}

// Title returns the text of the document's first level-1 heading, or "".
func (d *Document) Title() string {
	for _, h := range d.Headings {
		if h.Level == 1 && h.TopLevel {
			return h.Text
		}
	}
	return ""
}

// Section returns the text of the outline section whose anchor is slug:
// its heading and everything up to the next heading of the same or a
// higher level, with \n line endings and no trailing blank lines. This is
// what an "@/doc.md#section" reference points at.
func (d *Document) Section(slug string) (string, bool) {
	for i, h := range d.Headings {
		if h.Slug != slug {
			continue
		}
		// A top-level section ends at the next top-level heading of its
		// level or higher; a heading inside a list or quote has no
		// container-wide section, so any such heading ends it.
		end := len(d.text)
		for _, next := range d.Headings[i+1:] {
			if next.Level <= h.Level && (next.TopLevel || !h.TopLevel) {
				end = next.Span.Start
				break
			}
		}
		return normaliseText(d.text[h.Span.Start:end]) + "\n", true
	}
	return "", false
}

// normaliseText turns source bytes into text with \n line endings and no
// leading or trailing blank lines.
func normaliseText(b []byte) string {
	if bytes.IndexByte(b, '\r') >= 0 {
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		b = bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
	}
	start, end := 0, len(b)
	for start < end {
		next := bytes.IndexByte(b[start:end], '\n')
		if next < 0 || len(bytes.TrimSpace(b[start:start+next])) != 0 {
			break
		}
		start += next + 1
	}
	for end > start {
		prev := bytes.LastIndexByte(b[start:end-1], '\n') + 1 + start
		if len(bytes.TrimSpace(b[prev:end])) != 0 {
			break
		}
		end = prev
	}
	return string(bytes.TrimRight(b[start:end], "\n"))
}
