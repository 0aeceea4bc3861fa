package checkpoint

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/mdtext"
	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// FolderWorkers is the folder of worker checkpoints: one folder per worker,
// named by its id, and one file per checkpoint in it. Task journals live
// beside it, in checkpoints/tasks (package journal), so the two never meet.
const FolderWorkers = "checkpoints/workers"

// Status is how far a worker got with its task when it wrote a checkpoint,
// the pivot protocol's "## Status:" line.
type Status string

// The statuses of a worker checkpoint.
const (
	StatusPartial Status = "PARTIAL" // work stopped part way; resumable
	StatusDone    Status = "DONE"    // the task is finished
	StatusBlocked Status = "BLOCKED" // the worker cannot go on (see Blocked)
)

// Statuses are the statuses of a worker checkpoint.
var Statuses = []Status{StatusPartial, StatusDone, StatusBlocked}

// PivotMode is how a worker was asked to stop (the pivot protocol).
type PivotMode string

// The pivot modes.
const (
	PivotGraceful  PivotMode = "graceful"  // the current tool call completed, then the checkpoint
	PivotImmediate PivotMode = "immediate" // checkpoint at once, the current tool call abandoned
	PivotHard      PivotMode = "hard"      // killed: a checkpoint of this mode is written by someone else
)

// PivotModes are the modes of a pivot.
var PivotModes = []PivotMode{PivotGraceful, PivotImmediate, PivotHard}

// Checkpoint is what a worker saved about its task so that it, a new
// worker or a person can resume it: the machine fields that are the
// document's front matter, then its sections. The zero value of every
// field but Worker (which Save needs) is valid: it leaves the field or
// section out. Its JSON form (MarshalJSON, UnmarshalJSON) is the checkpoint-resume protocol's,
// that of JSON and ParseJSON.
type Checkpoint struct {
	Worker        string    // the worker's id: lower-case letters, digits, '_' and '-'
	Task          string    // optional task address, "/api/auth.md#add-rate-limiting"
	Status        Status    // PARTIAL (also for ""), DONE or BLOCKED
	Phase         string    // optional lower_snake word: working, waiting_clarification, pivoted, ...
	PivotMode     PivotMode // optional; when the worker was pivoted
	PivotReason   string    // optional; one line
	Clarification string    // optional id of the clarification request it waits for; one line
	Time          time.Time // UTC, to the second; assigned by Save
	Sequence      int       // 1, 2, 3, ... per worker; assigned by Save

	OriginalTask string       // Markdown text, any number of lines
	Completed    []string     // checklist items, one line each
	InProgress   []string     // checklist items
	Remaining    []string     // checklist items
	Blocked      []string     // what waits, and on what
	ParallelWork []string     // what can go on meanwhile ("Parallel Work Available")
	FilesChanged []FileChange // files the work changed, usually uncommitted
	Decisions    []string     // choices made, and why
	Notes        string       // Markdown text
	Resumption   string       // Markdown text: how to continue ("Resumption Instructions")
	Extra        []Section    // sections of other names, kept in order after the others
}

// FileChange is one item of Files Changed: "- `src/routes/users.ts` (modified)".
type FileChange struct {
	Path string `json:"path"`           // one line
	Note string `json:"note,omitempty"` // optional, one line: new, modified, deleted, ...
}

// Section is a section a person (or a worker) added under a heading of its
// own.
type Section struct {
	Heading string `json:"heading"`        // one line; not the name of one of the sections above
	Body    string `json:"body,omitempty"` // Markdown text
}

// The section headings, in the order Render writes them. Parsing also takes
// a few other spellings (see sectionNames).
const (
	headOriginalTask = "Original Task"
	headCompleted    = "Completed"
	headInProgress   = "In Progress"
	headRemaining    = "Remaining"
	headBlocked      = "Blocked"
	headParallel     = "Parallel Work Available"
	headFiles        = "Files Changed"
	headDecisions    = "Decisions"
	headNotes        = "Notes"
	headResumption   = "Resumption Instructions"
)

// sectionNames maps a heading, as sectionKey reads it, to the heading of
// the section it names.
var sectionNames = map[string]string{
	"original task":           headOriginalTask,
	"task":                    headOriginalTask,
	"completed":               headCompleted,
	"done":                    headCompleted,
	"in progress":             headInProgress,
	"remaining":               headRemaining,
	"todo":                    headRemaining,
	"blocked":                 headBlocked,
	"blockers":                headBlocked,
	"parallel work available": headParallel,
	"parallel work":           headParallel,
	"files changed":           headFiles,
	"files":                   headFiles,
	"decisions":               headDecisions,
	"notes":                   headNotes,
	"resumption instructions": headResumption,
	"resume instructions":     headResumption,
	"resumption":              headResumption,
}

