package checkpoint

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/taskmd/taskmd/internal/mdtext"
)

// Render writes c as a checkpoint document (see the package doc's "Worker
// checkpoints"): the front matter, a title, then the sections that have
// something in them, in a fixed order, with LF line endings. It checks c
// first: a value Save would refuse is refused here with the same error
// (INVALID_ARGUMENTS, INVALID_UTF8, CONTROL_CHARACTER), except that the
// worker id may be empty. Parse reads what Render writes
// back as c, in the normal form Render wrote it in (items folded onto one
// line, text without blank lines around it, "" status as PARTIAL).
func (c Checkpoint) Render() ([]byte, error) {
	n, err := c.normal()
	if err != nil {
		return nil, err
	}
	return n.render(), nil
}

// render writes c, which is normal.
func (c Checkpoint) render() []byte {
	var b strings.Builder
	b.Grow(1024 + 64*(len(c.Completed)+len(c.InProgress)+len(c.Remaining)+len(c.FilesChanged)) +
		len(c.OriginalTask) + len(c.Notes) + len(c.Resumption))
	b.WriteString("---\n")
	field := func(key, value string) {
		if value != "" {
			b.WriteString(key + ": " + yamlQuote(value) + "\n")
		}
	}
	field(keyWorker, c.Worker)
	field(keyTask, c.Task)
	field(keyStatus, string(c.Status))
	field(keyPhase, c.Phase)
	field(keyPivotMode, string(c.PivotMode))
	field(keyPivotReason, c.PivotReason)
	field(keyClarification, c.Clarification)
	if !c.Time.IsZero() {
		field(keyTime, c.Time.UTC().Format(time.RFC3339))
	}
	if c.Sequence > 0 {
		b.WriteString(keySequence + ": " + strconv.Itoa(c.Sequence) + "\n")
	}
	b.WriteString("---\n\n# Worker Checkpoint")
	if c.Worker != "" {
		b.WriteString(": " + c.Worker)
	}
	b.WriteString("\n")
	text := func(heading, body string) {
		if body != "" {
			b.WriteString("\n## " + heading + "\n\n" + body + "\n")
		}
	}
	list := func(heading, box string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString("\n## " + heading + "\n\n")
		for _, it := range items {
			b.WriteString("- " + box + escapeItem(it) + "\n")
		}
	}
	text(headOriginalTask, c.OriginalTask)
	list(headCompleted, "[x] ", c.Completed)
	list(headInProgress, "[ ] ", c.InProgress)
	list(headRemaining, "[ ] ", c.Remaining)
	list(headBlocked, "", c.Blocked)
	list(headParallel, "", c.ParallelWork)
	if len(c.FilesChanged) > 0 {
		b.WriteString("\n## " + headFiles + "\n\n")
		for _, f := range c.FilesChanged {
			b.WriteString("- " + mdtext.CodeSpan(f.Path))
			if f.Note != "" {
				b.WriteString(" (" + f.Note + ")")
			}
			b.WriteString("\n")
		}
	}
	list(headDecisions, "", c.Decisions)
	text(headNotes, c.Notes)
	text(headResumption, c.Resumption)
	for _, s := range c.Extra {
		b.WriteString("\n## " + s.Heading + "\n")
		if s.Body != "" {
			b.WriteString("\n" + s.Body + "\n")
		}
	}
	return []byte(b.String())
}

// The front matter keys.
const (
	keyWorker        = "worker"
	keyTask          = "task"
	keyStatus        = "status"
	keyPhase         = "phase"
	keyPivotMode     = "pivot_mode"
	keyPivotReason   = "pivot_reason"
	keyClarification = "clarification_id"
	keyTime          = "time"
	keySequence      = "sequence"
)

// yamlQuote writes s as a YAML double-quoted scalar, so that no value is
// ever read as anything but the string it is ("yes", "1.0", ": x", "#x"):
// '"' and '\' are escaped, and so is every character that is not
// printable (U+2028, which YAML 1.1 takes for a line break, U+FEFF, ...).
func yamlQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r <= 0xFFFF:
			b.WriteString(`\u`)
			b.WriteString(hexDigits(uint32(r), 4))
		default:
			b.WriteString(`\U`)
			b.WriteString(hexDigits(uint32(r), 8))
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hexDigits writes v in n upper-case hex digits.
func hexDigits(v uint32, n int) string {
	s := strings.ToUpper(strconv.FormatUint(uint64(v), 16))
	return strings.Repeat("0", max(0, n-len(s))) + s
}

// escapeItem puts a backslash before an item that starts with '[' (which
// would read as a checkbox) or '\' (which would read as an escape).
func escapeItem(s string) string {
	if s != "" && (s[0] == '[' || s[0] == '\\') {
		return `\` + s
	}
	return s
}

// unescapeItem undoes escapeItem, and reads a person's backslash escape
// of the first character the same way.
func unescapeItem(s string) string {
	if len(s) >= 2 && s[0] == '\\' && mdtext.IsPunct(s[1]) {
		return s[1:]
	}
	return s
}
