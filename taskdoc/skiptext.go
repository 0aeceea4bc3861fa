package taskdoc

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// skipText is mdParser's only inline parser. Without inline parsers
// goldmark still walks every character of every paragraph and makes a
// Text node of each line: two fifths of its time, for nodes nothing of
// taskdoc reads. goldmark calls an inline parser at the start of each
// line (with ' ' for a letter, or the punctuation it starts with), so
// skipText, triggered by a space and every byte goldmark reads as
// punctuation, gets every block's first line:
//
//   - a paragraph or a list item's text: it takes all the lines and
//     leaves one empty Text node (block nodes keep their Lines, which is
//     what taskdoc reads);
//   - a heading: it makes the Text nodes goldmark makes without inline
//     parsers (plainText), which the outline reads; left to goldmark, the
//     triggers would split them at every space and punctuation mark.
//
// TestSkipTextKeepsHeadings compares the blocks and the headings' Text
// nodes with those of goldmark's own parser over the CommonMark corpus.
type skipText struct{}

var skipTextTriggers = func() []byte {
	t := []byte{' '}
	for c := range 256 {
		if util.IsPunct(byte(c)) {
			t = append(t, byte(c))
		}
	}
	return t
}()

func (skipText) Trigger() []byte { return skipTextTriggers }

func (skipText) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	switch parent.Kind() {
	case ast.KindParagraph, ast.KindTextBlock:
		for {
			if line, _ := block.PeekLine(); line == nil {
				break
			}
			block.AdvanceLine()
		}
		return ast.NewText()
	case ast.KindHeading:
		return plainText(parent, block)
	}
	return nil
}

// plainText appends to parent the Text nodes goldmark's inline pass makes
// of block's lines when no inline parser starts on them (parser.parseBlock
// of goldmark v1.8: one node a line, its line break read from the line's
// end), except the last, which it returns for goldmark to append.
func plainText(parent ast.Node, block text.Reader) ast.Node {
	source := block.Source()
	var last ast.Node // nil, not a nil *ast.Text, when there is no line
	for {
		line, _ := block.PeekLine()
		if line == nil {
			break
		}
		length, hard, visible, soft := lineBreakOf(line)
		l, start := block.Position()
		n := length
		if i := bytes.IndexByte(line[:length], '\n'); i >= 0 {
			n = i
		}
		if n != 0 {
			block.Advance(n)
		}
		currentL, current := block.Position()
		if l != currentL {
			continue
		}
		diff := start.Between(current)
		var t *ast.Text
		if hard && visible {
			t = ast.NewTextSegment(diff)
		} else {
			t = ast.NewTextSegment(diff.TrimRightSpace(source))
		}
		t.SetSoftLineBreak(soft)
		t.SetHardLineBreak(hard)
		if last != nil {
			parent.AppendChild(parent, last)
		}
		last = t
		block.AdvanceLine()
	}
	return last
}

// lineBreakOf reads a line's end as goldmark does: a backslash or two
// spaces before the line ending are a hard break (the backslash a visible
// one), other line endings a soft break; length is the line without a
// hard break's characters.
func lineBreakOf(line []byte) (length int, hard, visible, soft bool) {
	n := len(line)
	newline := line[n-1] == '\n'
	switch {
	case newline && ((n >= 3 && line[n-2] == '\\' && line[n-3] != '\\') || (n == 2 && line[n-2] == '\\')):
		return n - 2, true, true, false
	case newline && ((n >= 4 && line[n-3] == '\\' && line[n-2] == '\r' && line[n-4] != '\\') || (n == 3 && line[n-3] == '\\' && line[n-2] == '\r')):
		return n - 3, true, true, false
	case newline && n >= 3 && line[n-3] == ' ' && line[n-2] == ' ':
		return n - 3, true, false, false
	case newline && n >= 4 && line[n-4] == ' ' && line[n-3] == ' ' && line[n-2] == '\r':
		return n - 4, true, false, false
	}
	return n, false, false, newline
}