// sectionKey reads a level-2 heading the way sections are matched: case,
// runs of spaces, a final ':' and a final parenthesis ("Files Changed
// (uncommitted)") do not matter. A heading "Status: ..." is "status".
func sectionKey(heading string) string {
	k := strings.ToLower(plaintext.FoldLine(heading))
	if name, _, ok := strings.Cut(k, ":"); ok && strings.TrimSpace(name) == "status" {
		return "status"
	}
	k = strings.TrimSpace(strings.TrimSuffix(k, ":"))
	if strings.HasSuffix(k, ")") {
		if i := strings.LastIndex(k, "("); i > 0 {
			k = strings.TrimSpace(k[:i])
		}
	}
	return k
}

// ParseStatus reads a status the way a person may write it: case and
// surrounding space do not matter, and "" is PARTIAL. Any other value is
// INVALID_ARGUMENTS.
func ParseStatus(s string) (Status, error) {
	st := Status(strings.ToUpper(strings.TrimSpace(s)))
	if st == "" {
		return StatusPartial, nil
	}
	if slices.Contains(Statuses, st) {
		return st, nil
	}
	return "", invalid(fmt.Sprintf("unknown worker status %q: use PARTIAL, DONE or BLOCKED", s))
}

// ParsePivotMode reads a pivot mode: case and surrounding space do not
// matter, and "" is no pivot. Any other value is INVALID_ARGUMENTS.
func ParsePivotMode(s string) (PivotMode, error) {
	m := PivotMode(strings.ToLower(strings.TrimSpace(s)))
	if m == "" || slices.Contains(PivotModes, m) {
		return m, nil
	}
	return "", invalid(fmt.Sprintf("unknown pivot mode %q: use graceful, immediate or hard", s))
}

// CheckWorkerID returns nil when id can name a worker: 1 to 64 lower-case
// ASCII letters, digits, '_' and '-', starting with a letter or a digit,
// the rule of agent ids. Ids are folder names, lower case so that two ids
// never name one folder where case is ignored. Others are
// INVALID_ARGUMENTS.
func CheckWorkerID(id string) error {
	if !taskflow.ValidID(id) {
		return invalid(fmt.Sprintf("worker id %q is not 1 to %d lower-case letters, digits, '_' and '-' starting with a letter or digit", id, taskflow.MaxID))
	}
	return nil
}

