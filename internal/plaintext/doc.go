// Package plaintext holds the string rules every layer of taskmd shares,
// from the task document (package taskdoc) up: what a control character
// is (IsControl), how a note is folded onto one line (FoldLine) and which
// line ending text added to a file uses (LineEnding). It imports nothing
// of taskmd, so taskdoc and every package above it use the one definition.
package plaintext
