package taskdoc

import (
	"bytes"
	"iter"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// findTasks locates the Tasks section (the first top-level heading whose
// text is "Tasks", ignoring case) and reads its tasks: the top-level
// headings exactly one level deeper.
func (d *Document) findTasks(sc *scan) {
	tasksAt := -1
	for i, tb := range sc.tops {
		if tb.heading >= 0 && strings.EqualFold(sc.headings[tb.heading].text, "Tasks") {
			tasksAt = i
			break
		}
	}
	if tasksAt < 0 {
		d.bySlug = map[string]int{}
		return
	}
	th := sc.tops[tasksAt].heading
	d.TasksHeading = &d.Headings[th]
	level := d.TasksHeading.Level
	d.TasksSpan = Span{d.TasksHeading.Span.Start, len(d.text)}
	var taskTops []int
	for i := tasksAt + 1; i < len(sc.tops); i++ {
		h := sc.tops[i].heading
		if h < 0 {
			continue
		}
		if sc.headings[h].level <= level {
			d.TasksSpan.End = sc.tops[i].start
			break
		}
		if sc.headings[h].level == level+1 {
			taskTops = append(taskTops, i)
		}
	}
	d.bySlug = make(map[string]int, len(taskTops))
	d.Tasks = make([]Task, len(taskTops))
	metas := make([]taskMeta, len(taskTops))
	sc.expectFields(len(taskTops))
	lines := newLineIndex(d.text)
	for k, i := range taskTops {
		// The last task's blocks end where the section does: with no
		// block between its heading and the section's end, that is its
		// heading alone.
		end, endTop := d.TasksSpan.End, i+1
		if k+1 < len(taskTops) {
			endTop = taskTops[k+1]
			end = sc.tops[endTop].start
		} else {
			for endTop < len(sc.tops) && sc.tops[endTop].start < end {
				endTop++
			}
		}
		t := &d.Tasks[k]
		metas[k] = buildTask(sc, sc.tops[i:endTop], end, t)
		t.Line = lines.at(t.Span.Start)
		d.index(k)
	}
	d.metas = relative(d.Tasks, metas)
}

// relative turns metas, the metadata of tasks read with offsets in the
// source, into the form a Document keeps: offsets from each task's start,
// so that a task that moves (every task after an edit) keeps its metadata
// as it is, shared.
func relative(tasks []Task, metas []taskMeta) []*taskMeta {
	out := make([]*taskMeta, len(metas))
	for k := range metas {
		metas[k].move(-tasks[k].Span.Start)
		out[k] = &metas[k]
	}
	return out
}

// meta returns where task i's metadata sits, offsets in the source. The
// result (its fields too) is the caller's own.
func (d *Document) meta(i int) *taskMeta {
	m := *d.metas[i]
	m.fields = slices.Clone(m.fields)
	m.move(d.Tasks[i].Span.Start)
	return &m
}

// index makes task k findable by its slug. A hand-edited document may
// repeat a title: its other tasks stay usable, and the repeated slug is
// ambiguous (see Task).
func (d *Document) index(k int) {
	slug := d.Tasks[k].Slug
	prev, dup := d.bySlug[slug]
	if !dup {
		d.bySlug[slug] = k
		return
	}
	if d.dups == nil {
		d.dups = map[string][]int{}
	}
	if len(d.dups[slug]) == 0 {
		d.dups[slug] = []int{prev}
	}
	d.dups[slug] = append(d.dups[slug], k)
}

// taskMeta records where a task's metadata sits, so that edits can
// change a value in place or add an item in the style already used.
type taskMeta struct {
	para      metaBlock // "**Status:** x" lines right after the heading
	list      metaBlock // the "- Key: value" list at the top
	trailing  metaBlock // the "* Completed: / * Note:" list after the body
	fields    []fieldLoc
	bodyStart int  // first byte after the metadata
	bodyEnd   int  // start of the trailing list, or the task's end
	lastLine  int  // end of the task's last non-blank line
	titleSpan Span // the heading's text
	atx       bool
	// misplaced is the metadata list written after the first paragraph
	// of the body (see isMisplacedList), which is not read as metadata;
	// zero when the task has none.
	misplaced Span
}

// metaBlock is one block of metadata; an empty span means none.
type metaBlock struct {
	span  Span // first line start .. end of the last line, line ending included
	items int  // list items or lines, fields or not
	loose bool // a list with blank lines between its items
}

func (m metaBlock) ok() bool { return m.span.End > m.span.Start }

// fieldLoc locates one field in the source.
type fieldLoc struct {
	colonEnd   int  // just after "Key:" (and the closing "**" of a bold key)
	valueStart int  // first byte of the value ("" value: colonEnd)
	valueEnd   int  // end of the value on its last line
	prefix     Span // the item's indentation and bullet, e.g. "  * "
	bold       bool // written "**Key:** value"
	block      int  // blockPara, blockList or blockTrailing
}

const (
	blockPara = iota
	blockList
	blockTrailing
)

// buildTasks builds the tasks of a scan's top-level blocks tops, which
// start at the blocks starts (each a task heading) and end at end.
func buildTasks(sc *scan, tops []topBlock, starts []int, end int) ([]Task, []*taskMeta) {
	tasks := make([]Task, len(starts))
	metas := make([]taskMeta, len(starts))
	sc.expectFields(len(starts))
	for k, at := range starts {
		until, stop := end, len(tops)
		if k+1 < len(starts) {
			stop = starts[k+1]
			until = tops[stop].start
		}
		metas[k] = buildTask(sc, tops[at:stop], until, &tasks[k])
	}
	return tasks, relative(tasks, metas)
}

// buildTask reads one task from its top-level blocks into t and returns
// where its metadata sits; blocks[0] is its heading and end is where the
// task ends.
func buildTask(sc *scan, blocks []topBlock, end int, t *Task) taskMeta {
	src := sc.src
	h := sc.headings[blocks[0].heading]
	*t = Task{
		Title: h.text, Slug: h.slug, Level: h.level, Status: StatusPending,
		Span: Span{h.span.Start, end}, HeadingSpan: h.span,
	}
	b := taskBuilder{task: t}
	m := &b.meta
	m.titleSpan, m.atx = h.textSpan, h.atx
	m.lastLine = trimBlankLinesBefore(src, h.span.End, end)
	rest := blocks[1:]
	blockEnd := func(i int) int {
		if i+1 < len(rest) {
			return trimBlankLinesBefore(src, rest[i].start, rest[i+1].start)
		}
		return m.lastLine
	}
	m.bodyStart = h.span.End
	i := 0
	if i < len(rest) && b.readParagraphFields(src, rest[i].node, sc.base) {
		m.para = metaBlock{span: Span{rest[i].start, blockEnd(i)}, items: rest[i].node.Lines().Len()}
		m.bodyStart = m.para.span.End
		i++
	}
	if i < len(rest) && b.readListFields(sc, rest[i].node, blockList, blockEnd(i)) {
		list := rest[i].node.(*ast.List)
		m.list = metaBlock{Span{rest[i].start, blockEnd(i)}, list.ChildCount(), !list.IsTight}
		m.bodyStart = m.list.span.End
		i++
	}
	m.bodyEnd = m.lastLine
	trailing := -1
	if last := len(rest) - 1; last >= i && isTrailingList(sc, rest[last].node) {
		b.readListFields(sc, rest[last].node, blockTrailing, blockEnd(last))
		m.trailing = metaBlock{span: Span{rest[last].start, blockEnd(last)}, items: rest[last].node.ChildCount()}
		m.bodyEnd = rest[last].start
		trailing = last
	}
	if i+1 < len(rest) && i+1 != trailing && rest[i].node.Kind() == ast.KindParagraph && isMisplacedList(sc, rest[i+1].node) {
		m.misplaced = Span{rest[i+1].start, blockEnd(i + 1)}
	}
	m.bodyStart = max(m.bodyStart, h.span.End)
	if m.bodyEnd > m.bodyStart {
		t.Body = normaliseText(src[m.bodyStart:m.bodyEnd])
	}
	t.References = ParseReferences(t.Body)
	t.Version = versionOf(bytes.TrimRight(src[h.span.Start:m.lastLine], "\r\n"))
	if v, ok := t.Field(KeyStatus); ok {
		t.Status = statusOf(v)
	}
	return b.meta
}

// taskBuilder collects a task's fields and where they sit.
type taskBuilder struct {
	task *Task
	meta taskMeta
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// keyValue splits a metadata line "Key: value", "**Key:** value" or
// "**Key**: value". colon is the offset in line just after the key's
// colon (and closing "**").
func keyValue(line []byte) (key string, colon int, bold, ok bool) {
	rest := line
	if bytes.HasPrefix(rest, []byte("**")) {
		bold, rest = true, rest[2:]
	}
	n := 0
	for n < len(rest) {
		r, size := utf8.DecodeRune(rest[n:])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || (n > 0 && (r == '-' || r == '_' || r == ' '))) {
			break
		}
		n += size
	}
	if n == 0 || n > 64 || rest[n-1] == ' ' {
		return "", 0, false, false
	}
	key, rest = internKey(rest[:n]), rest[n:]
	var after []byte
	switch {
	case !bold && bytes.HasPrefix(rest, []byte(":")):
		after = rest[1:]
	case bold && bytes.HasPrefix(rest, []byte(":**")):
		after = rest[3:]
	case bold && bytes.HasPrefix(rest, []byte("**:")):
		after = rest[3:]
	default:
		return "", 0, false, false
	}
	if len(after) > 0 && after[0] != ' ' && after[0] != '\t' {
		return "", 0, false, false
	}
	return key, len(line) - len(after), bold, true
}

// internKey returns the well-known keys without allocating: a document
// with a thousand tasks repeats them thousands of times.
func internKey(b []byte) string {
	switch string(b) {
	case KeyStatus:
		return KeyStatus
	case KeyWorkflow:
		return KeyWorkflow
	case KeyMainWorkflow:
		return KeyMainWorkflow
	case KeyCompleted:
		return KeyCompleted
	case KeyNote:
		return KeyNote
	case "status":
		return "status"
	}
	return string(b)
}

// internValue does the same for the status values.
func internValue(b []byte) string {
	switch string(b) {
	case "pending":
		return "pending"
	case "in_progress":
		return "in_progress"
	case "completed":
		return "completed"
	case "blocked":
		return "blocked"
	}
	return string(b)
}

// readParagraphFields reads the "**Status:** x" form: a paragraph in
// which every line is a bold key and its value.
func (b *taskBuilder) readParagraphFields(src []byte, n ast.Node, base int) bool {
	if n.Kind() != ast.KindParagraph || n.Lines().Len() == 0 {
		return false
	}
	lines := n.Lines()
	var fields []Field
	var locs []fieldLoc
	for k := 0; k < lines.Len(); k++ {
		start := base + lines.At(k).Start
		end := contentEnd(src, start)
		key, colon, bold, ok := keyValue(src[start:end])
		if !ok || !bold {
			return false
		}
		loc := fieldLoc{colonEnd: start + colon, valueEnd: end, bold: true, block: blockPara,
			prefix: Span{lineStart(src, start), start}}
		loc.valueStart = skipSpace(src, loc.colonEnd, end)
		fields = append(fields, Field{Key: key, Value: internValue(src[loc.valueStart:end]),
			Span: Span{lineStart(src, start), lineEnd(src, start)}})
		locs = append(locs, loc)
	}
	b.task.Fields = append(b.task.Fields, fields...)
	b.meta.fields = append(b.meta.fields, locs...)
	return true
}

// readListFields reads a bullet list whose first item is "Key: value" as
// metadata: every such item is a field, others are kept as they are.
func (b *taskBuilder) readListFields(sc *scan, n ast.Node, block, listEnd int) bool {
	list, ok := n.(*ast.List)
	if !ok || list.IsOrdered() {
		return false
	}
	src := sc.src
	found := false
	if n := list.ChildCount(); b.task.Fields == nil && n > 0 {
		b.task.Fields, b.meta.fields = sc.reserveFields(n)
	} else {
		b.task.Fields = slices.Grow(b.task.Fields, n)
		b.meta.fields = slices.Grow(b.meta.fields, n)
	}
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		itemEnd := listEnd
		if next := item.NextSibling(); next != nil {
			itemEnd = trimBlankLinesBefore(src, lineStart(src, sc.pos(item)), lineStart(src, sc.pos(next)))
		}
		f, loc, ok := itemField(sc, item, itemEnd)
		if !ok {
			if !found {
				return false
			}
			continue
		}
		found = true
		loc.block = block
		b.task.Fields = append(b.task.Fields, f)
		b.meta.fields = append(b.meta.fields, loc)
	}
	return found
}

