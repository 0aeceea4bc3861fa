package taskdoc

import (
	"bytes"
	"strconv"
	"strings"
)

// Limits. goldmark's time grows faster than the size of some documents:
// with the cube of the depth of nested lists and block quotes (a list
// nested 2,000 deep, 4 MB, takes half a minute), with the square of the
// number of link reference definitions in one paragraph, and with the
// square of the inline markup in a heading's text (taskdoc reads headings'
// inlines for their anchors; 40,000 "*a_" take seconds). And each heading
// costs about 1.5 KB to read, with its task: a 16 MiB document of one-line
// tasks, half a million, takes 800 MB and a second. goldmark also keeps
// about 300 bytes for each line inside a block (blank ones too, as in a
// list or a code fence), and 700 more for each list item: 16 MiB of "a"
// lines, one paragraph, take 2.4 GB, and of "- a" lines 1.7 GB. Documents
// past MaxNesting, MaxNestingWork, MaxDefinitions, MaxHeadings,
// MaxListItems or MaxLines are refused with CodeTooComplex by Parse and
// every edit, found by a scan of the lines before goldmark runs; a
// heading past MaxHeadingMarkup is read without its markup. No document a
// person writes comes near them.
const (
	// MaxNesting is how deep lists and block quotes may nest. A line is
	// counted as deep as the containers it may open or continue: each ">"
	// and list marker at its start, and each two columns of indentation
	// before them (a list item's text is indented at least two columns).
	// Lines without a marker are not counted: they open nothing.
	MaxNesting = 100
	// MaxNestingWork bounds the nesting of the whole document: the sum over
	// its lines of the square of their depth (as MaxNesting counts it), as
	// goldmark's time per line grows with that square. A document of
	// 400,000 lines five deep is 10 million; one whose every line is 100
	// deep passes it at 2,000 lines.
	MaxNestingWork = 20_000_000
	// MaxDefinitions is how many lines may start a link reference
	// definition: a "[" at the start of a line (after indentation, ">" and
	// list markers) whose first unescaped bracket after it is "]:", or
	// none.
	MaxDefinitions = 10000
	// MaxHeadingMarkup is how many inline markup characters (of
	// "`[]<*_") a heading's text may hold and still be read as Markdown
	// for its text and anchor. A heading with more, in practice a long
	// paragraph that a "---" under it turned into a setext heading, is
	// read as plain text: its markup characters stay in its text and
	// anchor.
	MaxHeadingMarkup = 256
	// MaxHeadings is how many lines may be a heading, and so how many
	// tasks a document may have: lines whose text (after indentation, ">"
	// and list markers) is one to six "#" and a space or the line's end,
	// or a run of "=" or of "-" alone, which may underline a setext
	// heading, as may a "-" list marker alone. A document with more is
	// refused with a hint to split it. At the limit, a document of
	// one-line tasks takes about 30 MB to read.
	MaxHeadings = 20_000
	// MaxListItems is how many list markers a document may have: a
	// "-", "*" or "+", or one to nine digits and "." or ")", followed by
	// a space or the line's end, at the start of a line (after
	// indentation, ">" and other list markers). A document of MaxHeadings
	// tasks with three fields each has 60,000. At the limit, a document
	// of one-line items takes about 200 MB to read.
	MaxListItems = 200_000
	// MaxLines is how many lines a document may have after its front
	// matter, blank ones included, counted by their line endings (so that
	// the counts of two ranges add up wherever they are cut). A document of MaxHeadings tasks with
	// three fields and five lines of text each has 240,000; a document of
	// 16 MiB, the workspace's limit, passes it only with lines shorter
	// than 34 bytes on average. At the limit, a document of one paragraph
	// takes about 150 MB to read.
	MaxLines = 500_000
)

// counts are the counts of the line scan over a range of a document.
type counts struct {
	defLines int // lines that may start a link reference definition
	work     int // the sum of the squares of the lines' depths
	headings int // lines that may be a heading
	items    int // list markers
	lines    int // line endings
}

// plus is c with the counts of o added.
func (c counts) plus(o counts) counts {
	return counts{defLines: c.defLines + o.defLines, work: c.work + o.work, headings: c.headings + o.headings,
		items: c.items + o.items, lines: c.lines + o.lines}
}

