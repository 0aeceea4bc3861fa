package checkpoint

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/mdtext"
	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
)

// Parse reads a checkpoint document: what Render writes,
// and the same document after a person edited it (see the package doc's
// "Worker checkpoints" for what is read and what is skipped). The value
// returned is in the normal form Render writes, so Render takes it.
//
// Bytes that are not UTF-8 are INVALID_UTF8 and a control character other
// than tab and line breaks is CONTROL_CHARACTER; front matter that does not
// decode, a front matter value that does not pass Render's checks (a
// worker id, status, phase, pivot mode, address, time or sequence), a
// "## Status:" line with an unknown status and a code fence never closed
// (which would hide every section after it) are PARSE_ERROR. Each points at
// its line and column.
func Parse(src []byte) (Checkpoint, error) {
	return parseWorker(src, "")
}

// parseWorker is Parse; file, when set, names the document
// in errors.
func parseWorker(src []byte, file string) (Checkpoint, error) {
	p := &workerParser{src: src, file: file}
	if err := p.checkBytes(); err != nil {
		return Checkpoint{}, err
	}
	c, body, err := p.frontMatter()
	if err != nil {
		return Checkpoint{}, err
	}
	p.lines = mdtext.SplitLines(string(src), body)
	sections, err := p.sections()
	if err != nil {
		return Checkpoint{}, err
	}
	if err := p.read(&c, sections); err != nil {
		return Checkpoint{}, err
	}
	n, err := c.normal()
	if err != nil { // the checks above should have caught it
		return Checkpoint{}, p.errorAt(0, err.Error())
	}
	return n, nil
}

type workerParser struct {
	src   []byte
	file  string
	lines []mdtext.Line
	fm    []byte // the front matter's bytes; its offset in src is fmAt
	fmAt  int
}

// checkBytes refuses bytes that are not UTF-8 and control characters.
func (p *workerParser) checkBytes() error {
	if err := taskdoc.CheckUTF8(p.src); err != nil {
		return p.named(err)
	}
	for i, r := range string(p.src) {
		if r != '\t' && r != '\n' && r != '\r' && plaintext.IsControl(r) {
			return p.named(taskdoc.ErrorAt(&taskdoc.Error{Code: taskdoc.CodeControlCharacter,
				Msg: fmt.Sprintf("%sthe control character U+%04X is not allowed in a checkpoint", p.prefix(), r)}, p.src, i))
		}
	}
	return nil
}

// frontMatter reads the machine fields and returns the offset where the
// Markdown after them starts.
func (p *workerParser) frontMatter() (Checkpoint, int, error) {
	var c Checkpoint
	fm, err := taskdoc.ParseFrontMatter(p.src)
	if err != nil {
		return c, 0, p.named(err)
	}
	start := 0
	if strings.HasPrefix(string(p.src), "\uFEFF") {
		start = len("\uFEFF")
	}
	p.fm, p.fmAt = fm.Raw, start
	fields := []struct {
		key string
		set func(*Checkpoint, string)
	}{
		{keyWorker, func(c *Checkpoint, v string) { c.Worker = v }},
		{keyTask, func(c *Checkpoint, v string) { c.Task = v }},
		{keyStatus, func(c *Checkpoint, v string) { c.Status = Status(v) }},
		{keyPhase, func(c *Checkpoint, v string) { c.Phase = v }},
		{keyPivotMode, func(c *Checkpoint, v string) { c.PivotMode = PivotMode(v) }},
		{keyPivotReason, func(c *Checkpoint, v string) { c.PivotReason = v }},
		{keyClarification, func(c *Checkpoint, v string) { c.Clarification = v }},
		{keyTime, nil},
		{keySequence, nil},
	}
	for _, f := range fields {
		raw, ok := fm.Values[f.key]
		if !ok || raw == nil {
			continue
		}
		var err error
		switch f.key {
		case keyTime:
			err = p.readTime(&c, raw)
		case keySequence:
			err = p.readSequence(&c, raw)
		default:
			v, serr := scalar(raw)
			if serr != nil {
				err = serr
				break
			}
			// Check the field alone, so that the error points at its key.
			var probe Checkpoint
			f.set(&probe, v)
			if _, err = probe.normal(); err == nil {
				f.set(&c, v)
			}
		}
		if err != nil {
			return c, 0, p.errorAt(p.keyAt(f.key), fmt.Sprintf("front matter %s: %v", f.key, message(err)))
		}
	}
	return c, start + len(fm.Raw), nil
}

func (p *workerParser) readTime(c *Checkpoint, raw any) error {
	var t time.Time
	switch v := raw.(type) {
	case time.Time:
		t = v
	case string:
		var err error
		if t, err = time.Parse(time.RFC3339, strings.TrimSpace(v)); err != nil {
			return fmt.Errorf("%q is not a time like 2026-01-18T10:15:23Z", v)
		}
	default:
		return fmt.Errorf("%v is not a time like 2026-01-18T10:15:23Z", raw)
	}
	probe := Checkpoint{Time: t}
	n, err := probe.normal()
	c.Time = n.Time
	return err
}

