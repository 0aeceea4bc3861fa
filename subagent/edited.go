package subagent

import (
	"bytes"

	"github.com/taskmd/taskmd/taskdoc"
)

// editedTask returns what task before of doc became in out, the result of
// an edit confined to before's span (SetStatus, Complete), without parsing
// all of out again: on a 1,000-task document that second parse would double
// the cost of Start and Complete.
//
// It parses the document's Tasks heading followed by the task's new bytes.
// A task starts at a top-level heading, which closes every block opened
// before it, so the task parses the same there as in the whole document
// (taskdoc's own check of an edit rests on the same fact). The offsets and
// the line number are then moved to where the task is in out. Where the
// shortcut could be wrong (link reference definitions, which a task may use
// from elsewhere; a Tasks heading inside a container) or its result does
// not look like the task, out is parsed whole.
func editedTask(doc *taskdoc.Document, before *taskdoc.Task, out []byte) (*taskdoc.Task, error) {
	if t, ok := taskInPart(doc, before, out); ok {
		return t, nil
	}
	full, err := taskdoc.Parse(out)
	if err != nil {
		return nil, err
	}
	return full.Task(before.Slug)
}

// taskInPart is the shortcut of editedTask; ok is false where it does not
// apply.
func taskInPart(doc *taskdoc.Document, before *taskdoc.Task, out []byte) (task *taskdoc.Task, ok bool) {
	start, end := before.Span.Start, before.Span.End+len(out)-len(doc.Source)
	h := doc.TasksHeading
	if h == nil || !h.TopLevel || end < start || end > len(out) || bytes.Contains(doc.Source, []byte("]:")) {
		return nil, false
	}
	heading := doc.Source[h.Span.Start:h.Span.End]
	part := make([]byte, 0, len(heading)+end-start)
	part = append(append(part, heading...), out[start:end]...)
	partDoc, err := taskdoc.Parse(part)
	if err != nil || len(partDoc.Tasks) != 1 {
		return nil, false
	}
	t := partDoc.Tasks[0]
	if t.Slug != before.Slug || t.Title != before.Title || t.Level != before.Level || t.Span.End != len(part) {
		return nil, false
	}
	shift := start - len(heading)
	t.Span = moved(t.Span, shift)
	t.HeadingSpan = moved(t.HeadingSpan, shift)
	t.Fields = append([]taskdoc.Field(nil), t.Fields...)
	for i := range t.Fields {
		t.Fields[i].Span = moved(t.Fields[i].Span, shift)
	}
	t.Line += bytes.Count(out[:start], []byte("\n")) - bytes.Count(heading, []byte("\n"))
	return &t, true
}

func moved(s taskdoc.Span, by int) taskdoc.Span {
	return taskdoc.Span{Start: s.Start + by, End: s.End + by}
}
