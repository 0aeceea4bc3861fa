// Package mdtext holds the Markdown text rules that the task journals
// (package journal) and the worker checkpoints (package checkpoint) share,
// and that worker applies to what a pivot or a clarification records: the
// text a stored value may hold (CheckText, OneLine, FoldedLine), and the
// line reader both file formats are read with (SplitLines, fences, ATX
// headings, bullets, code spans), as CommonMark reads them.
package mdtext
