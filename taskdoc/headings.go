package taskdoc

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// rawHeading is a heading before outline anchors are assigned.
type rawHeading struct {
	level    int
	text     string
	slug     string // Slug(text)
	span     Span
	top      bool
	atx      bool
	textSpan Span // the heading's text in the source, for renaming a task
}

func (sc *scan) addHeading(h *ast.Heading, top bool) {
	src := sc.src
	// The anchor is made from the text exactly as GitHub reads it, with
	// a setext heading's line break (dropped) and the space next to raw
	// HTML or an image at either end (a '-'); Text reads the break as a
	// space and is trimmed.
	anchorText := sc.headingText(h)
	rh := rawHeading{level: h.Level, top: top, slug: Slug(anchorText)}
	rh.text = strings.TrimSpace(strings.ReplaceAll(anchorText, "\n", " "))
	lines := h.Lines()
	if lines.Len() == 0 { // an empty ATX heading: "###"
		p := emptyHeadingMark(src, sc.pos(h), top)
		rh.atx = true
		rh.span = Span{lineStart(src, p), lineEnd(src, p)}
		rh.textSpan = Span{p + h.Level, p + h.Level}
		sc.headings = append(sc.headings, rh)
		return
	}
	// Read the lines, not the node's position, which goldmark may put
	// past the columns of a tab. The opening '#'s of an ATX heading come
	// before its text on its line; a setext heading's text starts its
	// line, after any container markers (and may start with '#').
	first, last := sc.base+lines.At(0).Start, sc.base+lines.At(lines.Len()-1).Start
	rh.span.Start = lineStart(src, first)
	rh.atx = bytes.IndexByte(src[rh.span.Start:first], '#') >= 0
	if rh.atx {
		rh.span.End = lineEnd(src, first)
		rh.textSpan = Span{first, sc.base + lines.At(0).Stop}
	} else {
		rh.span.End = lineEnd(src, lineEnd(src, last))
		rh.textSpan = Span{first, contentEnd(src, last)}
	}
	sc.headings = append(sc.headings, rh)
}

// emptyHeadingMark returns the offset of the first '#' of the empty ATX
// heading goldmark places at p. With a tab in its indentation, p may be
// past its first '#', past the end of its line, even on the next line. A
// '#' at p belongs to the heading's run of '#'s unless that run starts a
// line and the heading is inside a container (whose headings are always
// after a marker or indentation): then the mark is on an earlier line.
func emptyHeadingMark(src []byte, p int, top bool) int {
	p = min(p, len(src))
	if p < len(src) && src[p] == '#' {
		for p > 0 && src[p-1] == '#' {
			p--
		}
		if top || p != lineStart(src, p) {
			return p
		}
	}
	q := bytes.LastIndexByte(src[:p], '#')
	if q < 0 {
		return p
	}
	ls := lineStart(src, q)
	return ls + bytes.IndexByte(src[ls:], '#')
}

// isATXLine reports whether line, from where its heading starts, opens an
// ATX heading: one to six '#', then a space, a tab or the line's end.
func isATXLine(line []byte) bool {
	rest := bytes.TrimLeft(line, " \t")
	n := 0
	for n < len(rest) && rest[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(rest) || rest[n] == ' ' || rest[n] == '\t' || rest[n] == '\r' || rest[n] == '\n')
}

// headingText is the plain text of a heading as GitHub reads it for
// anchors: the text of its inlines with escapes and entities resolved,
// code spans' content kept, raw HTML tags and images dropped, and not
// trimmed (goldmark has trimmed the heading's content; what remains at its
// ends is next to raw HTML or an image). A line break inside a setext
// heading is a "\n". A heading with more markup than MaxHeadingMarkup is
// read as its plain text, markup characters and all.
func (sc *scan) headingText(h *ast.Heading) string {
	src := sc.src[sc.base:]
	if t, ok := h.FirstChild().(*ast.Text); ok && t.NextSibling() == nil {
		if v := t.Value(src); !bytes.ContainsAny(v, inlineMarks+"\\&") {
			return string(v)
		}
	}
	if marked := sc.markedHeading(h, src); marked != nil {
		h, src = marked.heading, marked.src
	}
	var b strings.Builder
	inlineText(h, src, &b)
	return b.String()
}

// inlineMarks are the characters that open inline markup other than
// escapes and entities (which resolveText reads): code spans, links and
// images, autolinks and raw HTML, emphasis.
const inlineMarks = "`[]<*_"

