package taskdoc

import "strings"

// IsControl reports whether r is a control character: the C0 controls
// (U+0000 to U+001F), DEL and the C1 controls (U+0080 to U+009F). Edits
// write none but tab and line breaks, and one-line values (agent fields,
// request keys) none at all; this is the one definition every package
// refuses them by.
func IsControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f)
}

// FoldLine joins text onto one line as notes are recorded: its lines and
// runs of white space become single spaces, and it is trimmed.
func FoldLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