// isPhase reports a lower_snake word: lower-case letters and digits,
// starting with a letter, words joined by single '_'.
func isPhase(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// normal checks c and returns it in the form Render writes and Parse
// reads back: one-line values trimmed (items folded onto one line), the
// status, pivot mode and phase in their cases, text with LF line endings
// and without blank lines around it, the time in UTC to the second. An
// empty worker is allowed here; Save needs one.
func (c Checkpoint) normal() (Checkpoint, error) {
	var out Checkpoint
	var err error
	if out.Worker, err = mdtext.OneLine("worker id", c.Worker); err != nil {
		return out, err
	}
	if out.Worker != "" {
		if err := CheckWorkerID(out.Worker); err != nil {
			return out, err
		}
	}
	if out.Task, err = mdtext.OneLine("task address", c.Task); err != nil {
		return out, err
	}
	if out.Task != "" {
		a, err := taskdoc.ParseAddress(out.Task)
		if err != nil {
			return out, invalid(fmt.Sprintf("the task %q is not an address like /api/auth.md#add-rate-limiting: %v", out.Task, err))
		}
		out.Task = a.String()
	}
	if out.Status, err = checkedEnum("status", string(c.Status), ParseStatus); err != nil {
		return out, err
	}
	if out.PivotMode, err = checkedEnum("pivot mode", string(c.PivotMode), ParsePivotMode); err != nil {
		return out, err
	}
	if out.Phase, err = mdtext.OneLine("phase", c.Phase); err != nil {
		return out, err
	}
	out.Phase = strings.ToLower(out.Phase)
	if out.Phase != "" && !isPhase(out.Phase) {
		return out, invalid(fmt.Sprintf("phase %q is not a lower_snake word like waiting_clarification", c.Phase))
	}
	if out.PivotReason, err = mdtext.FoldedLine("pivot reason", c.PivotReason); err != nil {
		return out, err
	}
	if out.Clarification, err = mdtext.OneLine("clarification id", c.Clarification); err != nil {
		return out, err
	}
	if !c.Time.IsZero() {
		out.Time = c.Time.UTC().Truncate(time.Second)
		if y := out.Time.Year(); y < 0 || y > 9999 {
			return out, invalid(fmt.Sprintf("the time %v is outside the years 0 to 9999", c.Time))
		}
	}
	if c.Sequence < 0 {
		return out, invalid(fmt.Sprintf("sequence %d is negative", c.Sequence))
	}
	out.Sequence = c.Sequence
	return out, c.normalSections(&out)
}

// normalSections checks the sections of c into out.
func (c Checkpoint) normalSections(out *Checkpoint) error {
	var err error
	texts := []struct {
		name    string
		in      string
		out     *string
		heading string
	}{
		{headOriginalTask, c.OriginalTask, &out.OriginalTask, headOriginalTask},
		{headNotes, c.Notes, &out.Notes, headNotes},
		{headResumption, c.Resumption, &out.Resumption, headResumption},
	}
	for _, t := range texts {
		if *t.out, err = normalText(t.name, t.in); err != nil {
			return err
		}
	}
	lists := []struct {
		name string
		in   []string
		out  *[]string
	}{
		{headCompleted, c.Completed, &out.Completed},
		{headInProgress, c.InProgress, &out.InProgress},
		{headRemaining, c.Remaining, &out.Remaining},
		{headBlocked, c.Blocked, &out.Blocked},
		{headParallel, c.ParallelWork, &out.ParallelWork},
		{headDecisions, c.Decisions, &out.Decisions},
	}
	for _, l := range lists {
		for i, item := range l.in {
			if mdtext.CheckText("", item, true) != nil { // name the item only when it is refused
				_, err := mdtext.FoldedLine(fmt.Sprintf("item %d of %s", i+1, l.name), item)
				return err
			}
			s := plaintext.FoldLine(item)
			if s == "" {
				return invalid(fmt.Sprintf("item %d of %s is empty", i+1, l.name))
			}
			*l.out = append(*l.out, s)
		}
	}
	for i, f := range c.FilesChanged {
		what := fmt.Sprintf("file %d of %s", i+1, headFiles)
		var g FileChange
		if g.Path, err = mdtext.OneLine(what, f.Path); err != nil {
			return err
		}
		if g.Path == "" {
			return invalid(what + " has no path")
		}
		if g.Note, err = mdtext.FoldedLine("the note of "+what, f.Note); err != nil {
			return err
		}
		out.FilesChanged = append(out.FilesChanged, g)
	}
	for i, s := range c.Extra {
		what := fmt.Sprintf("extra section %d", i+1)
		var g Section
		if g.Heading, err = mdtext.FoldedLine("the heading of "+what, s.Heading); err != nil {
			return err
		}
		switch k := sectionKey(g.Heading); {
		case g.Heading == "":
			return invalid(what + " has no heading")
		case k == "status" || sectionNames[k] != "":
			return invalid(fmt.Sprintf("the heading %q of %s names a section of its own: use that field", g.Heading, what))
		}
		if g.Body, err = normalText(fmt.Sprintf("section %q", g.Heading), s.Body); err != nil {
			return err
		}
		out.Extra = append(out.Extra, g)
	}
	return nil
}

// checkedEnum checks s as a one-line value and reads it with parse.
func checkedEnum[T ~string](what, s string, parse func(string) (T, error)) (T, error) {
	if err := mdtext.CheckText(what, s, false); err != nil {
		return "", err
	}
	return parse(s)
}

// normalText checks the Markdown text of a section and returns it with LF
// line endings and without blank lines at its start and end. A line that
// would read as a level-2 heading (a section of its own) and a code fence
// left open (which would hide the sections after it) are refused.
func normalText(what, s string) (string, error) {
	if err := mdtext.CheckText(what, s, true); err != nil {
		return "", err
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(s, "\n")
	for len(lines) > 0 && mdtext.IsBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && mdtext.IsBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	var open *mdtext.Fence
	for i, t := range lines {
		switch {
		case open != nil:
			if open.ClosedBy(t) {
				open = nil
			}
		case isSectionHeading(t):
			return "", invalid(fmt.Sprintf("line %d of %s reads as a section heading (%q): use ### or deeper", i+1, what, t))
		default:
			if f, ok := mdtext.OpenFence(t); ok {
				open = &f
			}
		}
	}
	if open != nil {
		return "", invalid(fmt.Sprintf("%s opens a code fence that it never closes", what))
	}
	return strings.Join(lines, "\n"), nil
}

// isSectionHeading reports a level-2 ATX heading: the start of a section.
func isSectionHeading(t string) bool {
	level, _ := mdtext.HeadingText(t)
	return level == 2
}

func invalid(msg string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: msg}
}