// itemField reads a list item whose first line is "Key: value". A value
// wrapped onto further lines of the same paragraph reads as one line.
func itemField(sc *scan, item ast.Node, itemEnd int) (Field, fieldLoc, bool) {
	src := sc.src
	para := item.FirstChild()
	if para == nil || (para.Kind() != ast.KindParagraph && para.Kind() != ast.KindTextBlock) || para.Lines().Len() == 0 {
		return Field{}, fieldLoc{}, false
	}
	itemStart := lineStart(src, sc.pos(item))
	lines := para.Lines()
	start := sc.base + lines.At(0).Start
	if lineStart(src, start) != itemStart {
		return Field{}, fieldLoc{}, false
	}
	end := contentEnd(src, start)
	key, colon, bold, ok := keyValue(src[start:end])
	if !ok {
		return Field{}, fieldLoc{}, false
	}
	loc := fieldLoc{colonEnd: start + colon, bold: bold, prefix: Span{itemStart, start}}
	loc.valueStart = skipSpace(src, loc.colonEnd, end)
	value := internValue(bytes.TrimSpace(src[loc.valueStart:end]))
	loc.valueEnd = end
	for k := 1; k < lines.Len(); k++ {
		ls := sc.base + lines.At(k).Start
		loc.valueEnd = contentEnd(src, ls)
		if more := strings.TrimSpace(string(src[ls:loc.valueEnd])); more != "" {
			value = strings.TrimSpace(value + " " + more)
		}
	}
	if loc.valueStart > loc.valueEnd {
		loc.valueStart = loc.valueEnd
	}
	return Field{Key: key, Value: value, Span: Span{itemStart, itemEnd}}, loc, true
}