func (p *workerParser) readSequence(c *Checkpoint, raw any) error {
	var n int
	switch v := raw.(type) {
	case int:
		n = v
	case int64:
		n = int(v)
	case string:
		var err error
		if n, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
			n = -1
		}
	default:
		n = -1
	}
	if n < 0 {
		return fmt.Errorf("%v is not a whole number from 0", raw)
	}
	c.Sequence = n
	return nil
}

// scalar is a front matter value as a string: a string as it is, a number
// or boolean a person left unquoted as Go prints it. Lists and maps are
// refused.
func scalar(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case int, int64, uint64, float64, bool:
		return fmt.Sprint(v), nil
	}
	return "", fmt.Errorf("must be one value, not %T", v)
}

// message is err's message without the code a *taskdoc.Error prints.
func message(err error) string {
	if e, ok := err.(*taskdoc.Error); ok {
		return e.Msg
	}
	return err.Error()
}

// keyAt is the offset of the front matter line that sets key, or of the
// front matter when no line does.
func (p *workerParser) keyAt(key string) int {
	for i := 0; i < len(p.fm); {
		j := i
		for j < len(p.fm) && p.fm[j] != '\n' && p.fm[j] != '\r' {
			j++
		}
		t := strings.TrimLeft(string(p.fm[i:j]), " ")
		if rest, ok := strings.CutPrefix(t, key); ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), ":") {
			return p.fmAt + i + (j - i - len(t))
		}
		i = j + 1
	}
	return p.fmAt
}

// rawSection is a level-2 heading and the lines up to the next one.
type rawSection struct {
	head       mdtext.Line
	text       string // the heading's text
	start, end int    // its body: p.lines[start:end]
}

// sections splits the lines into sections at level-2 headings outside
// code blocks. Lines before the first (the title) are skipped.
func (p *workerParser) sections() ([]rawSection, error) {
	var out []rawSection
	for i := 0; i < len(p.lines); i++ {
		t := p.lines[i].Text
		if f, ok := mdtext.OpenFence(t); ok {
			end := -1
			for k := i + 1; k < len(p.lines); k++ {
				if f.ClosedBy(p.lines[k].Text) {
					end = k
					break
				}
			}
			if end < 0 {
				return nil, p.errorAt(p.lines[i].Start, "this code fence is never closed, so no section after it can be read: close it")
			}
			i = end
			continue
		}
		if level, text := mdtext.HeadingText(t); level == 2 {
			if n := len(out); n > 0 {
				out[n-1].end = i
			}
			out = append(out, rawSection{head: p.lines[i], text: text, start: i + 1, end: len(p.lines)})
		}
	}
	return out, nil
}

// read fills c with the sections.
func (p *workerParser) read(c *Checkpoint, sections []rawSection) error {
	var checkedInProgress, checkedRemaining []string
	statusSet := c.Status != ""
	for _, s := range sections {
		body := p.lines[s.start:s.end]
		key := sectionKey(s.text)
		switch name := sectionNames[key]; {
		case key == "status":
			if statusSet {
				continue
			}
			v := ""
			if _, after, ok := strings.Cut(s.text, ":"); ok {
				v = after
			} else if text := bodyText(body); text != "" {
				v, _, _ = strings.Cut(text, "\n")
			}
			st, err := ParseStatus(v)
			if err != nil {
				return p.errorAt(s.head.Start, message(err))
			}
			c.Status, statusSet = st, true
		case name == headOriginalTask:
			c.OriginalTask = joinText(c.OriginalTask, bodyText(body))
		case name == headNotes:
			c.Notes = joinText(c.Notes, bodyText(body))
		case name == headResumption:
			c.Resumption = joinText(c.Resumption, bodyText(body))
		case name == headFiles:
			for _, it := range listItems(body) {
				if f, ok := readFileChange(it.text); ok {
					c.FilesChanged = append(c.FilesChanged, f)
				}
			}
		case name != "":
			for _, it := range listItems(body) {
				text := plaintext.FoldLine(it.text)
				if text == "" {
					continue
				}
				switch {
				case name == headCompleted:
					c.Completed = append(c.Completed, text)
				case name == headInProgress && it.checked:
					checkedInProgress = append(checkedInProgress, text)
				case name == headInProgress:
					c.InProgress = append(c.InProgress, text)
				case name == headRemaining && it.checked:
					checkedRemaining = append(checkedRemaining, text)
				case name == headRemaining:
					c.Remaining = append(c.Remaining, text)
				case name == headBlocked:
					c.Blocked = append(c.Blocked, text)
				case name == headParallel:
					c.ParallelWork = append(c.ParallelWork, text)
				case name == headDecisions:
					c.Decisions = append(c.Decisions, text)
				}
			}
		default:
			heading := plaintext.FoldLine(s.text)
			if heading == "" {
				continue // "##" alone names nothing
			}
			c.Extra = append(c.Extra, Section{Heading: heading, Body: bodyText(body)})
		}
	}
	c.Completed = append(append(c.Completed, checkedInProgress...), checkedRemaining...)
	return nil
}

