package taskdoc

import (
	"bytes"
	"strings"
)

// AddTasks adds tasks in order, with the result AddTask would give when
// called for each in turn on the result of the one before: each After
// names an existing task or one added earlier in the same call, "" appends
// at the end of the Tasks section (created when missing), and a duplicate
// title, in the document or in tasks, is ErrDuplicateTask. On any error no
// bytes are returned. No tasks return the document unchanged.
//
// Calling AddTask and Parse for each task costs a full parse per task,
// which dominates when an agent creates a plan of hundreds of tasks in a
// large document. AddTasks writes the usual batches (all appended at the
// end, or a chain of tasks each after the one before) in one splice and
// verifies it as an edit is verified, by parsing the new tasks only (or
// the whole result where that is not sound); other orders, and any batch
// its verification refuses, are added one by one, each AddTask on the
// Document the one before returned, so that errors are exactly those of
// AddTask.
//
// It returns the new document and the tasks it added, in the order given,
// as they read in it.
func (d *Document) AddTasks(tasks []NewTask) (*Document, []*Task, error) {
	if len(tasks) == 0 {
		return d, nil, nil
	}
	if nd, added, ok := d.addBatch(tasks); ok {
		return nd, added, nil
	}
	return d.addOneByOne(tasks)
}

// addOneByOne is AddTasks the slow way: one AddTask per task.
func (d *Document) addOneByOne(tasks []NewTask) (*Document, []*Task, error) {
	doc := d
	slugs := make([]string, len(tasks))
	for k, nt := range tasks {
		nd, t, err := doc.AddTask(nt)
		if err != nil {
			return nil, nil, err
		}
		doc, slugs[k] = nd, t.Slug
	}
	// Each added slug is unique in the result: AddTask refuses a taken one.
	added := make([]*Task, len(tasks))
	for k, slug := range slugs {
		added[k] = &doc.Tasks[doc.bySlug[slug]]
	}
	return doc, added, nil
}

// batch is a run of new tasks inserted together at one offset of the
// source, built as successive AddTask calls would write them.
type batch struct {
	d      *Document
	at     int
	text   []byte   // the inserted bytes so far
	starts []int    // offset in text of each new task's bytes
	heads  []int    // offset in text of each new task's heading line
	slugs  []string // each new task's slug, from its title
}

// addBatch adds tasks in one splice when they all go to one place, each
// after the one before; ok is false when they do not, or when the result
// does not verify, and the tasks must be added one by one.
func (d *Document) addBatch(tasks []NewTask) (*Document, []*Task, bool) {
	at, ok := d.batchPoint(tasks)
	if !ok || d.taskLevel() > 6 {
		return nil, nil, false
	}
	b := &batch{d: d, at: at}
	seen := make(map[string]bool, len(tasks))
	for _, nt := range tasks {
		if checkText("", callerText{"title", nt.Title, ""}, callerText{"content", nt.Content, ""}) != nil {
			return nil, nil, false
		}
		title, err := d.checkTitle(nt.Title, -1)
		if err != nil || seen[Slug(title)] {
			return nil, nil, false
		}
		seen[Slug(title)] = true
		b.add(title, nt.Content)
	}
	src := d.Source
	out := make([]byte, 0, len(src)+len(b.text))
	out = append(append(append(out, src[:at]...), b.text...), src[at:]...)
	nd, added, ok := d.verifyBatch(out, b)
	for _, t := range added {
		if ok && nd.checkPlacement(t) != nil {
			return nil, nil, false // AddTask says why
		}
	}
	return nd, added, ok
}

// batchPoint returns the offset where all tasks go when each goes right
// after the one before: the first at the end of the Tasks section or
// after an existing task, each next one at the end of the section (when
// that is where the batch is) or after the task before it.
func (d *Document) batchPoint(tasks []NewTask) (int, bool) {
	at, end := len(d.text), len(d.text)
	if d.TasksHeading != nil {
		at, end = d.TasksSpan.End, d.TasksSpan.End
	}
	if tasks[0].After != "" {
		i, err := d.find(tasks[0].After)
		if err != nil {
			return 0, false
		}
		at = d.Tasks[i].Span.End
	}
	for k := 1; k < len(tasks); k++ {
		after := tasks[k].After
		if (after != "" || at != end) && after != Slug(strings.TrimSpace(tasks[k-1].Title)) {
			return 0, false
		}
	}
	return at, true
}