func skipSpace(src []byte, from, to int) int {
	for from < to && (src[from] == ' ' || src[from] == '\t') {
		from++
	}
	return from
}

// isTrailingList reports whether n is the "* Completed: / * Note:" list
// the reference server appends after a task's body.
func isTrailingList(sc *scan, n ast.Node) bool {
	list, ok := n.(*ast.List)
	if !ok || list.IsOrdered() {
		return false
	}
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		f, _, ok := itemField(sc, item, 0)
		if !ok || !(strings.EqualFold(f.Key, KeyCompleted) || strings.EqualFold(f.Key, KeyNote)) {
			return false
		}
	}
	return true
}

// isMisplacedList reports whether n, the block after the first
// paragraph of a task's body, is metadata written below the description
// ("Description.", then "- Status: in_progress"), as people often write
// it: a bullet list whose first item is "Key: value" and that holds a
// field only metadata has, a Status with a known status or a key the
// task systems write (Workflow, Main-Workflow, Depends-On, Assignee,
// Checkpoint). Keys that prose lists use too ("Note:", "Error:",
// "Plan:") are not enough, so that such a list in a description is not
// taken for metadata.
func isMisplacedList(sc *scan, n ast.Node) bool {
	list, ok := n.(*ast.List)
	if !ok || list.IsOrdered() {
		return false
	}
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		f, _, ok := itemField(sc, item, 0)
		switch {
		case !ok:
			if item == list.FirstChild() {
				return false
			}
		case strings.EqualFold(f.Key, KeyStatus):
			if _, err := ParseStatus(f.Value); err == nil {
				return true
			}
		case strings.EqualFold(f.Key, KeyWorkflow), strings.EqualFold(f.Key, KeyMainWorkflow),
			strings.EqualFold(f.Key, KeyDependsOn), strings.EqualFold(f.Key, KeyAssignee),
			strings.EqualFold(f.Key, KeyCheckpoint):
			return true
		}
	}
	return false
}

