package journal

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/mdtext"
	"github.com/taskmd/taskmd/taskdoc"
)

// parseJournal reads the entries of a journal, oldest first (see the
// package doc for the grammar). file names the journal in errors.
func parseJournal(src []byte, file string) ([]Entry, error) {
	if len(src) == 0 {
		return nil, nil
	}
	s := string(src)
	from := 0
	if strings.HasPrefix(s, "\uFEFF") {
		from = len("\uFEFF")
	}
	p := &parser{src: s, file: file, lines: mdtext.SplitLines(s, from)}
	return p.parse()
}

type parser struct {
	src   string
	file  string
	lines []mdtext.Line
	i     int // the next line to read
}

func (p *parser) parse() ([]Entry, error) {
	entries := make([]Entry, 0, strings.Count(p.src, "\n## ")+1)
	for p.i < len(p.lines) {
		ln := p.lines[p.i]
		if isEntryHeading(ln.Text) {
			e, err := p.entry()
			if err != nil {
				return nil, err
			}
			if n := len(entries); n > 0 && e.Sequence <= entries[n-1].Sequence {
				return nil, p.errorAt(ln, fmt.Sprintf("entry %d comes after entry %d: sequences must increase down the file", e.Sequence, entries[n-1].Sequence))
			}
			entries = append(entries, e)
			continue
		}
		// Anything else is a person's text, read only to step over its
		// code blocks, where a "## 1 · ..." line is not a heading.
		if f, ok := mdtext.OpenFence(ln.Text); ok {
			end := p.fenceEnd(p.i+1, f)
			if end < 0 {
				return nil, p.errorAt(ln, "this code fence is never closed, so nothing after it can be read: close it")
			}
			p.i = end + 1
			continue
		}
		p.i++
	}
	return entries, nil
}

// entry reads the entry whose heading is the current line.
func (p *parser) entry() (Entry, error) {
	head := p.lines[p.i]
	e, err := p.heading(head)
	if err != nil {
		return Entry{}, err
	}
	p.i++
	p.i = p.nextNonBlank(p.i)
	first := p.i
	for p.i < len(p.lines) {
		t := p.lines[p.i].Text
		if mdtext.IsBlank(t) || mdtext.IsBullet(t) || mdtext.IsHeading(t) {
			break
		}
		if _, ok := mdtext.OpenFence(t); ok {
			break
		}
		p.i++
	}
	if p.i == first {
		return Entry{}, p.errorAt(head, fmt.Sprintf("entry %d has no summary: write it as a paragraph under the heading", e.Sequence))
	}
	e.Summary = p.lines[first].Text
	if p.i > first+1 {
		parts := make([]string, 0, p.i-first)
		for _, ln := range p.lines[first:p.i] {
			parts = append(parts, strings.TrimSpace(ln.Text))
		}
		e.Summary = strings.Join(parts, " ")
	}
	e.Summary = unescapeSummary(strings.TrimSpace(e.Summary))
	p.fields(&e)
	return e, p.detail(&e)
}

// heading reads "## <sequence> · <type> · <time>[ · <agent>]".
func (p *parser) heading(ln mdtext.Line) (Entry, error) {
	_, text := mdtext.HeadingText(ln.Text)
	var f [4]string
	var ok1, ok2 bool
	f[0], text, ok1 = strings.Cut(text, "·")
	f[1], text, ok2 = strings.Cut(text, "·")
	f[2], f[3], _ = strings.Cut(text, "·") // the agent may hold "·"
	if !ok1 || !ok2 {
		return Entry{}, p.errorAt(ln, `an entry heading is "## <sequence> · <type> · <time>", then " · <agent>" when it has one`)
	}
	seq, err := strconv.Atoi(strings.TrimSpace(f[0]))
	if err != nil || seq < 1 {
		return Entry{}, p.errorAt(ln, fmt.Sprintf("the sequence %q of an entry heading is not a whole number from 1", strings.TrimSpace(f[0])))
	}
	typ, err := ParseType(strings.TrimSpace(f[1]))
	if err != nil {
		return Entry{}, p.errorAt(ln, fmt.Sprintf("entry %d: %v", seq, err))
	}
	at, err := time.Parse(time.RFC3339, strings.TrimSpace(f[2]))
	if err != nil {
		return Entry{}, p.errorAt(ln, fmt.Sprintf("entry %d: the time %q is not written like 2026-11-23T10:00:00Z", seq, strings.TrimSpace(f[2])))
	}
	e := Entry{Sequence: seq, Type: typ, Time: at.UTC()}
	e.Agent = strings.TrimSpace(f[3])
	return e, nil
}

// fields reads the "- Name: value" items after the summary: Files and Key
// (the first of each; names in any case). Other items are a person's and
// are skipped.
func (p *parser) fields(e *Entry) {
	var files, key bool
	for {
		k := p.nextNonBlank(p.i)
		if k == len(p.lines) || !mdtext.IsBullet(p.lines[k].Text) {
			return
		}
		item := strings.TrimLeft(p.lines[k].Text, " ")[1:]
		name, value, _ := strings.Cut(item, ":")
		switch name = strings.TrimSpace(name); {
		case strings.EqualFold(name, "files"):
			if !files {
				e.FilesChanged, files = readSpans(value), true
			}
		case strings.EqualFold(name, "key"):
			if !key {
				e.Key, key = readSpan(value), true
			}
		}
		p.i = k + 1
	}
}

