package taskdoc

import (
	"bytes"
	"cmp"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/taskmd/taskmd/internal/parsecount"
)

// topBlock is a direct child of the document.
type topBlock struct {
	node    ast.Node
	start   int // offset of the start of the block's first line
	heading int // index into scan.headings, or -1
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
	refIndex definitions        // refs by label, made when a heading needs it
	// fieldStore and locStore hold the fields of the scan's tasks and where
	// they sit: each task's list takes a capped part (reserveFields), so
	// that a document's fields cost a few allocations, not two a task.
	// fieldsWanted is the room the first part is made with: a few fields a
	// task (see expectFields).
	fieldStore   []Field
	locStore     []fieldLoc
	fieldsWanted int
}

// expectFields makes room for the fields of tasks tasks when the first
// of them is read.
func (sc *scan) expectFields(tasks int) { sc.fieldsWanted = 3 * tasks }

// reserveFields returns empty slices with room for n fields and their
// locations, capped so that appending more than n allocates anew.
func (sc *scan) reserveFields(n int) ([]Field, []fieldLoc) {
	if cap(sc.fieldStore)-len(sc.fieldStore) < n {
		// The first part is what expectFields asked for; a document with
		// more fields than expected takes more parts, of 16 at least.
		size := max(n, cmp.Or(sc.fieldsWanted, 16))
		sc.fieldsWanted = 0
		sc.fieldStore, sc.locStore = make([]Field, 0, size), make([]fieldLoc, 0, size)
	}
	at := len(sc.fieldStore)
	sc.fieldStore, sc.locStore = sc.fieldStore[:at+n], sc.locStore[:at+n]
	return sc.fieldStore[at : at : at+n], sc.locStore[at : at : at+n]
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
	refs := pc.References()
	sc := &scan{src: src, base: from, refs: refs, hasRefs: len(refs) > 0,
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

// openAtEnd reports whether the document ends inside a code fence or an
// HTML block that has no closing line, which would swallow anything
// appended.
func (sc *scan) openAtEnd() bool {
	if len(sc.tops) == 0 {
		return false
	}
	src := sc.src
	switch n := sc.tops[len(sc.tops)-1].node.(type) {
	case *ast.FencedCodeBlock:
		// The fence is closed when a line follows its content: the
		// closing fence. An unclosed one runs to the end of the file.
		after := lineEnd(src, sc.pos(n))
		if l := n.Lines(); l.Len() > 0 {
			after = lineEnd(src, sc.base+l.At(l.Len()-1).Start)
		}
		return len(bytes.TrimSpace(src[after:])) == 0
	case *ast.HTMLBlock:
		// Types 1 to 5 (<script>, <!--, <?, <!X, <![CDATA[) end only at
		// their closing marker; the others end at a blank line.
		return n.HTMLBlockType <= ast.HTMLBlockType5 && !n.HasClosure() && !sc.closesOnFirstLine(n)
	}
	return false
}

// closesOnFirstLine reports whether an HTML block of type 1 to 5 has its
// closing marker on its first line, as goldmark decides it: such a block
// ends there, though goldmark records no closing line for it (it learns
// that it is closed only when a line follows).
func (sc *scan) closesOnFirstLine(n *ast.HTMLBlock) bool {
	lines := n.Lines()
	if lines.Len() != 1 {
		return false
	}
	seg := lines.At(0)
	first := seg.Value(sc.src[sc.base:])
	switch n.HTMLBlockType {
	case ast.HTMLBlockType1:
		return htmlType1Close.Match(first)
	case ast.HTMLBlockType2:
		return bytes.Contains(first, []byte("-->"))
	case ast.HTMLBlockType3:
		return bytes.Contains(first, []byte("?>"))
	case ast.HTMLBlockType4:
		return bytes.Contains(first, []byte(">"))
	}
	return bytes.Contains(first, []byte("]]>"))
}

// htmlType1Close is goldmark's end condition of an HTML block of type 1.
var htmlType1Close = regexp.MustCompile(`(?i)^.*</(?:script|pre|style|textarea)>.*`)
