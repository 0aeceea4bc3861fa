package taskdoc

import (
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/taskmd/taskmd/internal/plaintext"
)

// assemble builds the Document of out, the result of an edit of d that
// checkLocal (or a batch's local check) has verified, without parsing
// out. The argument of region says that a full parse of out gives d's
// blocks before the edited range, the scan's blocks inside it and d's
// blocks after it, moved by the change in length; so the new Document is
// d's outline and tasks before the range, those read from sc inside it
// (tasks and metas, built by the caller from sc, in order; none for a
// removal), and d's after it with every offset and line number shifted.
// What depends on the whole document is recomputed without goldmark: the
// outline's anchors ("x", "x-1", ...), the slug index, where the task
// before the range and the Tasks section end.
//
// One change reaches before the range: the line before it may end
// differently. Text appended to a last line without a line ending gives
// it one, and a lone "\r" before text that starts with "\n" becomes half
// of a "\r\n" (see keepLineEndings). The line keeps its meaning, but
// where it ends moves; see growLastLine.
//
// It returns nil, and the caller parses out in full, when it cannot build
// the Document Parse(out) would give from what it has: the range starts
// before the Tasks section's first task could (never expected), the range
// is not valid UTF-8 on its own (never expected: edits write whole lines
// of checked text), or the task before the range would read differently
// at its new end.
func (d *Document) assemble(out []byte, r region, sc *scan, tasks []Task, metas []*taskMeta) *Document {
	src := d.Source
	if d.TasksHeading == nil || r.start <= d.TasksHeading.Span.Start ||
		(d.text[r.start-1] != '\n' && r.start != len(src)) {
		return nil
	}
	text := sc.src
	if len(src) > 0 && &d.text[0] != &src[0] && len(text) > 0 && &text[0] == &out[0] {
		// d has a lone "\r" outside the scanned range, which the scan did
		// not copy out.
		text = lineFeeds(out, 0, len(out))
	}
	if !utf8.Valid(out[r.start:r.newEnd]) || (r.newEnd < len(out) && !utf8.RuneStart(out[r.newEnd])) {
		return nil
	}
	delta := r.newEnd - r.oldEnd
	nd := &Document{Source: out, text: text, Newline: plaintext.LineEnding(out), body: d.body, openEnd: d.openEnd,
		hasRefs: d.hasRefs || sc.hasRefs, // the old range defined none: see scanRegion
	}
	nd.lines = d.linesAfter(text, r).counts
	nd.FrontMatter = d.FrontMatter
	if fm := d.FrontMatter.Raw; fm != nil {
		nd.FrontMatter.Raw = out[d.body-len(fm) : d.body : d.body]
	}
	if r.oldEnd == len(src) {
		// The range runs to the end: the document's last block is the
		// scan's or, without one, a block before the range, which d's
		// heading after it closed (else the heading would not be one).
		nd.openEnd = sc.openAtEnd()
	}

	// Line numbers: the range starts on the line it started on in d; its
	// lines are counted from the last heading before it (the Tasks heading
	// at the latest), those after it move by the lines it gained. The byte
	// before the range is counted too: it may be a lone "\r" in d and the
	// first half of a "\r\n" now.
	first := sort.Search(len(d.raw), func(i int) bool { return d.raw[i].span.Start >= r.start })
	lines := lineIndex{src: text, pos: r.start,
		line: d.Headings[first-1].Line + lineEnds(text, d.raw[first-1].span.Start, r.start)}
	lineDelta := lineEnds(text, r.start-1, r.newEnd) - lineEnds(d.text, r.start-1, r.oldEnd)
	inside := sc.headings
	if r.oldEnd < len(src) {
		inside = inside[:len(inside)-1] // the heading after the range, compared by checkLocal
	}
	d.placeHeadings(nd, r, inside, lines, lineDelta)
	nd.TasksSpan = Span{d.TasksSpan.Start, d.TasksSpan.End + delta}
	for k := range tasks {
		tasks[k].Line = lines.at(tasks[k].Span.Start)
	}
	before := d.placeTasks(nd, r, tasks, metas, lineDelta)
	if end := lineEnd(text, r.start-1); end > r.start {
		nd.growLastLine(first, before, r.start, end)
	}
	if before > 0 {
		// The task before the range now ends where the next task (or the
		// section) does; between its old end and that, the range holds
		// blank lines only, or it would not read as it did.
		p := &nd.Tasks[before-1]
		p.Span.End = nd.TasksSpan.End
		if before < len(nd.Tasks) {
			p.Span.End = nd.Tasks[before].Span.Start
		}
		if trimBlankLinesBefore(text, p.HeadingSpan.End, p.Span.End) != nd.meta(before-1).lastLine {
			return nil
		}
	}
	if d.sameSlugs(nd, before, len(tasks)) {
		// Every task keeps its index and slug: the index is d's, which
		// no one changes.
		nd.bySlug, nd.dups = d.bySlug, d.dups
		return nd
	}
	nd.bySlug = make(map[string]int, len(nd.Tasks))
	for k := range nd.Tasks {
		nd.index(k)
	}
	return nd
}

