package journal

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/mdtext"
	"github.com/taskmd/taskmd/internal/plaintext"
)

// journalTitle is the first line of a new journal.
func journalTitle(address string) string { return "# Checkpoints: " + address }

// appendEntry returns journal with e's section added at its end, after a
// blank line, in the journal's own line endings. The bytes already there
// are kept as they are.
func appendEntry(journal []byte, e Entry) []byte {
	eol := plaintext.LineEnding(journal)
	out := make([]byte, 0, len(journal)+2*len(eol)+len(e.Summary)+len(e.Detail)+128)
	out = append(out, journal...)
	if len(out) > 0 && !endsLine(out) {
		out = append(out, eol...)
	}
	if eol == "\n" && len(out) > 0 && out[len(out)-1] == '\r' {
		// A last line ended by a lone "\r" in a "\n" file: a "\n" now
		// would join it into one "\r\n" ending.
		out = append(out, '\r')
	}
	if len(out) > 0 && !endsBlank(out) {
		out = append(out, eol...)
	}
	return append(out, renderEntry(e, eol)...)
}

// renderEntry is e's section, every line ended by eol.
func renderEntry(e Entry, eol string) string {
	head := "## " + strconv.Itoa(e.Sequence) + fieldSep + string(e.Type) + fieldSep + e.Time.UTC().Format(time.RFC3339)
	if e.Agent != "" {
		head += fieldSep + e.Agent
	}
	lines := []string{head, "", escapeSummary(e.Summary)}
	if len(e.FilesChanged) > 0 || e.Key != "" {
		lines = append(lines, "")
	}
	if len(e.FilesChanged) > 0 {
		spans := make([]string, len(e.FilesChanged))
		for i, f := range e.FilesChanged {
			spans[i] = mdtext.CodeSpan(f)
		}
		lines = append(lines, "- Files: "+strings.Join(spans, ", "))
	}
	if e.Key != "" {
		lines = append(lines, "- Key: "+mdtext.CodeSpan(e.Key))
	}
	if e.Detail != "" {
		fence := strings.Repeat("`", max(3, mdtext.LongestRun(e.Detail, '`')+1))
		lines = append(lines, "", fence+infoString(e.Detail))
		lines = append(lines, strings.Split(e.Detail, "\n")...)
		lines = append(lines, fence)
	}
	return strings.Join(lines, eol) + eol
}

// fieldSep separates the fields of an entry heading.
const fieldSep = " · "

// escapeSummary puts a backslash before a summary's first character when
// that is ASCII punctuation, so that no summary reads as a heading, a list
// item, a fence, a quote or an HTML block, in this package or in any
// Markdown viewer (which shows the character without the backslash).
func escapeSummary(s string) string {
	if s != "" && mdtext.IsPunct(s[0]) {
		return `\` + s
	}
	return s
}

func unescapeSummary(s string) string {
	if len(s) >= 2 && s[0] == '\\' && mdtext.IsPunct(s[1]) {
		return s[1:]
	}
	return s
}

// readSpans reads a value written as code spans separated by commas
// ("`a.go`, `b.go`"). A value a person wrote without backticks is split at
// its commas.
func readSpans(v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	out := make([]string, 0, strings.Count(v, ",")+1)
	for v != "" {
		if v[0] != '`' {
			for _, part := range strings.Split(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, part)
				}
			}
			return out
		}
		content, rest, ok := mdtext.CutSpan(v)
		if !ok { // an unclosed span is text, as in CommonMark
			return append(out, v)
		}
		out = append(out, content)
		v = strings.TrimLeft(strings.TrimSpace(rest), ",")
		v = strings.TrimSpace(v)
	}
	return out
}

// readSpan reads a value written as one code span, or as plain text.
func readSpan(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "`") {
		if content, rest, ok := mdtext.CutSpan(v); ok && strings.TrimSpace(rest) == "" {
			return content
		}
	}
	return v
}

// infoString labels a detail's fence for viewers: json when it is a JSON
// object or array, text otherwise. Reading ignores it.
func infoString(detail string) string {
	d := strings.TrimSpace(detail)
	if d != "" && (d[0] == '{' || d[0] == '[') && json.Valid([]byte(d)) {
		return "json"
	}
	return "text"
}

func endsLine(b []byte) bool {
	c := b[len(b)-1]
	return c == '\n' || c == '\r'
}

// endsBlank reports whether b, which ends with a line ending, ends with a
// blank line (or is only line endings).
func endsBlank(b []byte) bool {
	switch {
	case bytes.HasSuffix(b, []byte("\r\n")):
		b = b[:len(b)-2]
	default:
		b = b[:len(b)-1]
	}
	return len(bytes.TrimRight(lastLine(b), " \t")) == 0
}

// lastLine is the text after the last line ending of b.
func lastLine(b []byte) []byte {
	if i := bytes.LastIndexAny(b, "\r\n"); i >= 0 {
		return b[i+1:]
	}
	return b
}
