package main

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The editor's side of positions and edits, written from the protocol's
// text and nothing of the server's or the editor package's code, so that
// a test checks the server against an independent reading.

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type versionedID struct {
	URI     string `json:"uri"`
	Version *int   `json:"version"`
}

type textDocumentEdit struct {
	TextDocument versionedID `json:"textDocument"`
	Edits        []textEdit  `json:"edits"`
}

type workspaceEdit struct {
	Changes         map[string][]textEdit `json:"changes,omitempty"`
	DocumentChanges []textDocumentEdit    `json:"documentChanges,omitempty"`
}

type command struct {
	Title     string           `json:"title"`
	Command   string           `json:"command"`
	Arguments []map[string]any `json:"arguments"`
}

type codeAction struct {
	Title   string         `json:"title"`
	Kind    string         `json:"kind"`
	Edit    *workspaceEdit `json:"edit"`
	Command *command       `json:"command"`
}

type diagnostic struct {
	Range              lspRange `json:"range"`
	Severity           int      `json:"severity"`
	Code               string   `json:"code"`
	Source             string   `json:"source"`
	Message            string   `json:"message"`
	RelatedInformation []struct {
		Location struct {
			URI   string   `json:"uri"`
			Range lspRange `json:"range"`
		} `json:"location"`
		Message string `json:"message"`
	} `json:"relatedInformation"`
}

type publishDiagnostics struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail"`
	Kind           int              `json:"kind"`
	Range          lspRange         `json:"range"`
	SelectionRange lspRange         `json:"selectionRange"`
	Children       []documentSymbol `json:"children"`
}

// lineStarts are the offsets where the lines of text start; a line ends
// at "\n", "\r\n" or a lone "\r".
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// units is how many code units of enc r takes.
func units(r rune, enc string) int {
	if enc == "utf-8" {
		return utf8.RuneLen(r)
	}
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}

// offsetOf is the byte offset of p in text, counted in enc ("utf-16" or
// "utf-8"); a character past the end of its line is the line's end.
func offsetOf(text string, p position, enc string) int {
	starts := lineStarts(text)
	if p.Line >= len(starts) {
		return len(text)
	}
	at := starts[p.Line]
	end := len(text)
	if p.Line+1 < len(starts) {
		end = starts[p.Line+1]
	}
	line := strings.TrimRight(text[at:end], "\r\n")
	n := 0
	for i, r := range line {
		if n >= p.Character {
			return at + i
		}
		n += units(r, enc)
	}
	return at + len(line)
}

// positionOf is the position of the byte at offset in text.
func positionOf(text string, offset int, enc string) position {
	starts := lineStarts(text)
	line := 0
	for line+1 < len(starts) && starts[line+1] <= offset {
		line++
	}
	n := 0
	for _, r := range text[starts[line]:offset] {
		n += units(r, enc)
	}
	return position{Line: line, Character: n}
}

// slice is the text of r.
func slice(text string, r lspRange, enc string) string {
	return text[offsetOf(text, r.Start, enc):offsetOf(text, r.End, enc)]
}

// applyEdits applies edits, all positioned in text as it is, at once.
func applyEdits(text string, edits []textEdit, enc string) string {
	type span struct {
		start, end int
		with       string
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		spans[i] = span{offsetOf(text, e.Range.Start, enc), offsetOf(text, e.Range.End, enc), e.NewText}
	}
	slices.SortStableFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s.start])
		b.WriteString(s.with)
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String()
}

// contentChanges are edits as a didChange sends them: one after the
// other, so the last in the document first (of inserts at one place, the
// last given first), each on the text the ones before it left.
func contentChanges(edits []textEdit) []contentChange {
	sorted := slices.Clone(edits)
	slices.Reverse(sorted)
	slices.SortStableFunc(sorted, func(a, b textEdit) int {
		return -cmp.Or(cmp.Compare(a.Range.Start.Line, b.Range.Start.Line), cmp.Compare(a.Range.Start.Character, b.Range.Start.Character))
	})
	out := make([]contentChange, len(sorted))
	for i, e := range sorted {
		r := e.Range
		out[i] = contentChange{Range: &r, Text: e.NewText}
	}
	return out
}

// contentChange is a TextDocumentContentChangeEvent: the text that
// replaces Range, or the whole text without one.
type contentChange struct {
	Range *lspRange `json:"range,omitempty"`
	Text  string    `json:"text"`
}