// sameSlugs reports whether nd, the result of an edit of d whose range
// holds the n tasks from before on in nd, has as many tasks as d and
// those in the range have the slugs of d's there: then every task has
// its index and slug in d.
func (d *Document) sameSlugs(nd *Document, before, n int) bool {
	if len(nd.Tasks) != len(d.Tasks) {
		return false
	}
	for k := before; k < before+n; k++ {
		if nd.Tasks[k].Slug != d.Tasks[k].Slug {
			return false
		}
	}
	return true
}

// placeHeadings sets the outline of nd, the result of an edit of d: d's
// headings before the range, inside (read from the range; lines gives
// their line numbers), then d's after the range, shifted. Anchors are
// given anew, since a heading in the range can take one from a later
// heading with the same text, unless the outline has as many headings as
// d's and those in the range the same slugs as d's there: then every
// heading keeps its anchor.
func (d *Document) placeHeadings(nd *Document, r region, inside []rawHeading, lines lineIndex, lineDelta int) {
	delta := r.newEnd - r.oldEnd
	first := sort.Search(len(d.raw), func(i int) bool { return d.raw[i].span.Start >= r.start })
	last := sort.Search(len(d.raw), func(i int) bool { return d.raw[i].span.Start >= r.oldEnd })
	// The headings after the range are copied whole and then moved: one
	// copy of the slice costs less than one per heading.
	n, mid := first+len(inside)+len(d.raw)-last, first+len(inside)
	nd.raw = make([]rawHeading, n)
	copy(nd.raw, d.raw[:first])
	copy(nd.raw[first:], inside)
	copy(nd.raw[mid:], d.raw[last:])
	nd.Headings = make([]Heading, n)
	copy(nd.Headings, d.Headings[:first])
	copy(nd.Headings[mid:], d.Headings[last:])
	for i := mid; i < n; i++ {
		h, raw := &nd.Headings[i], &nd.raw[i]
		raw.span, raw.textSpan = raw.span.shift(delta), raw.textSpan.shift(delta)
		h.Span, h.Line = raw.span, h.Line+lineDelta
	}
	same := n == len(d.raw) && sameRawSlugs(d.raw[first:last], inside)
	for i, h := range inside {
		nd.Headings[first+i] = Heading{Level: h.level, Text: h.text, Line: lines.at(h.span.Start), Span: h.span, TopLevel: h.top}
		if same {
			nd.Headings[first+i].Slug = d.Headings[first+i].Slug
		}
	}
	if !same {
		taken := make(anchors, n)
		for i := range nd.Headings {
			nd.Headings[i].Slug = taken.next(nd.raw[i].slug)
		}
	}
	nd.TasksHeading = &nd.Headings[d.headingAt(d.TasksHeading.Span.Start)]
}

// sameRawSlugs reports whether a and b are as many headings with the same
// slugs (before anchors are given).
func sameRawSlugs(a, b []rawHeading) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].slug != b[i].slug {
			return false
		}
	}
	return true
}

