package taskdoc

import "sort"

// Diagnostic is something a document says that Parse reads, but likely
// not as its writer meant: the document parses and its other tasks work
// as usual. Code says what it is; Line and Column (1-based, in characters,
// see Position) where, in Document.Source.
type Diagnostic struct {
	Code   Code   `json:"code"`
	Slug   string `json:"slug,omitempty"` // the task's
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Msg    string `json:"message"` // lower case, says what to do
}

// Diagnostics returns what the document says that it probably does not
// mean, in document order. There is one kind:
//
//   - MISPLACED_METADATA: a task's metadata list written after the first
//     paragraph of its body ("Description.", then "- Status:
//     in_progress") rather than right under its heading. It is not read
//     as metadata (the task reads as it would without it: pending when it
//     has no Status above), and the edits that write metadata refuse the
//     task with CodeMisplacedMetadata rather than add a second list above
//     it, until the list is moved above the description.
//
// It costs nothing but for the tasks that have one.
func (d *Document) Diagnostics() []Diagnostic {
	var out []Diagnostic
	for i := range d.Tasks {
		if d.metas[i].misplaced == (Span{}) {
			continue
		}
		e := d.misplacedError(i).(*Error)
		out = append(out, Diagnostic{Code: e.Code, Slug: e.Slug, Line: e.Line, Column: e.Column, Msg: e.Msg})
	}
	return out
}

// misplacedError is the refusal of an edit of task i's metadata while it
// has misplaced metadata, pointing at that list.
func (d *Document) misplacedError(i int) error {
	slug, at := d.Tasks[i].Slug, d.metas[i].misplaced.Start+d.Tasks[i].Span.Start
	return ErrorAt(&Error{Code: CodeMisplacedMetadata, Slug: slug,
		Msg: "the metadata list of task " + quote(slug) + " comes after its description, where it is not read as metadata: " +
			"move the list above the description, right under the heading"}, d.Source, skipSpace(d.text, at, lineEnd(d.text, at)))
}

// checkPlacement refuses task t of d, as an edit wrote it, when its
// metadata list is written after its description: no edit writes one.
func (d *Document) checkPlacement(t *Task) error {
	i := d.taskIndex(t)
	if i < 0 || d.metas[i].misplaced == (Span{}) {
		return nil
	}
	return d.misplacedError(i)
}

// taskIndex is the index of t, a task of d, in d.Tasks, or -1.
func (d *Document) taskIndex(t *Task) int {
	i := sort.Search(len(d.Tasks), func(i int) bool { return d.Tasks[i].Span.Start >= t.Span.Start })
	if i < len(d.Tasks) && &d.Tasks[i] == t {
		return i
	}
	return -1
}
