package taskdoc

import (
	"bytes"
	"sort"
)

// Reparse returns the Document of src, a later version of d's source (the
// same file, changed by another process, a person or git). When src
// differs from d.Source only inside one task — another agent completed it,
// a person edited its body — only that task is parsed, with the proof an
// edit's result gets (see region); otherwise src is parsed in full. The
// result is the Document Parse(src) gives, and so are the errors.
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
// differ lie inside one task of d, as if an edit had replaced that task;
// nil when they do not, or when the local check cannot decide.
func (d *Document) reparseTask(src []byte) *Document {
	old := d.Source
	n := min(len(old), len(src))
	start := 0
	for start < n && old[start] == src[start] {
		start++
	}
	end := 0 // bytes in common at the end, not overlapping the prefix
	for end < n-start && old[len(old)-1-end] == src[len(src)-1-end] {
		end++
	}
	oldEnd := len(old) - end
	i := d.taskHolding(start, oldEnd)
	if i < 0 {
		return nil
	}
	t := &d.Tasks[i]
	r := region{start: t.Span.Start, oldEnd: t.Span.End, newEnd: t.Span.End + len(src) - len(old),
		task: true, check: acceptAny, slug: t.Slug}
	lines, err := d.limits(src, r)
	if err != nil {
		return nil
	}
	r.lines = lines
	nd, _, done, err := d.checkLocal(src, r)
	if !done || err != nil {
		return nil
	}
	return nd
}

// acceptAny is the check of a reparse: whatever the task now says is what
// the file says.
func acceptAny(*Task, *taskMeta) error { return nil }

// taskHolding is the index of the task whose span holds the bytes
// [start, end) of d.Source, or -1.
func (d *Document) taskHolding(start, end int) int {
	// The last task that starts at start or before.
	i := sort.Search(len(d.Tasks), func(i int) bool { return d.Tasks[i].Span.Start > start }) - 1
	if i < 0 || end > d.Tasks[i].Span.End {
		return -1
	}
	return i
}