// detail reads the code block after the fields, if one comes next.
func (p *parser) detail(e *Entry) error {
	k := p.nextNonBlank(p.i)
	if k == len(p.lines) {
		return nil
	}
	f, ok := mdtext.OpenFence(p.lines[k].Text)
	if !ok {
		return nil
	}
	end := p.fenceEnd(k+1, f)
	if end < 0 {
		return p.errorAt(p.lines[k], fmt.Sprintf("the detail of entry %d is a code fence that is never closed: close it with %s", e.Sequence, strings.Repeat(string(f.Char), f.N)))
	}
	body := p.lines[k+1 : end]
	p.i = end + 1
	if len(body) == 0 {
		return nil
	}
	// The common case, LF endings and no indent, is the source as it is.
	whole := p.src[body[0].Start : body[len(body)-1].Start+len(body[len(body)-1].Text)]
	if f.Indent == 0 && !strings.Contains(whole, "\r") {
		e.Detail = whole
		return nil
	}
	var b strings.Builder
	for i, ln := range body {
		if i > 0 {
			b.WriteByte('\n')
		}
		t := ln.Text
		for n := 0; n < f.Indent && strings.HasPrefix(t, " "); n++ {
			t = t[1:]
		}
		b.WriteString(t)
	}
	e.Detail = b.String()
	return nil
}

func (p *parser) nextNonBlank(i int) int {
	for i < len(p.lines) && mdtext.IsBlank(p.lines[i].Text) {
		i++
	}
	return i
}

// fenceEnd is the index of the line from i on that closes f, or -1.
func (p *parser) fenceEnd(i int, f mdtext.Fence) int {
	for ; i < len(p.lines); i++ {
		if f.ClosedBy(p.lines[i].Text) {
			return i
		}
	}
	return -1
}

// errorAt is a PARSE_ERROR pointing at the start of ln.
func (p *parser) errorAt(ln mdtext.Line, msg string) error {
	return taskdoc.ErrorAt(&taskdoc.Error{Code: taskdoc.CodeParse, Path: p.file, Msg: p.file + ": " + msg},
		[]byte(p.src), ln.Start)
}

// isEntryHeading reports a level-2 heading whose text starts with a digit:
// the heading of an entry, or of one a person broke.
func isEntryHeading(t string) bool {
	level, text := mdtext.HeadingText(t)
	return level == 2 && text != "" && text[0] >= '0' && text[0] <= '9'
}

// parseNewest reads the entries of a journal newest first, as List
// returns them, handing each to take until take says to stop. Only the
// entries handed over are parsed: a first pass finds where entries begin
// (stepping over code fences as parse does, without building anything but
// their offsets), and each is then read on its own. A damaged entry older
// than the last one handed over is not noticed (parseJournal, which Add
// and a List without a limit use, reports it).
func parseNewest(src []byte, file string, take func(Entry) bool) error {
	s := string(src)
	from := 0
	if strings.HasPrefix(s, "\uFEFF") {
		from = len("\uFEFF")
	}
	starts, ok := entryStarts(s, from)
	if !ok {
		_, err := parseJournal(src, file) // an unclosed fence: reported where it opens
		return err
	}
	newer := 0
	for k := len(starts) - 1; k >= 0; k-- {
		end := len(s)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		p := &parser{src: s[:end], file: file, lines: mdtext.SplitLines(s[:end], starts[k])}
		e, err := p.entry()
		if err != nil {
			return err
		}
		if newer > 0 && e.Sequence >= newer {
			return p.errorAt(p.lines[0], fmt.Sprintf("entry %d comes before entry %d: sequences must increase down the file", e.Sequence, newer))
		}
		newer = e.Sequence
		if !take(e) {
			return nil
		}
	}
	return nil
}

// entryStarts returns the offsets of the entry headings in s[from:], as
// parse finds them (not in code fences), and false when a fence is never
// closed.
func entryStarts(s string, from int) ([]int, bool) {
	var starts []int
	var open mdtext.Fence
	inFence := false
	for i := from; i < len(s); {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = len(s) - i
		}
		t := s[i : i+j]
		if k := strings.IndexByte(t, '\r'); k >= 0 {
			t, j = t[:k], k // a lone "\r" ends the line too
		}
		switch {
		case inFence:
			inFence = !open.ClosedBy(t)
		case isEntryHeading(t):
			starts = append(starts, i)
		default:
			open, inFence = mdtext.OpenFence(t)
		}
		if i+j == len(s) {
			break
		}
		i += j + 1
		if s[i-1] == '\r' && i < len(s) && s[i] == '\n' {
			i++
		}
	}
	return starts, !inFence
}