// placeTasks sets the tasks of nd, the result of an edit of d: d's before
// the range, then tasks (read from the range), then d's after the range,
// shifted. It returns the number of tasks before the range.
func (d *Document) placeTasks(nd *Document, r region, tasks []Task, metas []*taskMeta, lineDelta int) int {
	delta := r.newEnd - r.oldEnd
	before := sort.Search(len(d.Tasks), func(i int) bool { return d.Tasks[i].Span.Start >= r.start })
	after := sort.Search(len(d.Tasks), func(i int) bool { return d.Tasks[i].Span.Start >= r.oldEnd })
	n, mid := before+len(tasks)+len(d.Tasks)-after, before+len(tasks)
	nd.Tasks = make([]Task, n)
	copy(nd.Tasks, d.Tasks[:before])
	copy(nd.Tasks[before:], tasks)
	copy(nd.Tasks[mid:], d.Tasks[after:]) // and then moved
	nd.metas = make([]*taskMeta, n)
	copy(nd.metas, d.metas[:before])
	copy(nd.metas[before:], metas)
	copy(nd.metas[mid:], d.metas[after:]) // they count from their task's start
	// The moved tasks' fields share one array; each task has its part,
	// capped.
	nFields := 0
	for i := after; i < len(d.Tasks); i++ {
		nFields += len(d.Tasks[i].Fields)
	}
	fields := make([]Field, nFields)
	for i := mid; i < n; i++ {
		t := &nd.Tasks[i]
		k := len(t.Fields)
		t.shift(delta, lineDelta, fields[:k:k])
		fields = fields[k:]
	}
	return before
}

// growLastLine moves the end of the line before the range from at (in d)
// to end: every offset read as the end of a line (lineEnd) or of a
// task's last line (lastLine) that was at, in the headings before the
// range (the first ones) and the task before it. Offsets read as the end
// of a line's content (contentEnd) stay.
func (d *Document) growLastLine(first, before, at, end int) {
	move := func(off *int) {
		if *off == at {
			*off = end
		}
	}
	for i := range first {
		move(&d.raw[i].span.End)
		move(&d.Headings[i].Span.End)
	}
	if before == 0 {
		return
	}
	// The task's metadata is shared with the Document before the edit:
	// it gets its own.
	t, m := &d.Tasks[before-1], d.meta(before-1)
	move(&t.HeadingSpan.End)
	if t.Fields != nil {
		t.Fields = slices.Clone(t.Fields) // empty but not nil stays so
		for i := range t.Fields {
			move(&t.Fields[i].Span.End)
		}
	}
	for _, b := range []*metaBlock{&m.para, &m.list, &m.trailing} {
		move(&b.span.End)
	}
	move(&m.bodyStart)
	move(&m.bodyEnd)
	move(&m.lastLine)
	m.move(-t.Span.Start)
	d.metas[before-1] = m
}

func (s Span) shift(delta int) Span { return Span{s.Start + delta, s.End + delta} }

// shift moves t, a copy of a task of another Document, by delta bytes
// and lines lines, sharing nothing that it changes with the original: its
// fields are copied to fields, which is as long as t.Fields, and moved
// there.
func (t *Task) shift(delta, lines int, fields []Field) {
	t.Span, t.HeadingSpan, t.Line = t.Span.shift(delta), t.HeadingSpan.shift(delta), t.Line+lines
	if t.Fields != nil {
		copy(fields, t.Fields)
		for i := range fields {
			fields[i].Span = fields[i].Span.shift(delta)
		}
		t.Fields = fields
	}
}

// move moves every offset of m, its fields' included, by delta bytes, in
// place: the one rule between the offsets a Document keeps (from the
// task's start) and those in the source.
func (m *taskMeta) move(delta int) {
	for _, b := range []*metaBlock{&m.para, &m.list, &m.trailing} {
		if b.span != (Span{}) { // a zero span is a block the task does not have
			b.span = b.span.shift(delta)
		}
	}
	m.bodyStart, m.bodyEnd, m.lastLine = m.bodyStart+delta, m.bodyEnd+delta, m.lastLine+delta
	m.titleSpan = m.titleSpan.shift(delta)
	if m.misplaced != (Span{}) {
		m.misplaced = m.misplaced.shift(delta)
	}
	for k := range m.fields {
		f := &m.fields[k]
		f.colonEnd, f.valueStart, f.valueEnd = f.colonEnd+delta, f.valueStart+delta, f.valueEnd+delta
		f.prefix = f.prefix.shift(delta)
	}
}