// add appends one task's bytes as AddTask would write them into the
// document as it reads with the batch so far in place.
func (b *batch) add(title, content string) {
	d := b.d
	raw, head := d.newTaskText(b.separator(), d.TasksHeading == nil && len(b.heads) == 0, title, content,
		b.at < len(d.text), b.endsLine())
	fixed := keepLineEndings(b.around(), change{b.before(), b.before(), raw})
	if around := b.around(); b.before() == 1 && around[0] == '\r' && raw[0] == '\n' {
		head++ // keepLineEndings put a "\n" first
	}
	b.starts = append(b.starts, len(b.text))
	b.heads = append(b.heads, len(b.text)+head)
	b.slugs = append(b.slugs, Slug(title))
	b.text = append(b.text, fixed...)
}

// separator is separator() of the document as it reads with the batch so
// far in place. The previous task's heading starts a line, so the text
// from there is enough to tell.
func (b *batch) separator() string {
	if len(b.heads) == 0 {
		return separator(b.d.text, b.at, b.d.Newline)
	}
	tail := b.text[b.heads[len(b.heads)-1]:]
	tail = lineFeeds(tail, 0, len(tail))
	return separator(tail, len(tail), b.d.Newline)
}

// endsLine reports whether the document as it reads with the batch so far
// in place is empty or ends with a line ending (a lone "\r" counts).
func (b *batch) endsLine() bool {
	last := b.d.text
	if len(b.text) > 0 {
		last = b.text
	}
	return len(last) == 0 || last[len(last)-1] == '\n' || last[len(last)-1] == '\r'
}

// around is the byte before the insertion point (if any) and the byte
// after it (if any), for keepLineEndings.
func (b *batch) around() []byte {
	var s []byte
	switch src := b.d.Source; {
	case len(b.text) > 0:
		s = append(s, b.text[len(b.text)-1])
	case b.at > 0:
		s = append(s, src[b.at-1])
	}
	if b.at < len(b.d.Source) {
		s = append(s, b.d.Source[b.at])
	}
	return s
}

// before is the offset of the insertion point in around().
func (b *batch) before() int {
	if len(b.text) > 0 || b.at > 0 {
		return 1
	}
	return 0
}

// verifyBatch checks a batch's result: the bytes and the outline outside
// the inserted range are as they were, the new tasks' headings, and no
// others, are where they were written at the task level, each with the
// slug of its title and the content's deeper headings only. It reads only
// the inserted range, as an edit does (see batchLocal), and parses out in
// full where that is not sound.
func (d *Document) verifyBatch(out []byte, b *batch) (*Document, []*Task, bool) {
	r := region{start: b.at, oldEnd: b.at, newEnd: b.at + len(b.text)}
	src := d.Source
	if !bytes.Equal(out[:r.start], src[:r.start]) || !bytes.Equal(out[r.newEnd:], src[r.oldEnd:]) {
		return nil, nil, false
	}
	if !d.nothingSwallowed(b) || d.checkLimits(out, r) != nil {
		return nil, nil, false
	}
	if nd, added, done := d.batchLocal(out, b, r); done {
		return nd, added, nd != nil
	}
	nd, err := Parse(out)
	if err != nil || len(nd.Tasks) != len(d.Tasks)+len(b.heads) || nd.TasksHeading == nil || nd.taskLevel() != d.taskLevel() {
		return nil, nil, false
	}
	if nd.hasRefs && bytes.Contains(b.text, []byte("]:")) {
		// A link reference defined by a new task could change how an
		// earlier one's heading read before it was added.
		return nil, nil, false
	}
	before := outsideOutline(d.Headings, r.start, r.oldEnd, r.newEnd-r.oldEnd)
	after := outsideOutline(nd.Headings, r.start, r.newEnd, 0)
	if !equalKeys(before, after) {
		return nil, nil, false
	}
	added, ok := nd.newTasksAt(b, d.TasksHeading == nil)
	return nd, added, ok
}