// markedHeading is a heading whose text holds inline markup, parsed again
// with inlineParser on its own, with the document's link references.
type markedHeading struct {
	heading *ast.Heading
	src     []byte
}

// markedHeading reparses h's text when it holds inline markup. An ATX
// heading is written back as "# text #" (the closing '#' keeps a text that
// ends in '#' whole), a setext heading as its lines over "=". It returns
// nil when h has no markup, or more than MaxHeadingMarkup, or (never
// expected) the copy is not a heading.
func (sc *scan) markedHeading(h *ast.Heading, src []byte) *markedHeading {
	lines := h.Lines()
	var raw []byte
	for i := range lines.Len() {
		if i > 0 {
			raw = append(raw, '\n')
		}
		seg := lines.At(i)
		raw = append(raw, bytes.TrimRight(seg.Value(src), "\r\n")...)
	}
	if !bytes.ContainsAny(raw, inlineMarks) {
		return nil
	}
	if countMarks(raw) > MaxHeadingMarkup {
		return nil
	}
	var mini []byte
	if sc.isATX(h, src) {
		mini = append(append([]byte("# "), raw...), " #\n"...)
	} else {
		mini = append(raw, "\n=\n"...)
	}
	pc := parser.NewContext()
	if len(sc.refs) > 0 {
		// Only the labels the text can use: a document may define
		// thousands, and have as many headings.
		if sc.refIndex == nil {
			sc.refIndex = definitionsOf(sc.refs)
		}
		eachLabel(raw, 0, len(raw), func(key string, _ int) bool {
			if r, ok := sc.refIndex[key]; ok {
				pc.AddReference(r)
			}
			return true
		})
	}
	root := inlineParser.Parse(text.NewReader(mini), parser.WithContext(pc))
	heading, ok := root.FirstChild().(*ast.Heading)
	if !ok || root.ChildCount() != 1 {
		return nil
	}
	return &markedHeading{heading: heading, src: mini}
}

// countMarks counts the inline markup characters in text.
func countMarks(text []byte) int {
	n := 0
	for _, c := range text {
		if strings.IndexByte(inlineMarks, c) >= 0 {
			n++
		}
	}
	return n
}

// isATX reports whether h is an ATX heading: its first line holds the
// opening '#'s before its text.
func (sc *scan) isATX(h *ast.Heading, src []byte) bool {
	lines := h.Lines()
	if lines.Len() != 1 {
		return false
	}
	first := lines.At(0).Start
	return bytes.IndexByte(src[lineStart(src, first):first], '#') >= 0
}

func inlineText(n ast.Node, src []byte, b *strings.Builder) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch v := c.(type) {
		case *ast.Text:
			b.Write(resolveText(v.Value(src)))
			if v.SoftLineBreak() || v.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(v.Value)
		case *ast.CodeSpan:
			codeSpanText(v, src, b)
		case *ast.AutoLink:
			b.Write(v.Label(src))
		case *ast.RawHTML, *ast.Image:
		default:
			inlineText(c, src, b)
		}
	}
}

// codeSpanText writes a code span's content, in which a line ending
// reads as a space (CommonMark).
func codeSpanText(n *ast.CodeSpan, src []byte, b *strings.Builder) {
	for t := n.FirstChild(); t != nil; t = t.NextSibling() {
		var v []byte
		if s, ok := t.(*ast.Text); ok {
			v = s.Value(src)
		} else if s, ok := t.(*ast.String); ok {
			v = s.Value
		}
		if bytes.IndexByte(v, '\r') >= 0 {
			v = bytes.ReplaceAll(v, []byte("\r\n"), []byte("\n"))
		}
		for _, c := range v {
			if c == '\n' || c == '\r' {
				c = ' '
			}
			b.WriteByte(c)
		}
	}
}

func resolveText(v []byte) []byte {
	if bytes.IndexByte(v, '\\') >= 0 {
		v = util.UnescapePunctuations(v)
	}
	if bytes.IndexByte(v, '&') >= 0 {
		v = util.ResolveEntityNames(util.ResolveNumericReferences(v))
	}
	return v
}

// outline assigns GitHub anchors and line numbers to the headings.
func outline(src []byte, raw []rawHeading) []Heading {
	hs := make([]Heading, len(raw))
	taken := make(anchors, len(raw))
	lines := newLineIndex(src)
	for i, r := range raw {
		hs[i] = Heading{
			Level: r.level, Text: r.text, Slug: taken.next(r.slug),
			Line: lines.at(r.span.Start), Span: r.span, TopLevel: r.top,
		}
	}
	return hs
}
