package taskdoc

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/parser"
)

// An edit replaces the bytes [start, oldEnd) of the source with new bytes
// that end at newEnd in the result, then proves that nothing else changed.
//
// The proof is cheap. goldmark reads blocks line by line, and a top-level
// ATX heading closes every block opened before it, so the parse of a
// document from the start of such a line on does not depend on what came
// before it (link reference definitions aside). The edited range always
// starts at such a line, and the result is identical before it; so parsing
// only the new bytes plus the heading that follows them gives exactly the
// blocks a full parse would give there. If that heading still comes out as
// the same top-level heading at the same place, the parser is back in the
// same state it was in at that point of the old document, and everything
// after it, identical bytes, parses identically too. An edit therefore
// costs a parse of one task, not of the document, and its Document is
// built from the old one and that parse (see assemble). Link reference
// definitions reach across the document, into the text of headings that
// hold a "[" (see outsideUnchanged) and into links, which the block
// structure does not show (see checkLabels). When the argument does
// not hold (definitions that may change a heading's text, the range
// starts at a setext heading, a front matter delimiter that the new bytes
// would close, or text appended to a document that ends inside an
// unclosed code fence or HTML block) the edit falls back to a full parse
// and compares the outline outside the range heading by heading.
type region struct {
	start, oldEnd, newEnd int
	// task: the new bytes hold one task, its heading first (after blank
	// lines); otherwise they hold none (a removed task).
	task bool
	// section: the new bytes also open a new Tasks section.
	section bool
	// content: the new bytes hold the caller's text, so a break in
	// structure is the caller's invalid input, not a library failure.
	content bool
	// check proves that the edit shows in the reparsed task.
	check func(t *Task) error
	// slug names the task edited (added, removed) in refusals, which
	// copy it (strings.Clone): a region that leaked a field to the heap
	// would take the check closure there with it on every edit.
	slug string
	// lines is the line shape of the result, once checkLimits found it
	// (see linesAfter).
	lines lineTotals
}

// finish verifies an edit's result and returns it as a Document, with the
// task the edit wrote (nil for a removal), or returns the reason it was
// refused.
func (d *Document) finish(out []byte, r region) (*Document, *Task, error) {
	src := d.Source
	if r.newEnd-r.start < 0 || len(out)-r.newEnd != len(src)-r.oldEnd ||
		!bytes.Equal(out[:r.start], src[:r.start]) || !bytes.Equal(out[r.newEnd:], src[r.oldEnd:]) {
		return nil, nil, &Error{Code: CodeEditChangedOutside, Msg: "the edit changed bytes outside the task; nothing was written"}
	}
	lines, err := d.limits(out, r)
	if err != nil {
		return nil, nil, err
	}
	r.lines = lines
	nd, t, done, err := d.checkLocal(out, r)
	if !done {
		nd, t, err = d.checkFull(out, r)
	}
	if err != nil {
		return nil, nil, err
	}
	return nd, t, nil
}

// headingAt returns the index in d.raw of the top-level heading starting
// at off, or -1.
func (d *Document) headingAt(off int) int {
	i := sort.Search(len(d.raw), func(i int) bool { return d.raw[i].span.Start >= off })
	for ; i < len(d.raw) && d.raw[i].span.Start == off; i++ {
		if d.raw[i].top {
			return i
		}
	}
	return -1
}

// taskLevel is the heading level of the tasks (2 when a section is being
// created).
func (d *Document) taskLevel() int {
	if d.TasksHeading == nil {
		return 3
	}
	return d.TasksHeading.Level + 1
}

