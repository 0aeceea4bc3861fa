package editor

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Test helpers that read Positions without the package's own code, so that
// a test compares the package's answer with an independent reading of it.
// They are exported so that the external tests (package editor_test) share
// them; they exist only in test builds.

// SplitLines splits src into its lines without their line endings, lines
// ended by "\n", "\r\n" or a lone "\r". An empty src, and one ending in a
// line ending, has an empty last line.
func SplitLines(src string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			lines = append(lines, src[start:i])
			start = i + 1
		case '\r':
			lines = append(lines, src[start:i])
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(lines, src[start:])
}

// StrictOffset is the byte offset of p in src, counted in enc: strictly,
// so that a position past the end of its line or of the text, or inside
// a character, is an error rather than clamped. The library's own edits
// and answers never need the clamping the protocol allows.
func StrictOffset(src string, p Position, enc Encoding) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("negative position %v", p)
	}
	at := 0
	lines := SplitLines(src)
	if p.Line >= len(lines) {
		return 0, fmt.Errorf("line %d past the last line %d", p.Line, len(lines)-1)
	}
	for i := 0; i < p.Line; i++ {
		at += len(lines[i])
		if strings.HasPrefix(src[at:], "\r\n") {
			at += 2
		} else {
			at++
		}
	}
	line := lines[p.Line]
	n := 0
	for i, r := range line {
		if n == p.Character {
			return at + i, nil
		}
		if n > p.Character {
			return 0, fmt.Errorf("position %v is inside the character %q", p, r)
		}
		switch enc {
		case UTF8:
			n += utf8.RuneLen(r)
		case UTF32:
			n++
		default:
			n += len(utf16.Encode([]rune{r}))
		}
	}
	if n == p.Character {
		return at + len(line), nil
	}
	return 0, fmt.Errorf("position %v is past the end of line %q (%d)", p, line, n)
}

// ApplyEdits applies edits, each a Range of src as it was before any of
// them, to src: in order, non-overlapping, every position strictly inside
// src (see StrictOffset), or an error saying which is not.
func ApplyEdits(src string, edits []Edit, enc Encoding) (string, error) {
	var b strings.Builder
	last := 0
	for i, e := range edits {
		start, err := StrictOffset(src, e.Range.Start, enc)
		if err != nil {
			return "", fmt.Errorf("edit %d: start: %w", i, err)
		}
		end, err := StrictOffset(src, e.Range.End, enc)
		if err != nil {
			return "", fmt.Errorf("edit %d: end: %w", i, err)
		}
		if end < start {
			return "", fmt.Errorf("edit %d ends before it starts: %v", i, e.Range)
		}
		if start < last {
			return "", fmt.Errorf("edit %d at %v overlaps or precedes the edit before it", i, e.Range)
		}
		b.WriteString(src[last:start])
		b.WriteString(e.NewText)
		last = end
	}
	b.WriteString(src[last:])
	return b.String(), nil
}

// Encodings are the encodings a Session counts characters in.
var Encodings = []Encoding{UTF16, UTF8, UTF32}
