package plaintext

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsControl reports whether r is a control character: the C0 controls
// (U+0000 to U+001F), DEL and the C1 controls (U+0080 to U+009F). Edits
// write none but tab and line breaks, and one-line values (agent fields,
// request keys) none at all; this is the one definition every package
// refuses them by.
func IsControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f)
}

// FoldLine joins text onto one line as notes are recorded: its lines and
// runs of white space (unicode.IsSpace) become single spaces, and it is
// trimmed. Text that is already folded, as the items of a checkpoint read
// back are, comes back without an allocation.
func FoldLine(s string) string {
	prevSpace := true // no space at the start
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				return fold(s)
			}
			i += n - 1
			prevSpace = false
			continue
		}
		space := c == ' ' || c >= '\t' && c <= '\r'
		if space && (c != ' ' || prevSpace) {
			return fold(s)
		}
		prevSpace = space
	}
	if prevSpace && s != "" {
		return fold(s)
	}
	return s
}

// fold is FoldLine for text that is not folded yet.
func fold(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// LineEnding returns src's first line ending ("\n", "\r\n" or "\r"), or
// "\n" if it has none: the line ending text added to src should use.
func LineEnding(src []byte) string {
	i := bytes.IndexAny(src, "\r\n")
	switch {
	case i < 0 || src[i] == '\n':
		return "\n"
	case i+1 < len(src) && src[i+1] == '\n':
		return "\r\n"
	}
	return "\r"
}