// minus is c with the counts of o taken away.
func (c counts) minus(o counts) counts {
	return counts{defLines: c.defLines - o.defLines, work: c.work - o.work, headings: c.headings - o.headings,
		items: c.items - o.items, lines: c.lines - o.lines}
}

// shape is what the line scan finds in a range of a document: its counts
// and where the first limit is passed.
type shape struct {
	counts
	deepAt  int // the start of the first line nested deeper than MaxNesting, or -1
	overAt  int // the start of the first definition line past MaxDefinitions (counting from 0), or -1
	workAt  int // the start of the first line past MaxNestingWork (counting from 0), or -1
	manyAt  int // the start of the first heading line past MaxHeadings (counting from 0), or -1
	itemsAt int // the start of the first line with a list marker past MaxListItems (counting from 0), or -1
	linesAt int // the start of the first line past MaxLines (counting from 0), or -1
}

// scanLines reads the lines of text[from:to], which start at from. It
// stops at the first line nested too deep. Every line is read on its own,
// so the counts of consecutive ranges add up to that of their union.
// before holds the counts of the rest of the document, for the limits.
func scanLines(text []byte, from, to int, before counts) shape {
	s := shape{deepAt: -1, overAt: -1, workAt: -1, manyAt: -1, itemsAt: -1, linesAt: -1}
	for at := from; at < to; {
		end := to
		if i := bytes.IndexByte(text[at:to], '\n'); i >= 0 {
			end = at + i + 1
			s.lines++
			if s.linesAt < 0 && before.lines+s.lines > MaxLines {
				s.linesAt = at
			}
		}
		switch text[at] {
		case ' ', '\t', '>', '-', '*', '+', '[', '#', '=', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			depth, items, def, heading := lineShape(text[at:end])
			if depth > MaxNesting {
				s.deepAt = at
				return s
			}
			s.work += depth * depth
			if s.workAt < 0 && before.work+s.work > MaxNestingWork {
				s.workAt = at
			}
			if items > 0 {
				s.items += items
				if s.itemsAt < 0 && before.items+s.items > MaxListItems {
					s.itemsAt = at
				}
			}
			if def {
				s.defLines++
				if s.overAt < 0 && before.defLines+s.defLines > MaxDefinitions {
					s.overAt = at
				}
			}
			if heading {
				s.headings++
				if s.manyAt < 0 && before.headings+s.headings > MaxHeadings {
					s.manyAt = at
				}
			}
		}
		at = end
	}
	return s
}

// lineShape reads the start of one line: how deep it nests (see
// MaxNesting; 0 for a line without markers), how many list markers it has
// (see MaxListItems), whether it may start a link reference definition,
// and whether it may be a heading (see MaxHeadings).
func lineShape(line []byte) (depth, items int, def, heading bool) {
	col, indent, markers := 0, 0, 0
	i := 0
	dash := false // the last marker read is a "-"
	// afterMarker: whitespace here belongs to the container just opened
	// (a list item's width, or the space after a ">"), not to indentation.
	afterMarker, afterQuote := false, false
scan:
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			w := 1
			if c == '\t' {
				w = 4 - col%4
			}
			col += w
			switch {
			case afterMarker: // the list item's own width
			case afterQuote:
				indent += w - 1 // the one column a ">" takes after it
			default:
				indent += w
			}
			afterQuote = false
			i++
			continue
		case c == '>':
			markers++
			afterMarker, afterQuote, dash = false, true, false
			col++
			i++
			continue
		case c == '-' || c == '*' || c == '+':
			if i+1 < len(line) && !isSpaceOrEOL(line[i+1]) {
				break scan
			}
			markers++
			items++
			dash = c == '-'
			col++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j == len(line) || (line[j] != '.' && line[j] != ')') || (j+1 < len(line) && !isSpaceOrEOL(line[j+1])) {
				break scan
			}
			markers++
			items++
			dash = false
			col += j + 1 - i
			i = j + 1
		default:
			break scan
		}
		afterMarker, afterQuote = true, false
	}
	if markers > 0 {
		depth = markers + indent/2
	}
	rest := line[i:]
	heading = mayHead(rest) || (dash && len(bytes.TrimLeft(rest, " \t\r\n")) == 0)
	return depth, items, len(rest) > 0 && rest[0] == '[' && mayDefine(rest[1:]), heading
}

