package taskdoc

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// plainParser is goldmark's own parser of CommonMark blocks: mdParser
// without skipText, and with goldmark's reader of link reference
// definitions on every paragraph instead of linkDefinitions.
var plainParser = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
)

// sameParse returns "" when mdParser and plainParser read src into the
// same blocks, with the same lines, the same Text nodes in every heading
// (segment and line break) and the same link reference definitions;
// otherwise what differs.
func sameParse(src []byte) string {
	gotCtx, wantCtx := parser.NewContext(), parser.NewContext()
	got := mdParser.Parse(text.NewReader(src), parser.WithContext(gotCtx))
	want := plainParser.Parse(text.NewReader(src), parser.WithContext(wantCtx))
	if g, w := referencesOf(gotCtx), referencesOf(wantCtx); g != w {
		return fmt.Sprintf("definitions %s, want %s", g, w)
	}
	return sameNode(got, want, "doc")
}

// referencesOf lists the link reference definitions of a parse, sorted
// (a parse context keeps them in a map).
func referencesOf(pc parser.Context) string {
	var refs []string
	for _, r := range pc.References() {
		refs = append(refs, fmt.Sprintf("[%q %q %q]", r.Label(), r.Destination(), r.Title()))
	}
	slices.Sort(refs)
	return strings.Join(refs, "")
}

func sameNode(got, want ast.Node, at string) string {
	if got.Kind() != want.Kind() {
		return fmt.Sprintf("%s: %s, want %s", at, got.Kind(), want.Kind())
	}
	if got.Type() == ast.TypeBlock {
		if g, w := segmentsOf(got.Lines()), segmentsOf(want.Lines()); g != w {
			return fmt.Sprintf("%s: lines %s, want %s", at, g, w)
		}
		if got.Pos() != want.Pos() {
			return fmt.Sprintf("%s: pos %d, want %d", at, got.Pos(), want.Pos())
		}
	}
	if h, ok := got.(*ast.Heading); ok && h.Level != want.(*ast.Heading).Level {
		return at + ": heading level"
	}
	switch got.Kind() {
	case ast.KindParagraph, ast.KindTextBlock:
		return "" // their Text nodes are the ones skipText leaves out
	case ast.KindHeading:
		g, w := textsOf(got), textsOf(want)
		if g != w {
			return fmt.Sprintf("%s: text %s, want %s", at, g, w)
		}
		return ""
	}
	gc, wc := got.FirstChild(), want.FirstChild()
	for i := 0; gc != nil || wc != nil; i++ {
		if gc == nil || wc == nil {
			return fmt.Sprintf("%s: %d children, want %d", at, got.ChildCount(), want.ChildCount())
		}
		if d := sameNode(gc, wc, fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
		gc, wc = gc.NextSibling(), wc.NextSibling()
	}
	return ""
}

func segmentsOf(s *text.Segments) string {
	if s == nil {
		return "nil"
	}
	var b strings.Builder
	for i := range s.Len() {
		seg := s.At(i)
		fmt.Fprintf(&b, "[%d,%d+%d]", seg.Start, seg.Stop, seg.Padding)
	}
	return b.String()
}

func textsOf(h ast.Node) string {
	var b strings.Builder
	for c := h.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok {
			fmt.Fprintf(&b, "<%s>", c.Kind())
			continue
		}
		fmt.Fprintf(&b, "[%d,%d soft=%v hard=%v raw=%v]", t.Segment.Start, t.Segment.Stop, t.SoftLineBreak(), t.HardLineBreak(), t.IsRaw())
	}
	return b.String()
}

// skipTextCases are headings whose text ends in each way a line can.
var skipTextCases = []string{
	"# a b c\n",
	"# a b  \n",
	"# a\tb \t\n",
	"# a &#32; b\n\\# c\n",
	"foo  \nbar\\\nbaz \t\n===\n",
	"foo \t\nbar \nbaz\n===\n",
	"foo  \r\nbar\\\r\nbaz\r\n---\r\n",
	"  foo\\\\\n  bar\n---\n",
	"- foo\n  bar  \n  ===\n",
	"> # a *b* `c`\n> d\ne\n---\n",
	"[x]: /u\n# [x] y\n\nz [x]\n",
	"- # a\n  b\n\n      code\n  c\n",
	"#\n\n# \\\n\n#  #  \n",
	"aé\n--\n",
	"\tfoo\t\n***\n",
	"   [a]: /u\n\n\t[b]: /v\n\n- [c]: /w 't'\n\n> [d]:\n> /x\n\nx [e]: /y\n\n[f]\n: /z\n[g]: /g\nh\n",
}

func TestSkipTextKeepsHeadings(t *testing.T) {
	examples := SpecExamples(t)
	for _, ex := range examples {
		if d := sameParse([]byte(ex.Markdown)); d != "" {
			t.Errorf("spec example %d: %s\n%q", ex.Example, d, ex.Markdown)
		}
	}
	for _, src := range skipTextCases {
		if d := sameParse([]byte(src)); d != "" {
			t.Errorf("%q: %s", src, d)
		}
	}
}

func FuzzSkipText(f *testing.F) {
	for _, src := range skipTextCases {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if d := sameParse(src); d != "" {
			t.Fatalf("%q: %s", src, d)
		}
	})
}