// checkLocal verifies the edit by parsing only the new bytes and the
// heading after them. done is false when that is not sound and a full
// parse must decide.
func (d *Document) checkLocal(out []byte, r region) (nd *Document, t *Task, done bool, err error) {
	if r.section {
		return nil, nil, false, nil
	}
	rs, ok := d.scanRegion(out, r)
	if !ok {
		return nil, nil, false, nil
	}
	if rs.swallowed {
		return nil, nil, true, d.swallowed(r, d.raw[rs.next], rs.scan)
	}
	sc, tops := rs.scan, rs.tops
	if sc.hasRefs {
		// The old range defined nothing (see scanRegion). A label the new
		// definitions share with text outside may change what it links
		// to, or not: the full parse decides.
		if d.checkLabels(out, r, nil, sc.refs, nil) != nil {
			return nil, nil, false, nil
		}
	}
	if !r.task {
		if len(tops) != 0 {
			return nil, nil, false, nil
		}
		nd := d.assemble(out, r, sc, nil, nil)
		return nd, nil, nd != nil, nil
	}
	if len(tops) == 0 || tops[0].heading < 0 || !sc.headings[tops[0].heading].atx {
		return nil, nil, false, nil
	}
	if err := d.checkTaskHeadings(sc, tops, r); err != nil {
		return nil, nil, true, err
	}
	tasks, metas := buildTasks(sc, tops, []int{0}, r.newEnd)
	nt := &tasks[0]
	if err := r.check(nt); err != nil {
		return nil, nil, true, ErrorAt(err, sc.src, nt.HeadingSpan.Start)
	}
	if nd = d.assemble(out, r, sc, tasks, metas); nd == nil {
		return nil, nil, false, nil
	}
	return nd, nd.taskAt(nt.Span.Start), true, nil
}

// regionScan is the parse of an edit's new bytes and the heading after
// them.
type regionScan struct {
	*scan
	tops      []topBlock // the new bytes' top-level blocks
	next      int        // index in d.raw of the heading after them, or -1
	swallowed bool       // the new bytes took that heading in
}

// scanRegion parses the new bytes of r and the heading after them. ok is
// false when that parse cannot stand for a full one (see region): the new
// bytes do not end at a heading that closes what they open, or are
// appended to a document that ends inside an open block, or the edit
// changes what link reference definitions or a front matter delimiter
// mean for text outside them (see outsideUnchanged).
func (d *Document) scanRegion(out []byte, r region) (rs *regionScan, ok bool) {
	src := d.Source
	if d.hasRefs && bytes.Contains(d.text[r.start:r.oldEnd], []byte("]:")) {
		return nil, false // the range may hold definitions that others use
	}
	rs = &regionScan{next: -1}
	limit := r.newEnd
	if r.oldEnd < len(src) {
		if rs.next = d.headingAt(r.oldEnd); rs.next < 0 || (!r.task && !d.raw[rs.next].atx) {
			return nil, false
		}
		limit += d.raw[rs.next].span.End - d.raw[rs.next].span.Start
	} else if r.start == len(src) && d.openEnd {
		return nil, false
	}
	rs.scan = scanBlocks(out, r.start, limit, r.start, false)
	if !d.outsideUnchanged(rs.scan, r) {
		return nil, false
	}
	rs.tops = rs.scan.tops
	if rs.next >= 0 {
		want := d.raw[rs.next]
		n := len(rs.tops) - 1
		if n < 0 || rs.tops[n].heading < 0 || rs.tops[n].start != r.newEnd ||
			rs.headings[rs.tops[n].heading].level != want.level || rs.headings[rs.tops[n].heading].text != want.text {
			rs.swallowed = true
			return rs, true
		}
		rs.tops = rs.tops[:n]
	}
	return rs, true
}

