package taskdoc

import (
	"bytes"
	"fmt"

	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// mdParser reads plain CommonMark block structure only. Inline markup
// never changes which lines are headings or where blocks end, so it is
// not parsed; paragraphs' text is not even read (skipText); the few
// headings whose text holds markup are read again with inlineParser to
// make their anchors. The task format needs no extension,
// and a GFM table is read as a paragraph, which is all heading detection
// needs. A goldmark parser keeps its per-parse state in the parse context,
// so one value serves concurrent parses.
var mdParser = blockParser(parser.WithInlineParsers(util.Prioritized(skipText{}, 0)))

// blockParser is a goldmark parser of CommonMark blocks, with opts.
func blockParser(opts ...parser.Option) parser.Parser {
	return parser.NewParser(append([]parser.Option{
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(linkDefinitions{}, 100)),
	}, opts...)...)
}

// linkDefinitions is goldmark's reader of link reference definitions, run only
// on the paragraphs that can start with one: those whose first byte that
// is not a space is "[". goldmark's gives up on any other paragraph at
// that byte, but only after making a reader of all its lines; most
// paragraphs of a task document are such.
type linkDefinitions struct{}

func (linkDefinitions) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if opensDefinition(node.Lines(), reader.Source()) {
		parser.LinkReferenceParagraphTransformer.Transform(node, reader, pc)
	}
}

// opensDefinition reports whether the first byte of lines that is not a
// space (util.IsSpace, as goldmark skips them) is "[", or there is none.
func opensDefinition(lines *text.Segments, src []byte) bool {
	for i := range lines.Len() {
		seg := lines.At(i)
		for _, c := range seg.Value(src) {
			if !util.IsSpace(c) {
				return c == '['
			}
		}
	}
	return true
}

// inlineParser is full CommonMark, for the text of headings with markup.
var inlineParser = goldmark.New().Parser()

var bom = []byte("\ufeff")

// Parse reads a document. It validates UTF-8 (CodeInvalidUTF8 with the line
// and column of the first bad byte), decodes front matter (keeping it as
// bytes, with FrontMatter.Err, when it is not valid YAML or TOML), applies
// the limits (CodeTooComplex, see MaxNesting to MaxLines), builds the outline from
// goldmark's AST and finds the Tasks section and its tasks. Parse never
// panics and does not modify src; Document.Source is src.
func Parse(src []byte) (*Document, error) {
	doc, _, err := parse(src)
	return doc, err
}

// parse is Parse, returning the parse of the body too, which an edit's
// full check reads further (see checkLabels).
func parse(src []byte) (doc *Document, sc *scan, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, sc, err = nil, nil, &Error{Code: CodeParse, Msg: fmt.Sprintf("cannot parse the document: %v", r)}
		}
	}()
	if err := CheckUTF8(src); err != nil {
		return nil, nil, err
	}
	text := lineFeeds(src, 0, len(src))
	d := &Document{Source: src, text: text, Newline: plaintext.LineEnding(src)}
	d.FrontMatter, d.body = frontMatterOf(src, text)
	lines := scanLines(text, d.body, len(text), counts{})
	if err := lines.refusal(src, ""); err != nil {
		return nil, nil, err
	}
	sc = scanBlocks(text, d.body, len(text), d.body, true)
	d.raw, d.hasRefs, d.openEnd = sc.headings, sc.hasRefs, sc.openAtEnd()
	d.lines = lines.counts
	d.Headings = outline(text, sc.headings)
	d.findTasks(sc)
	return d, sc, nil
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
