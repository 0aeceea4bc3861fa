package taskdoc

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/adrg/frontmatter"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/taskmd/taskmd/internal/parsecount"
)

// mdParser reads plain CommonMark block structure only. Inline markup
// never changes which lines are headings or where blocks end, so parsing
// it in every paragraph of the document (a fifth of goldmark's time) is
// skipped; the few headings whose text holds markup are read again with
// inlineParser to make their anchors. The task format needs no extension,
// and a GFM table is read as a paragraph, which is all heading detection
// needs. A goldmark parser keeps its per-parse state in the parse context,
// so one value serves concurrent parses.
var mdParser = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
)

// inlineParser is full CommonMark, for the text of headings with markup.
var inlineParser = goldmark.New().Parser()

var bom = []byte("\ufeff")

// Parse reads a document. It validates UTF-8 (ErrInvalidUTF8 with the line
// and column of the first bad byte), decodes front matter (ErrParse when
// it is not valid YAML or TOML), builds the outline from goldmark's AST and
// finds the Tasks section and its tasks. Parse never panics and does not
// modify src; Document.Source is src.
func Parse(src []byte) (doc *Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, &Error{Code: CodeParse, Msg: fmt.Sprintf("cannot parse the document: %v", r)}
		}
	}()
	if err := CheckUTF8(src); err != nil {
		return nil, err
	}
	text := lineFeeds(src, 0, len(src))
	d := &Document{Source: src, text: text, Newline: detectNewline(src)}
	fm, body, err := frontMatterOf(src, text)
	if err != nil {
		return nil, err
	}
	d.FrontMatter, d.body = fm, body
	sc := scanBlocks(text, body, len(text), body, true)
	d.raw, d.hasRefs, d.openEnd = sc.headings, sc.hasRefs, sc.openAtEnd()
	d.Headings = outline(text, sc.headings)
	d.findTasks(sc)
	return d, nil
}

// emptyItemsBeforeCRLF returns src, or when src[from:to] has an empty
// list item ("*", "-", "+", "1." alone on its line) ended by "\r\n", a
// copy with a space for that "\r": goldmark takes such a marker for text,
// continuing the paragraph above, unless a space or "\n" follows it. The
// copy is only parsed; offsets stay valid and text is read from src.
func emptyItemsBeforeCRLF(src []byte, from, to int) []byte {
	var out []byte
	for at := from; at < to; {
		i := bytes.Index(src[at:to], []byte("\r\n"))
		if i < 0 {
			break
		}
		at += i
		if isListMarker(bytes.TrimLeft(src[lineStart(src, at):at], " \t>")) {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[at] = ' '
		}
		at += 2
	}
	if out == nil {
		return src
	}
	return out
}