// outsideUnchanged reports whether two things that reach across the
// whole document keep their meaning with the new bytes in place (the old
// range holding no link reference definition, which scanRegion checks):
//
//   - Link reference definitions: a heading's text reads them (a
//     "[label]" is a link when a definition anywhere names it). When the
//     document has definitions, no heading the scan read (those of the
//     range and the one after it) may hold a "[", since the scan did not
//     see them; when the new bytes define some, no heading outside them
//     may hold one.
//   - A document that opens with a front matter delimiter that no line
//     closes reads it as Markdown; a closing line in the new bytes would
//     turn everything above it into front matter.
func (d *Document) outsideUnchanged(sc *scan, r region) bool {
	if d.hasRefs {
		for _, h := range sc.headings {
			if bytes.IndexByte(sc.src[h.textSpan.Start:h.textSpan.End], '[') >= 0 {
				return false
			}
		}
	}
	if sc.hasRefs {
		for _, h := range d.raw {
			if (h.span.Start < r.start || h.span.Start >= r.oldEnd) &&
				bytes.IndexByte(d.text[h.textSpan.Start:h.textSpan.End], '[') >= 0 {
				return false
			}
		}
	}
	if d.FrontMatter.Raw == nil {
		if delim, _, ok := frontMatterDelimiter(bytes.TrimPrefix(d.text, bom)); ok {
			for at := lineStart(sc.src, r.start); at < r.newEnd; at = lineEnd(sc.src, at) {
				if string(bytes.TrimSpace(sc.src[at:lineEnd(sc.src, at)])) == delim {
					return false
				}
			}
		}
	}
	return true
}

// taskAt returns the task whose heading starts at off, or nil.
func (d *Document) taskAt(off int) *Task {
	i := sort.Search(len(d.Tasks), func(i int) bool { return d.Tasks[i].Span.Start >= off })
	if i < len(d.Tasks) && d.Tasks[i].Span.Start == off {
		return &d.Tasks[i]
	}
	return nil
}

// checkTaskHeadings checks the top-level headings of a new task: its own
// at the task level first, then only deeper ones.
func (d *Document) checkTaskHeadings(sc *scan, tops []topBlock, r region) error {
	level := d.taskLevel()
	for k, tb := range tops {
		if tb.heading < 0 {
			continue
		}
		h := sc.headings[tb.heading]
		switch {
		case k == 0 && h.level != level:
			return ErrorAt(d.invalid(r, "the task heading does not read as a level-"+strconv.Itoa(level)+" heading"),
				sc.src, h.span.Start)
		case k > 0 && h.level <= level:
			return ErrorAt(d.headingTooHigh(r, h.level, h.text, level), sc.src, h.span.Start)
		}
	}
	return nil
}

func (d *Document) headingTooHigh(r region, got int, text string, level int) error {
	return d.invalid(r, "the content has a level-"+strconv.Itoa(got)+" heading "+quote(text)+
		", which would end the task; use level "+strconv.Itoa(level+1)+" or deeper")
}

// swallowed is the refusal of new text that takes in the heading after
// it (next), pointing at the block that does: the last one sc, the parse
// of the new text, starts before that heading.
func (d *Document) swallowed(r region, next rawHeading, sc *scan) error {
	at := r.newEnd
	for _, tb := range sc.tops {
		if tb.start < r.newEnd {
			at = tb.start
		}
	}
	return ErrorAt(d.invalid(r, "the new text leaves a block open (such as an unclosed code fence or HTML block) "+
		"that would swallow the heading "+quote(next.text)+" after the task"), sc.src, at)
}

func (d *Document) invalid(r region, msg string) error {
	if r.content {
		return &Error{Code: CodeInvalidTask, Msg: msg}
	}
	return &Error{Code: CodeEditChangedOutside, Msg: msg + "; nothing was written"}
}

// outlineKey is what a heading outside an edit must keep.
type outlineKey struct {
	start, end, level int
	text              string
	top               bool
}

// A heading before the edit ends at start at the latest: text inserted
// right after a last line without a line ending gives that line one, which
// is a change to the inserted bytes, not to the heading.
func outsideOutline(hs []Heading, start, end, shift int) []outlineKey {
	var keys []outlineKey
	for _, h := range hs {
		switch {
		case h.Span.Start < start:
			keys = append(keys, outlineKey{h.Span.Start, min(h.Span.End, start), h.Level, h.Text, h.TopLevel})
		case h.Span.Start >= end:
			keys = append(keys, outlineKey{h.Span.Start + shift, h.Span.End + shift, h.Level, h.Text, h.TopLevel})
		}
	}
	return keys
}

