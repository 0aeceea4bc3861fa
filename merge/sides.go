package merge

import (
	"bytes"

	"github.com/taskmd/taskmd/taskdoc"
)

// version is one of the three versions of a task document, cut into the
// pieces the merge works on: the text before the first task, each task,
// and the text after the Tasks section.
type version struct {
	doc   *taskdoc.Document
	head  []byte // the start of the document to the first task (to the end of the Tasks section when it has none)
	tail  []byte // the end of the Tasks section to the end of the document
	order []string
	tasks map[string]*piece
}

// piece is one task of a version.
type piece struct {
	task *taskdoc.Task
	src  []byte // the document's bytes
	text []byte // the heading to the end of the last non-blank line
	gap  []byte // the blank lines after it, up to the next task or the end of the section
}

// rest is the task's text after its heading.
func (p *piece) rest() []byte { return p.text[p.task.HeadingSpan.End-p.task.Span.Start:] }

// heading is the task's heading line(s).
func (p *piece) heading() []byte { return p.text[:p.task.HeadingSpan.End-p.task.Span.Start] }

// readVersion parses src. ok is false when it cannot be merged task by
// task: it does not parse, or has no Tasks section (an empty base is a
// document without tasks), or two tasks share a slug.
func readVersion(src []byte, empty bool) (*version, bool) {
	if empty && len(src) == 0 {
		return &version{tasks: map[string]*piece{}}, true
	}
	doc, err := taskdoc.Parse(src)
	if err != nil || doc.TasksHeading == nil {
		return nil, false
	}
	v := &version{doc: doc, tasks: make(map[string]*piece, len(doc.Tasks))}
	first := doc.TasksSpan.End
	if len(doc.Tasks) > 0 {
		first = doc.Tasks[0].Span.Start
	}
	v.head, v.tail = src[:first], src[doc.TasksSpan.End:]
	for i := range doc.Tasks {
		t := &doc.Tasks[i]
		if _, dup := v.tasks[t.Slug]; dup {
			return nil, false
		}
		end := contentEnd(src, t.HeadingSpan.End, t.Span.End)
		v.tasks[t.Slug] = &piece{task: t, src: src, text: src[t.Span.Start:end], gap: src[end:t.Span.End]}
		v.order = append(v.order, t.Slug)
	}
	return v, true
}

// contentEnd is the end of the last line in src[from:to] that is not
// blank (from when all are).
func contentEnd(src []byte, from, to int) int {
	end := to
	for end > from {
		start := bytes.LastIndexByte(src[from:end-1], '\n') + 1 + from
		if start < from {
			start = from
		}
		if len(bytes.TrimSpace(src[start:end])) > 0 {
			return end
		}
		end = start
	}
	return from
}

// misplaced reports whether the version has the task slug with its
// metadata list below its description (taskdoc's MISPLACED_METADATA).
func (v *version) misplaced(slug string) bool {
	if v.doc == nil {
		return false
	}
	for _, d := range v.doc.Diagnostics() {
		if d.Code == taskdoc.CodeMisplacedMetadata && d.Slug == slug {
			return true
		}
	}
	return false
}

// lastGap is the blank lines after the version's last task: what ends the
// Tasks section.
func (v *version) lastGap() []byte {
	if len(v.order) == 0 {
		return nil
	}
	return v.tasks[v.order[len(v.order)-1]].gap
}
