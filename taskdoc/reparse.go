package taskdoc

import (
	"bytes"
	"sort"

	"github.com/taskmd/taskmd/internal/affix"
)

// Reparse returns the Document of src, a later version of d's source (the
// same file, changed by another process, a person or git). When src
// differs from d.Source only inside its tasks — other agents completed
// some, a person edited a body — only the tasks from the first changed one
// to the last are parsed, with the proof an edit's result gets (see
// region); otherwise src is parsed in full. The result is the Document
// Parse(src) gives, and so are the errors.
func (d *Document) Reparse(src []byte) (*Document, error) {
	if d == nil {
		return Parse(src)
	}
	if bytes.Equal(src, d.Source) {
		return d, nil
	}
	if nd := d.reparseTask(src); nd != nil {
		return nd, nil
	}
	return Parse(src)
}

// reparseTask builds the Document of src from d when the bytes that
// differ lie inside the tasks of d (one task, or a run of them: other
// processes completed several), as if an edit had replaced those tasks;
// nil when they do not, or when the local check cannot decide.
func (d *Document) reparseTask(src []byte) *Document {
	old := d.Source
	start := affix.Prefix(old, src)
	oldEnd := len(old) - affix.Suffix(old[start:], src[start:]) // not overlapping the prefix
	i, j := d.tasksHolding(start, oldEnd)
	if i < 0 {
		return nil
	}
	first, last := &d.Tasks[i], &d.Tasks[j]
	r := region{start: first.Span.Start, oldEnd: last.Span.End, newEnd: last.Span.End + len(src) - len(old),
		task: true, check: acceptAny, slug: first.Slug}
	lines, err := d.limits(src, r)
	if err != nil {
		return nil
	}
	r.lines = lines
	if i == j {
		nd, _, done, err := d.checkLocal(src, r)
		if !done || err != nil {
			return nil
		}
		return nd
	}
	return d.tasksLocal(src, r)
}

// tasksLocal builds the Document of out, whose range r replaces several
// tasks of d by new bytes, from a parse of those bytes and the heading
// after them, as batchLocal does for added tasks: the new bytes must be
// tasks, each an ATX or setext heading at the task level followed by
// deeper headings only. nil when that is not so or not sound.
func (d *Document) tasksLocal(out []byte, r region) *Document {
	rs, ok := d.scanRegion(out, r)
	if !ok || rs.hasRefs || rs.swallowed {
		return nil
	}
	sc, tops := rs.scan, rs.tops
	if len(tops) == 0 || tops[0].heading < 0 || !sc.headings[tops[0].heading].atx {
		return nil
	}
	level := d.taskLevel()
	var starts []int // index in tops of each task's heading
	for k, tb := range tops {
		if tb.heading < 0 {
			continue
		}
		switch h := sc.headings[tb.heading]; {
		case h.level == level:
			starts = append(starts, k)
		case h.level < level || len(starts) == 0:
			return nil // a section heading: the outline changed
		}
	}
	if len(starts) == 0 || starts[0] != 0 {
		return nil
	}
	tasks, metas := buildTasks(sc, tops, starts, r.newEnd)
	return d.assemble(out, r, sc, tasks, metas)
}

// acceptAny is the check of a reparse: whatever the task now says is what
// the file says.
func acceptAny(*Task) error { return nil }

// tasksHolding returns the first and last index of the tasks whose spans
// hold the bytes [start, end) of d.Source, or -1 when they are not all
// inside the tasks.
func (d *Document) tasksHolding(start, end int) (first, last int) {
	// The last task that starts at start or before.
	first = sort.Search(len(d.Tasks), func(i int) bool { return d.Tasks[i].Span.Start > start }) - 1
	if first < 0 {
		return -1, -1
	}
	// The last task that starts before end (first, for an insertion).
	last = sort.Search(len(d.Tasks), func(i int) bool { return d.Tasks[i].Span.Start >= end }) - 1
	last = max(last, first)
	if end > d.Tasks[last].Span.End {
		return -1, -1
	}
	return first, last
}