// checkFull verifies an edit with a full parse of the result.
func (d *Document) checkFull(out []byte, r region) (*Document, *Task, error) {
	fail := func(err error) (*Document, *Task, error) { return nil, nil, err }
	nd, sc, err := parse(out)
	if CodeOf(err) == CodeTooComplex {
		return fail(withSlug(err, strings.Clone(r.slug)))
	}
	if err != nil {
		refusal := d.invalid(r, "the edited document does not parse: "+err.Error())
		if e, ok := err.(*Error); ok && e.Line > 0 {
			refusal = ErrorAt(refusal, out, e.Offset)
		}
		return fail(refusal)
	}
	if err := d.checkLabels(out, r, rangeDefinitions(d.text, r.start, r.oldEnd, d.hasRefs),
		rangeDefinitions(out, r.start, r.newEnd, nd.hasRefs), sc); err != nil {
		return fail(err)
	}
	before := outsideOutline(d.Headings, r.start, r.oldEnd, r.newEnd-r.oldEnd)
	after := outsideOutline(nd.Headings, r.start, r.newEnd, 0)
	if at, same := firstDifference(before, after); !same {
		return fail(ErrorAt(d.invalid(r, "the edit would change headings outside the task"), out, at))
	}
	if !r.task {
		if len(nd.Tasks) != len(d.Tasks)-1 {
			return fail(d.invalid(r, "the edit would change other tasks"))
		}
		return nd, nil, nil
	}
	if r.section && (nd.TasksHeading == nil || nd.TasksHeading.Span.Start < r.start) {
		return fail(d.invalid(r, "the new Tasks section does not read as one"))
	}
	found := -1
	level := nd.taskLevel()
	for i, h := range nd.Headings {
		if h.Span.Start < r.start || h.Span.Start >= r.newEnd || !h.TopLevel {
			continue
		}
		switch {
		case r.section && found < 0 && nd.TasksHeading != nil && h.Span == nd.TasksHeading.Span:
		case h.Level == level && found < 0:
			found = i
		case h.Level <= level:
			return fail(ErrorAt(d.headingTooHigh(r, h.Level, h.Text, level), out, h.Span.Start))
		}
	}
	for i := range nd.Tasks {
		if found >= 0 && nd.Tasks[i].Span.Start == nd.Headings[found].Span.Start {
			if err := r.check(&nd.Tasks[i]); err != nil {
				return fail(ErrorAt(err, out, nd.Tasks[i].HeadingSpan.Start))
			}
			return nd, &nd.Tasks[i], nil
		}
	}
	if r.start == len(d.Source) && d.openEnd {
		return fail(d.invalid(r, "the document ends inside an unclosed code fence or HTML block, "+
			"which would swallow the new task; close it first"))
	}
	return fail(d.invalid(r, "the new task does not read as a task"))
}

// rangeDefinitions returns the link reference definitions in src[from:to],
// a range of an edit, read by parsing it on its own: the range starts
// where nothing before it is open (at a task's heading, after blank lines),
// and ends at the next task or section, which an accepted edit must leave
// reading as it did. defines says whether the document defines any.
func rangeDefinitions(src []byte, from, to int, defines bool) []parser.Reference {
	if !defines || !bytes.Contains(src[from:to], []byte("]:")) {
		return nil
	}
	return scanBlocks(src, from, to, from, false).refs
}

func equalKeys(a, b []outlineKey) bool {
	_, same := firstDifference(a, b)
	return same
}

// firstDifference compares the outline outside an edit before and after
// it, and returns where (in the edited document) the first heading that
// differs starts: the heading that is there now, or else the place of the
// one that is gone.
func firstDifference(before, after []outlineKey) (at int, same bool) {
	for i := range max(len(before), len(after)) {
		switch {
		case i >= len(after):
			return before[i].start, false
		case i >= len(before) || before[i] != after[i]:
			return after[i].start, false
		}
	}
	return 0, true
}
