package editor

import (
	"fmt"
	"unicode/utf8"

	"github.com/taskmd/taskmd/taskdoc"
)

// Encoding is how a Position counts the characters of a line: in UTF-16
// code units (the Language Server Protocol's default), in bytes of UTF-8,
// or in Unicode code points.
type Encoding string

// The encodings, named as the Language Server Protocol names them.
const (
	UTF16 Encoding = "utf-16"
	UTF8  Encoding = "utf-8"
	UTF32 Encoding = "utf-32"
)

// Position is a place in a buffer: a line and a character on it, both
// from 0, the character counted in the Session's Encoding. A character
// past the end of its line means the end of the line, and a line past the
// last means the end of the buffer, as the Language Server Protocol says.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is the text from Start up to End, not included.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document, named by its workspace path
// ("docs/api/auth.md").
type Location struct {
	Path  string `json:"path"`
	Range Range  `json:"range"`
}

// text is one version of a buffer's bytes with its line index, and turns
// byte offsets into Positions and back.
type text struct {
	src   []byte
	lines *lineIndex
	enc   Encoding
}

func newText(src []byte, enc Encoding) *text {
	return &text{src: src, lines: newLineIndex(src), enc: enc}
}

// position is the Position of the byte at offset (clamped to the text).
func (t *text) position(offset int) Position {
	offset = max(0, min(offset, len(t.src)))
	line := t.lines.Line(offset)
	start := t.lines.Start(line)
	end := min(offset, t.lines.End(line))
	return Position{Line: line, Character: t.width(t.src[start:end])}
}

// span is the Range of a byte span.
func (t *text) span(s taskdoc.Span) Range {
	return Range{Start: t.position(s.Start), End: t.position(s.End)}
}

// offset is the byte offset of p. A character past the end of its line is
// the end of the line (before its line ending); one inside a character
// (half of a UTF-16 surrogate pair) is that character's start.
func (t *text) offset(p Position) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("position %d:%d is negative", p.Line, p.Character)}
	}
	if p.Line >= t.lines.Count() {
		return len(t.src), nil
	}
	at, end := t.lines.Start(p.Line), t.lines.End(p.Line)
	for n := 0; at < end; {
		r, size := utf8.DecodeRune(t.src[at:end])
		w := t.runeWidth(r, size)
		if n+w > p.Character {
			break
		}
		n += w
		at += size
	}
	return at, nil
}

// rangeOffsets is the byte span of r, its ends in order.
func (t *text) rangeOffsets(r Range) (start, end int, err error) {
	if start, err = t.offset(r.Start); err != nil {
		return 0, 0, err
	}
	if end, err = t.offset(r.End); err != nil {
		return 0, 0, err
	}
	if end < start {
		return 0, 0, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("range %d:%d-%d:%d ends before it starts", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)}
	}
	return start, end, nil
}

// width is the length of b in the text's encoding.
func (t *text) width(b []byte) int {
	switch t.enc {
	case UTF8:
		return len(b)
	case UTF32:
		return utf8.RuneCount(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += t.runeWidth(r, size)
		b = b[size:]
	}
	return n
}

func (t *text) runeWidth(r rune, size int) int {
	switch {
	case t.enc == UTF8:
		return size
	case t.enc == UTF16 && r >= 0x10000:
		return 2
	}
	return 1
}

// parseEncoding reads an encoding's name; "" is UTF16.
func parseEncoding(s string) (Encoding, error) {
	switch e := Encoding(s); e {
	case "":
		return UTF16, nil
	case UTF16, UTF8, UTF32:
		return e, nil
	}
	return "", &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf("unknown position encoding %q (want utf-16, utf-8 or utf-32)", s)}
}
