package taskdoc

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Lines. A line ends at "\n", "\r\n" or a lone "\r", mixed as they come,
// as in CommonMark; every line number and column the package reports is
// counted here, so that they agree with each other and with what a
// CommonMark reader such as GitHub shows.

// Position returns the 1-based line and column of the byte at offset in
// src. The column counts characters from the start of the line, each
// byte that is not valid UTF-8 as one. offset is clamped to [0, len(src)];
// len(src) is the position just after the last byte.
func Position(src []byte, offset int) (line, column int) {
	offset = max(0, min(offset, len(src)))
	line = 1 + lineEnds(src, 0, offset)
	return line, 1 + utf8.RuneCount(src[startOfLine(src, offset):offset])
}

// CheckUTF8 returns nil when src is valid UTF-8, and otherwise an *Error with
// CodeInvalidUTF8 that points at the first invalid byte (Offset,
// Line, Column, Excerpt).
func CheckUTF8(src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	at := 0
	for at < len(src) {
		r, size := utf8.DecodeRune(src[at:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		at += size
	}
	return ErrorAt(&Error{Code: CodeInvalidUTF8, Msg: fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[at])}, src, at)
}

// lineEnds counts the line endings in src[from:to]. A "\r\n" counts once,
// at its "\n": a "\r" at to-1 followed by "\n" in src is not counted.
func lineEnds(src []byte, from, to int) int {
	win := src[from:to]
	n := bytes.Count(win, lf)
	if bytes.IndexByte(win, '\r') < 0 {
		return n
	}
	n += bytes.Count(win, cr) - bytes.Count(win, crlf)
	if to > from && src[to-1] == '\r' && to < len(src) && src[to] == '\n' {
		n--
	}
	return n
}

var (
	lf   = []byte("\n")
	cr   = []byte("\r")
	crlf = []byte("\r\n")
)

// startOfLine is the offset where the line holding off starts, a lone
// "\r" ending a line (lineStart reads text, where it is already "\n").
func startOfLine(src []byte, off int) int {
	for {
		i := bytes.LastIndexAny(src[:off], "\r\n")
		if i < 0 || src[i] == '\n' || i+1 == len(src) || src[i+1] != '\n' {
			return i + 1
		}
		off = i // the "\r" of a "\r\n" whose "\n" is at off
	}
}

// lineIndex turns increasing offsets into 1-based line numbers, in linear
// time overall: Parse numbers every heading and task with one.
type lineIndex struct {
	src       []byte
	pos, line int // the line of offset pos
}

// newLineIndex indexes src from its start.
func newLineIndex(src []byte) lineIndex { return lineIndex{src: src, line: 1} }

// at returns the line of offset off. Offsets must not decrease.
func (x *lineIndex) at(off int) int {
	x.line += lineEnds(x.src, x.pos, off)
	x.pos = off
	return x.line
}

// lineFeeds returns src, or when src[from:to] or the line ending before
// it has a lone "\r" a copy of src in which every lone "\r" is "\n".
// CommonMark (and so GitHub) ends a line at a lone "\r"; goldmark does
// not. Both are one byte, so every offset stays valid for src.
func lineFeeds(src []byte, from, to int) []byte {
	lone := -1
	for at := max(from-1, 0); at < to; at++ {
		i := bytes.IndexByte(src[at:to], '\r')
		if i < 0 {
			break
		}
		if at += i; at+1 == len(src) || src[at+1] != '\n' {
			lone = at
			break
		}
	}
	if lone < 0 {
		return src
	}
	text := bytes.Clone(src)
	for i := 0; i < len(text); i++ {
		if text[i] == '\r' && (i+1 == len(text) || text[i+1] != '\n') {
			text[i] = '\n'
		}
	}
	return text
}

// The helpers below read text, where every line ends in "\n" (see
// lineFeeds).

// lineStart is the offset of the start of the line holding off.
func lineStart(src []byte, off int) int {
	off = min(off, len(src))
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineEnd is the offset just after the line ending of the line holding
// off, or len(src) on a last line without one.
func lineEnd(src []byte, off int) int {
	if off >= len(src) {
		return len(src)
	}
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

// contentEnd is the offset where the line holding off ends, before its
// line ending and trailing spaces.
func contentEnd(src []byte, off int) int {
	end := lineEnd(src, off)
	for end > off && (src[end-1] == '\n' || src[end-1] == '\r' || src[end-1] == ' ' || src[end-1] == '\t') {
		end--
	}
	return end
}

// isBlankLine reports whether the line starting at off holds only spaces
// and tabs.
func isBlankLine(src []byte, off int) bool {
	return len(bytes.TrimSpace(src[off:lineEnd(src, off)])) == 0
}

// trimBlankLinesBefore moves end back over whole blank lines, never
// before floor. end must be a line start (or len(src)).
func trimBlankLinesBefore(src []byte, floor, end int) int {
	for end > floor {
		prev := lineStart(src, end-1)
		if prev < floor || !isBlankLine(src, prev) {
			break
		}
		end = prev
	}
	return end
}