// ParseReferences returns every "@/path.md" and "@/path.md#section" in
// text, in order and without repeats. A reference starts at an '@' that
// begins a word, runs to the next space, and loses trailing punctuation
// such as "." and ")"; the path must end in ".md".
func ParseReferences(text string) []Reference {
	var refs []Reference
	for m := range mentions(text) {
		if !hasReference(refs, m.Raw) {
			refs = append(refs, m.Reference)
		}
	}
	return refs
}

// Mention is a reference where it is written: Raw is text[Start:End].
type Mention struct {
	Reference
	Start int `json:"-"`
	End   int `json:"-"`
}

// FindReferences returns every reference in text where it is written, in
// order, repeats included, read by ParseReferences's rule.
func FindReferences(text string) []Mention { return slices.Collect(mentions(text)) }

// mentions yields the references of text where they are written, in
// order, repeats included (FindReferences).
func mentions(text string) iter.Seq[Mention] {
	return func(yield func(Mention) bool) {
		for i := 0; i < len(text); {
			at := strings.Index(text[i:], "@/")
			if at < 0 {
				break
			}
			at += i
			i = at + 2
			if at > 0 {
				if r, _ := utf8.DecodeLastRuneInString(text[:at]); unicode.IsLetter(r) || unicode.IsDigit(r) {
					continue
				}
			}
			end := at + 1
			for end < len(text) && !isRefStop(text[end]) {
				end++
			}
			raw := strings.TrimRight(text[at:end], ".,;:!?)]}'\"")
			p, section, _ := strings.Cut(raw[1:], "#")
			if !strings.HasSuffix(p, ".md") || len(p) <= len("/.md") {
				continue
			}
			if !yield(Mention{Reference: Reference{Raw: raw, Path: p, Section: section}, Start: at, End: at + len(raw)}) {
				return
			}
			i = end
		}
	}
}

func hasReference(refs []Reference, raw string) bool {
	for _, r := range refs {
		if r.Raw == raw {
			return true
		}
	}
	return false
}

func isRefStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '(', '<', '>', '[', '"', '`', '\'':
		return true
	}
	return false
}