// bodyText is the text of a section: its lines without blank lines around
// them, joined by LF.
func bodyText(body []mdtext.Line) string {
	for len(body) > 0 && mdtext.IsBlank(body[0].Text) {
		body = body[1:]
	}
	for len(body) > 0 && mdtext.IsBlank(body[len(body)-1].Text) {
		body = body[:len(body)-1]
	}
	var b strings.Builder
	for i, ln := range body {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(ln.Text)
	}
	return b.String()
}

// joinText joins the texts of two sections of one name.
func joinText(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n\n" + b
}

// item is a list item of a section, its lines joined.
type item struct {
	text    string
	checked bool
}

// listItems reads the items of a list section: bullet ("-", "*", "+") and
// ordered ("1.", "1)") items, each with an optional checkbox, continued
// by the lines a person wrapped it onto (the next lines, or indented lines
// after a blank one). Paragraphs, headings and code blocks between them
// are skipped.
func listItems(body []mdtext.Line) []item {
	var out []item
	open, blank := false, false
	for i := 0; i < len(body); i++ {
		t := body[i].Text
		if f, ok := mdtext.OpenFence(t); ok {
			for i++; i < len(body) && !f.ClosedBy(body[i].Text); i++ {
			}
			open = false
			continue
		}
		switch rest, ok := itemText(t); {
		case mdtext.IsBlank(t):
			blank = true
			continue
		case ok:
			it := item{text: rest}
			if box, after, ok := checkbox(rest); ok {
				it.text, it.checked = after, box
			}
			it.text = unescapeItem(strings.TrimSpace(it.text))
			out = append(out, it)
			open = true
		case open && !mdtext.IsHeading(t) && (!blank || strings.HasPrefix(t, "  ") || strings.HasPrefix(t, "\t")):
			out[len(out)-1].text += " " + strings.TrimSpace(t)
		default:
			open = false
		}
		blank = false
	}
	return out
}

// itemText returns the text after a list item's marker.
func itemText(t string) (string, bool) {
	s := strings.TrimLeft(t, " ")
	if mdtext.IsBullet(s) {
		return s[2:], true
	}
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(s) && (s[n] == '.' || s[n] == ')') && (s[n+1] == ' ' || s[n+1] == '\t') {
		return s[n+2:], true
	}
	return "", false
}

// checkbox reads "[ ]", "[x]" or "[X]" at the start of an item, followed
// by a space or nothing.
func checkbox(s string) (checked bool, rest string, ok bool) {
	s = strings.TrimLeft(s, " \t")
	if len(s) < 3 || s[0] != '[' || s[2] != ']' || (len(s) > 3 && s[3] != ' ' && s[3] != '\t') {
		return false, "", false
	}
	switch s[1] {
	case ' ':
		return false, s[3:], true
	case 'x', 'X':
		return true, s[3:], true
	}
	return false, "", false
}

// readFileChange reads "`path` (note)", or a person's "path (note)".
func readFileChange(text string) (FileChange, bool) {
	text = strings.TrimSpace(text)
	var f FileChange
	rest := ""
	if content, after, ok := mdtext.CutSpan(text); ok && strings.HasPrefix(text, "`") {
		f.Path, rest = content, strings.TrimSpace(after)
	} else if i := strings.LastIndex(text, " ("); i > 0 && strings.HasSuffix(text, ")") {
		f.Path, rest = text[:i], text[i+1:]
	} else {
		f.Path = text
	}
	if len(rest) >= 2 && rest[0] == '(' && rest[len(rest)-1] == ')' {
		rest = rest[1 : len(rest)-1]
	}
	f.Path = strings.TrimSpace(f.Path)
	f.Note = plaintext.FoldLine(rest)
	return f, f.Path != ""
}

// errorAt is a PARSE_ERROR pointing at offset.
func (p *workerParser) errorAt(offset int, msg string) error {
	return taskdoc.ErrorAt(&taskdoc.Error{Code: taskdoc.CodeParse, Path: p.file, Msg: p.prefix() + msg}, p.src, offset)
}

func (p *workerParser) prefix() string {
	if p.file == "" {
		return ""
	}
	return p.file + ": "
}

// named names the file in an error of another package.
func (p *workerParser) named(err error) error {
	if e, ok := err.(*taskdoc.Error); ok && p.file != "" && e.Path == "" {
		e.Path = p.file
		e.Msg = p.file + ": " + e.Msg
	}
	return err
}
