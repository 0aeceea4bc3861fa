// Package text holds the string rules every layer of taskmd shares, from
// the task document (package taskdoc) up: what a control character is
// (IsControl) and how a note is folded onto one line (FoldLine). It
// imports nothing of taskmd, so taskdoc and every package above it use
// the one definition.
package text