// mayHead reports whether rest, a line after its indentation and
// markers, may be a heading: an ATX heading's opening "#"s, or a run of
// "=" or of "-" with nothing but spaces after it, a setext underline.
func mayHead(rest []byte) bool {
	if len(rest) == 0 {
		return false
	}
	c := rest[0]
	if c != '#' && c != '=' && c != '-' {
		return false
	}
	n := 1
	for n < len(rest) && rest[n] == c {
		n++
	}
	if c == '#' {
		return n <= 6 && (n == len(rest) || isSpaceOrEOL(rest[n]))
	}
	return len(bytes.TrimLeft(rest[n:], " \t\r\n")) == 0
}

// mayDefine reports whether rest, a line after an opening "[", may hold
// the rest of a link reference definition's label: its first unescaped
// bracket is a "]" followed by ":", or it has none.
func mayDefine(rest []byte) bool {
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '[':
			return false
		case ']':
			return i+1 < len(rest) && rest[i+1] == ':'
		}
	}
	return true
}

// tooDeep is the refusal of a document nested deeper than MaxNesting at
// the line starting at at.
func tooDeep(src []byte, at int, slug string) error {
	return ErrorAt(&Error{Code: CodeTooComplex, Slug: slug,
		Msg: "lists and block quotes nest more than " + strconv.Itoa(MaxNesting) + " levels deep"}, src, at)
}

// tooMuchNesting is the refusal of a document whose lines together nest
// past MaxNestingWork, the first line past it at at.
func tooMuchNesting(src []byte, at int, slug string) error {
	return ErrorAt(&Error{Code: CodeTooComplex, Slug: slug,
		Msg: "too many lines nest lists and block quotes deeply (the sum of the squares of their depths passes " +
			strconv.Itoa(MaxNestingWork) + ")"}, src, at)
}

// tooManyDefinitions is the refusal of a document with more than
// MaxDefinitions definition lines, the first one past it at at.
func tooManyDefinitions(src []byte, at int, slug string) error {
	return ErrorAt(&Error{Code: CodeTooComplex, Slug: slug,
		Msg: "more than " + strconv.Itoa(MaxDefinitions) + " lines start a link reference definition"}, src, at)
}

// splitHint is what to do with a document past a limit on its size.
const splitHint = "; split the document into several, each with its own Tasks section"

// tooManyHeadings is the refusal of a document with more than
// MaxHeadings heading lines, the first one past it at at.
func tooManyHeadings(src []byte, at int, slug string) error {
	return ErrorAt(&Error{Code: CodeTooComplex, Slug: slug,
		Msg: "more than " + strconv.Itoa(MaxHeadings) + " lines are headings or may underline one" + splitHint}, src, at)
}

// tooManyItems is the refusal of a document with more than MaxListItems
// list markers, the first one past it on the line at at.
func tooManyItems(src []byte, at int, slug string) error {
	return ErrorAt(&Error{Code: CodeTooComplex, Slug: slug,
		Msg: "more than " + strconv.Itoa(MaxListItems) + " list items" + splitHint}, src, at)
}

// tooManyLines is the refusal of a document with more than MaxLines
// lines, the first one past it at at.
func tooManyLines(src []byte, at int, slug string) error {
	return ErrorAt(&Error{Code: CodeTooComplex, Slug: slug,
		Msg: "more than " + strconv.Itoa(MaxLines) + " lines" + splitHint}, src, at)
}

// refusal is the error for a scan that passed a limit (the first one
// found: too deep, too many definitions, too much nesting, too many
// headings, list items, lines), naming slug (copied, see region.slug), or
// nil.
func (s shape) refusal(src []byte, slug string) error {
	switch {
	case s.deepAt >= 0:
		return tooDeep(src, s.deepAt, strings.Clone(slug))
	case s.overAt >= 0:
		return tooManyDefinitions(src, s.overAt, strings.Clone(slug))
	case s.workAt >= 0:
		return tooMuchNesting(src, s.workAt, strings.Clone(slug))
	case s.manyAt >= 0:
		return tooManyHeadings(src, s.manyAt, strings.Clone(slug))
	case s.itemsAt >= 0:
		return tooManyItems(src, s.itemsAt, strings.Clone(slug))
	case s.linesAt >= 0:
		return tooManyLines(src, s.linesAt, strings.Clone(slug))
	}
	return nil
}