// isListMarker reports whether b is a bullet or an ordered list marker.
func isListMarker(b []byte) bool {
	if len(b) == 1 {
		return b[0] == '-' || b[0] == '*' || b[0] == '+'
	}
	n := len(b) - 1
	if n < 1 || n > 9 || (b[n] != '.' && b[n] != ')') {
		return false
	}
	for _, c := range b[:n] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// frontMatterFormats maps an opening delimiter line to the format name.
// Only a block opening on the document's first line is front matter.
var frontMatterFormats = map[string]string{"---": "yaml", "+++": "toml"}

// frontMatterDelimiter returns the front matter delimiter that the first
// line of rest is, and its format name; ok is false when it is none.
func frontMatterDelimiter(rest []byte) (delim, name string, ok bool) {
	delim = string(bytes.TrimSpace(rest[:lineEnd(rest, 0)]))
	name, ok = frontMatterFormats[delim]
	return delim, name, ok
}

// ParseFrontMatter reads only the front matter of src (YAML "---" or TOML
// "+++" on the first line, after a BOM), as Parse would, without parsing
// the Markdown after it: for callers that need a file's metadata and not
// its tasks. A document without front matter gives a zero FrontMatter.
func ParseFrontMatter(src []byte) (FrontMatter, error) {
	fm, _, err := frontMatterOf(src, lineFeeds(src, 0, len(src)))
	return fm, err
}

// frontMatterOf reads the front matter of src, whose structure is read
// from text (src with lone "\r" as "\n"), and returns it with the offset
// where the Markdown body starts (after the BOM and front matter).
func frontMatterOf(src, text []byte) (FrontMatter, int, error) {
	start := 0
	if bytes.HasPrefix(text, bom) {
		start = len(bom)
	}
	fm, err := parseFrontMatter(text, start)
	if err != nil {
		return FrontMatter{}, 0, err
	}
	fm.Raw = src[start : start+len(fm.Raw) : start+len(fm.Raw)]
	if fm.Format == "" {
		fm.Raw = nil
	}
	return fm, start + len(fm.Raw), nil
}

func parseFrontMatter(src []byte, start int) (FrontMatter, error) {
	rest := src[start:]
	first := lineEnd(rest, 0)
	delim, name, ok := frontMatterDelimiter(rest)
	if !ok {
		return FrontMatter{}, nil
	}
	// Find the closing line first so that the decoder reads only the
	// front matter, not a copy of the whole document.
	end := -1
	for at := first; at < len(rest); at = lineEnd(rest, at) {
		if string(bytes.TrimSpace(rest[at:lineEnd(rest, at)])) == delim {
			end = lineEnd(rest, at)
			break
		}
	}
	if end < 0 {
		// No closing delimiter: the dashes are Markdown (a thematic break).
		return FrontMatter{}, nil
	}
	values := map[string]any{}
	format := frontmatter.NewFormat(delim, delim, yamlOrTOML(name))
	if _, err := frontmatter.Parse(bytes.NewReader(rest[:end]), &values, format); err != nil {
		return FrontMatter{}, &Error{Code: CodeParse, Line: 1, Column: 1,
			Msg: "the " + name + " front matter does not decode", Err: err}
	}
	return FrontMatter{Raw: src[start : start+end : start+end], Format: name, Values: values}, nil
}

// topBlock is a direct child of the document.
type topBlock struct {
	node    ast.Node
	start   int // offset of the start of the block's first line
	heading int // index into scan.headings, or -1
}

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

// scan is one goldmark parse of src[from:to] with every position mapped
// to an offset of src.
type scan struct {
	src      []byte
	base     int
	tops     []topBlock
	headings []rawHeading
	hasRefs  bool
	refs     []parser.Reference // link reference definitions, for heading text
}

// scanBlocks parses src[from:to] and maps the AST to offsets of src. Only
// block nodes are visited: paragraphs' inlines matter only for headings.
// lineFloor is the first offset a line may start at (after front matter).
// whole says that this is the parse of a whole document's body, which
// parsecount counts apart from the parses of parts.
func scanBlocks(src []byte, from, to, lineFloor int, whole bool) *scan {
	if whole {
		parsecount.Documents.Add(1)
	} else {
		parsecount.Regions.Add(1)
	}
	src = lineFeeds(src, from, to)
	pc := parser.NewContext()
	input := emptyItemsBeforeCRLF(src, from, to)
	root := mdParser.Parse(text.NewReader(input[from:to:to]), parser.WithContext(pc))
	sc := &scan{src: src, base: from, refs: pc.References(), hasRefs: len(pc.References()) > 0,
		tops: make([]topBlock, 0, root.ChildCount())}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		tb := topBlock{node: n, start: max(lineStart(src, sc.pos(n)), lineFloor), heading: -1}
		if h, ok := n.(*ast.Heading); ok {
			tb.heading = len(sc.headings)
			sc.addHeading(h, true)
		} else {
			sc.nestedHeadings(n)
		}
		sc.tops = append(sc.tops, tb)
	}
	return sc
}

// pos is the absolute offset of a block node's first character.
func (sc *scan) pos(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return sc.base + p
	}
	if l := n.Lines(); l != nil && l.Len() > 0 {
		return sc.base + l.At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeBlock {
			return sc.pos(c)
		}
	}
	return sc.base
}

// nestedHeadings collects headings inside lists and blockquotes: they are
// in the outline but never delimit sections or tasks.
func (sc *scan) nestedHeadings(n ast.Node) {
	switch n.Kind() {
	case ast.KindList, ast.KindListItem, ast.KindBlockquote:
	default:
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*ast.Heading); ok {
			sc.addHeading(h, false)
		} else {
			sc.nestedHeadings(c)
		}
	}
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
// heading is a "\n".
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
// nil when h has no markup, or (never expected) the copy is not a heading.
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
	var mini []byte
	if sc.isATX(h, src) {
		mini = append(append([]byte("# "), raw...), " #\n"...)
	} else {
		mini = append(raw, "\n=\n"...)
	}
	pc := parser.NewContext()
	for _, r := range sc.refs {
		pc.AddReference(r)
	}
	root := inlineParser.Parse(text.NewReader(mini), parser.WithContext(pc))
	heading, ok := root.FirstChild().(*ast.Heading)
	if !ok || root.ChildCount() != 1 {
		return nil
	}
	return &markedHeading{heading: heading, src: mini}
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