// batchLocal verifies a batch as checkLocal verifies one AddTask: by
// parsing the inserted range and the heading after it, and builds the
// new Document from that parse (see assemble). done is false when that is
// not sound (see checkLocal) and a full parse must decide; nd is nil when
// the batch is refused, and its tasks must be added one by one.
func (d *Document) batchLocal(out []byte, b *batch, r region) (nd *Document, added []*Task, done bool) {
	if d.TasksHeading == nil {
		return nil, nil, false // the batch opens the Tasks section
	}
	rs, ok := d.scanRegion(out, r)
	if !ok {
		return nil, nil, false
	}
	if rs.hasRefs {
		// A definition in a later task could make an earlier one's
		// heading read differently than when AddTask added it alone: the
		// full parse path checks.
		return nil, nil, false
	}
	if rs.swallowed {
		return nil, nil, true
	}
	sc, tops := rs.scan, rs.tops
	if len(tops) == 0 || tops[0].heading < 0 || !sc.headings[tops[0].heading].atx {
		return nil, nil, false
	}
	level := d.taskLevel()
	var starts []int // index in tops of each new task's heading
	for i, tb := range tops {
		if tb.heading < 0 {
			continue
		}
		h, k := sc.headings[tb.heading], len(starts)
		switch {
		case h.level > level && k > 0:
		case h.level == level && k < len(b.heads) && tb.start == b.at+b.heads[k] && h.slug == b.slugs[k]:
			starts = append(starts, i)
		default:
			return nil, nil, true
		}
	}
	if len(starts) != len(b.heads) || starts[0] != 0 {
		return nil, nil, true
	}
	tasks, metas := buildTasks(sc, tops, starts, r.newEnd)
	if nd = d.assemble(out, r, sc, tasks, metas); nd == nil {
		return nil, nil, false
	}
	added = make([]*Task, len(tasks))
	for k := range tasks {
		added[k] = nd.taskAt(tasks[k].Span.Start)
	}
	return nd, added, true
}

// newTasksAt reports whether the top-level headings of d in the batch's
// range are the Tasks heading (when section), then exactly the batch's
// task headings with their slugs, each followed by deeper headings only.
func (d *Document) newTasksAt(b *batch, section bool) ([]*Task, bool) {
	level, k := d.taskLevel(), 0
	added := make([]*Task, 0, len(b.heads))
	for _, h := range d.Headings {
		off := h.Span.Start - b.at
		if off < 0 || off >= len(b.text) || !h.TopLevel {
			continue
		}
		switch {
		case section && k == 0 && h.Span == d.TasksHeading.Span:
		case h.Level > level:
		case k < len(b.heads) && off == b.heads[k] && h.Level == level:
			t, err := d.Task(b.slugs[k])
			if err != nil || t.Span.Start != h.Span.Start {
				return nil, false
			}
			added = append(added, t)
			k++
		default:
			return nil, false
		}
	}
	return added, k == len(b.heads)
}

// nothingSwallowed checks what the final parse cannot see: AddTask, adding
// each task in turn, sees it followed by the heading that follows the
// batch, not by the next new task, and refuses content that takes that
// heading in (an open list with an indented heading line, a code fence).
// Each task but the last is parsed on its own with that heading after it;
// a task starts after a blank line, so nothing before it is still open.
func (d *Document) nothingSwallowed(b *batch) bool {
	if b.at == len(d.Source) || len(b.starts) < 2 {
		return true // appended at the end: a prefix of the final result
	}
	next := d.headingAt(b.at)
	if next < 0 {
		return false
	}
	h := d.raw[next]
	for k := 0; k < len(b.starts)-1; k++ {
		task := b.text[b.starts[k]:b.starts[k+1]]
		buf := append(bytes.Clone(task), d.Source[b.at:h.span.End]...)
		sc := scanBlocks(buf, 0, len(buf), 0, false)
		n := len(sc.tops) - 1
		if n < 0 || sc.tops[n].heading < 0 || sc.tops[n].start != len(task) {
			return false
		}
		if got := sc.headings[sc.tops[n].heading]; got.level != h.level || got.text != h.text {
			return false
		}
	}
	return true
}