// lineTotals is the line shape of an edit's result as a whole (the
// counts of a shape), as checkLimits found it; known is false where
// nothing computed it yet.
type lineTotals struct {
	counts
	known bool
}

// checkLimits applies the limits to an edit's result out: the new bytes
// nest no deeper than MaxNesting, and the result has no more than
// MaxDefinitions definition lines, MaxNestingWork of nesting, MaxHeadings
// heading lines, MaxListItems list markers and MaxLines lines. Lines are
// read one by one (see scanLines), so only the old and new bytes of the
// range are read.
func (d *Document) checkLimits(out []byte, r region) error {
	_, err := d.limits(out, r)
	return err
}

// limits is checkLimits, returning also the line shape of the result, for
// assemble (see region.lines), so that neither range is scanned twice.
func (d *Document) limits(out []byte, r region) (lineTotals, error) {
	text := lineFeeds(out, r.start, r.newEnd)
	rest := d.lines.minus(d.linesIn(r))
	rest.lines += d.endBefore(text, r)
	s := scanLines(text, r.start, r.newEnd, rest)
	if err := s.refusal(out, r.slug); err != nil {
		return lineTotals{}, err
	}
	return lineTotals{counts: rest.plus(s.counts), known: true}, nil
}

// linesIn is the line counts of d in the old bytes of r.
func (d *Document) linesIn(r region) counts {
	if r.start == r.oldEnd {
		return counts{}
	}
	return scanLines(d.text, r.start, r.oldEnd, counts{}).counts
}

// linesAfter is the line shape of the result of an edit whose text (its
// source with lone "\r" as "\n") has the new bytes of r: r.lines when
// checkLimits computed it, else scanned.
func (d *Document) linesAfter(text []byte, r region) lineTotals {
	if r.lines.known {
		return r.lines
	}
	added := scanLines(text, r.start, r.newEnd, counts{})
	c := d.lines.minus(d.linesIn(r)).plus(added.counts)
	c.lines += d.endBefore(text, r)
	return lineTotals{counts: c, known: true}
}

// endBefore is the change in the count of line endings that the new bytes
// of r make before r: a "\r" just before r ends a line on its own (text
// reads it as "\n") unless the byte after it is "\n", which may be the
// first of the old or of the new bytes. text is the result's, read as
// linesAfter's is.
func (d *Document) endBefore(text []byte, r region) int {
	at := r.start - 1
	if at < d.body || d.Source[at] != '\r' || text[at] == d.text[at] {
		return 0
	}
	if text[at] == '\n' {
		return 1
	}
	return -1
}

// Limits on the names of files: a document's address, and every name the
// workspace reads or writes. A deep path costs a folder created and
// flushed to disk for each of its elements; no workspace a person lays out
// comes near these, and file systems refuse more than MaxPathElement bytes
// in one element anyway.
const (
	// MaxPathDepth is how many folders a root-relative file name may have
	// above its file ("docs/api/auth.md" has 2).
	MaxPathDepth = 32
	// MaxPathBytes is how long a root-relative file name may be, in bytes.
	MaxPathBytes = 1024
	// MaxPathElement is how long one element of a name may be, in bytes.
	MaxPathElement = 255
)

// PathLimit checks a slash-separated, root-relative file name against
// MaxPathDepth, MaxPathBytes and MaxPathElement. It returns "" when the
// name is within them, and otherwise why not, with what to do, for the
// caller's error message. It reads the name once and allocates nothing on
// success.
func PathLimit(name string) string {
	if len(name) > MaxPathBytes {
		return "it is " + strconv.Itoa(len(name)) + " bytes long, more than the limit of " +
			strconv.Itoa(MaxPathBytes) + "; use a shorter path"
	}
	folders, start := 0, 0
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '/' {
			continue
		}
		if i-start > MaxPathElement {
			return "an element is " + strconv.Itoa(i-start) +
				" bytes long, more than the limit of " + strconv.Itoa(MaxPathElement) + "; use a shorter name"
		}
		if i < len(name) {
			folders++
		}
		start = i + 1
	}
	if folders > MaxPathDepth {
		return "it is " + strconv.Itoa(folders) + " folders deep, more than the limit of " +
			strconv.Itoa(MaxPathDepth) + "; use a shallower path"
	}
	return ""
}
