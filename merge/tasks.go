package merge

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/taskmd/taskmd/taskdoc"
)

// Tasks merges three versions of a task document task by task. The text
// before the first task and after the Tasks section merges line by line,
// as git merge-file does. Tasks keep their order; tasks added on both sides at the
// same place come ours first, then theirs. A task changed on one side
// only is that side's bytes; one removed on one side and unchanged on the
// other is removed. A task changed on both sides merges field by field:
// the status by the status machine (a completed side wins over one in
// progress), the notes of both kept, the date and error text of the side
// whose status wins, and the body line by line; conflict markers are left
// only where both changed the same field, the title or the same body lines
// differently. A task removed on one side and changed on the other, and
// one added on both sides with different text, are a conflict around the
// whole task, never a silent duplicate.
//
// The result is byte-exact wherever only one side changed, and it parses:
// markers get blank lines where Markdown would read them as a heading's
// underline. A version that does not parse as a task document (or whose
// tasks share a slug) is merged line by line instead.
func Tasks(base, ours, theirs []byte, opts ...Option) Result {
	o := newOptions(opts)
	if r, ok := mergeTasks(base, ours, theirs, o); ok {
		return r
	}
	r := mergeLines(base, ours, theirs, opts...)
	r.Fallback = unparsed(base, ours, theirs)
	return r
}

// unparsed names the first of the three versions that does not parse,
// with its error; "" when all do (an empty base is a document without
// tasks).
func unparsed(base, ours, theirs []byte) string {
	for _, v := range []struct {
		name string
		src  []byte
	}{{"base", base}, {"ours", ours}, {"theirs", theirs}} {
		if v.name == "base" && len(v.src) == 0 {
			continue
		}
		if _, err := taskdoc.Parse(v.src); err != nil {
			return fmt.Sprintf("%s does not parse as a task document (%v)", v.name, err)
		}
	}
	return ""
}

// mergeTasks is Tasks; ok is false when a version cannot be merged task
// by task, or the result does not read back as the tasks it wrote.
func mergeTasks(base, ours, theirs []byte, o options) (Result, bool) {
	vb, ok := readVersion(base, true)
	if !ok {
		return Result{}, false
	}
	vo, ok := readVersion(ours, false)
	if !ok {
		return Result{}, false
	}
	vt, ok := readVersion(theirs, false)
	if !ok {
		return Result{}, false
	}
	renames(vb, vo)
	renames(vb, vt)
	nl := newlineOf(ours, theirs, base)
	r, written, doc, ok := writeTasks(vb, vo, vt, o, nl, nil)
	if !ok {
		return Result{}, false
	}
	if bad := misplaced(doc, r.Conflicts, written, vo, vt); len(bad) > 0 {
		// The merge of both sides' changes put a task's metadata list
		// below its description, where it is not read, though neither
		// side has it there: such a task is a conflict for a person to
		// resolve, not a clean merge that drops its metadata.
		if r, _, _, ok = writeTasks(vb, vo, vt, o, nl, bad); !ok {
			return Result{}, false
		}
	}
	return r, true
}

// writeTasks writes the merge of the three versions, with the tasks in
// conflicted as a conflict around the whole task, and returns it with the
// merge slug of each task slug it wrote, and its parse. ok is false when
// the result does not read back as the tasks it wrote.
func writeTasks(vb, vo, vt *version, o options, nl string, conflicted map[string]bool) (Result, map[string]string, *taskdoc.Document, bool) {
	w := newWriter(o, nl, true)
	w.lines(vb.head, vo.head, vt.head, "", "text")
	var kept []string
	for _, slug := range mergeOrder(vb, vo, vt) {
		if !removed(vb.tasks[slug], vo.tasks[slug], vt.tasks[slug]) {
			kept = append(kept, slug)
		}
	}
	written := map[string]string{} // slug in the result: slug merged
	var want []string              // slugs the result must have
	for i, slug := range kept {
		if i > 0 && movedSetext(slug, kept[i-1], vo, vt) {
			w.blankBefore() // a setext heading right under a line of text would take it in
		}
		var got []string
		if conflicted[slug] {
			got = w.wholeConflict(slug, vo.tasks[slug], vt.tasks[slug])
		} else {
			got = w.task(slug, vb.tasks[slug], vo.tasks[slug], vt.tasks[slug])
		}
		for _, g := range got {
			written[g] = slug
		}
		want = append(want, got...)
		w.gap(slug, vb, vo, vt, i == len(kept)-1)
	}
	w.lines(vb.tail, vo.tail, vt.tail, "", "text")
	r := w.result()
	doc, ok := readsBack(r.Bytes, want)
	return r, written, doc, ok
}

// misplaced returns the merge slugs of the tasks whose metadata list doc,
// the merged document, has below the description (taskdoc's
// MISPLACED_METADATA) where neither ours nor theirs has one, and that
// merged without a conflict (markers between fields read so too, and a
// person resolves them anyway).
func misplaced(doc *taskdoc.Document, conflicts []Conflict, written map[string]string, o, t *version) map[string]bool {
	var bad map[string]bool
	for _, d := range doc.Diagnostics() {
		if d.Code != taskdoc.CodeMisplacedMetadata || o.misplaced(d.Slug) || t.misplaced(d.Slug) {
			continue
		}
		slug, ok := written[d.Slug]
		if ok && !slices.ContainsFunc(conflicts, func(c Conflict) bool { return c.Task == slug }) {
			if bad == nil {
				bad = map[string]bool{}
			}
			bad[slug] = true
		}
	}
	return bad
}

// movedSetext reports whether the task slug has a setext heading and
// follows prev in the merge but not in the version it comes from.
func movedSetext(slug, prev string, o, t *version) bool {
	v := o
	if v.tasks[slug] == nil {
		v = t
	}
	p := v.tasks[slug]
	if p == nil || !startsSetext(p.text) {
		return false
	}
	i := slices.Index(v.order, slug)
	return i == 0 || v.order[i-1] != prev
}

// readsBack parses merged and reports whether it has every task in want.
func readsBack(merged []byte, want []string) (*taskdoc.Document, bool) {
	doc, err := taskdoc.Parse(merged)
	if err != nil || (doc.TasksHeading == nil && len(want) > 0) {
		return nil, false
	}
	have := make(map[string]bool, len(doc.Tasks))
	for _, t := range doc.Tasks {
		have[t.Slug] = true
	}
	for _, s := range want {
		if !have[s] {
			return nil, false
		}
	}
	return doc, true
}

// renames finds tasks that v renamed: a task of base missing from v whose
// text after the heading is that of exactly one task of v that base does
// not have. v then holds that task under base's slug, so that it merges
// with base's task.
func renames(base, v *version) {
	var gone, added []string
	for _, s := range base.order {
		if v.tasks[s] == nil {
			gone = append(gone, s)
		}
	}
	for _, s := range v.order {
		if base.tasks[s] == nil {
			added = append(added, s)
		}
	}
	if len(gone) == 0 || len(added) == 0 {
		return
	}
	for _, g := range gone {
		rest := base.tasks[g].rest()
		match := ""
		for _, a := range added {
			if bytes.Equal(v.tasks[a].rest(), rest) && len(rest) > 0 {
				if match != "" {
					match = ""
					break
				}
				match = a
			}
		}
		if match == "" {
			continue
		}
		v.tasks[g] = v.tasks[match]
		delete(v.tasks, match)
		v.order[slices.Index(v.order, match)] = g
		added = slices.DeleteFunc(added, func(s string) bool { return s == match })
	}
}

// mergeOrder is the order of the merged tasks: the slugs of the three
// versions merged as a sequence (both sides' insertions at one place:
// ours', then theirs'), then any task kept whose place that dropped
// (removed on one side, changed on the other), after the task before it.
func mergeOrder(b, o, t *version) []string {
	lines := func(v *version) [][]byte {
		out := make([][]byte, len(v.order))
		for i, s := range v.order {
			out[i] = []byte(s)
		}
		return out
	}
	seen := map[string]bool{}
	var order []string
	add := func(ls [][]byte) {
		for _, l := range ls {
			if s := string(l); !seen[s] {
				seen[s] = true
				order = append(order, s)
			}
		}
	}
	for _, c := range diff3(lines(b), lines(o), lines(t)) {
		if c.kind == conflict {
			add(c.ours)
			add(c.theirs)
			continue
		}
		add(c.lines)
	}
	for _, v := range []*version{o, t} {
		for i, s := range v.order {
			if seen[s] {
				continue
			}
			seen[s] = true
			at := 0
			for k := i - 1; k >= 0; k-- {
				if j := slices.Index(order, v.order[k]); j >= 0 {
					at = j + 1
					break
				}
			}
			order = slices.Insert(order, at, s)
		}
	}
	return order
}

// text is p's text, nil for a version without the task.
func text(p *piece) []byte {
	if p == nil {
		return nil
	}
	return p.text
}

// same reports whether two versions of a task are the same: both
// missing, or both with the same text.
func same(x, y *piece) bool { return (x == nil) == (y == nil) && bytes.Equal(text(x), text(y)) }

// removed reports whether the merge removes a task: one side removed it
// and the other left it as it was, or both removed it.
func removed(b, o, t *piece) bool {
	return o == nil && t == nil || o == nil && same(b, t) || t == nil && same(b, o)
}

// task writes the merge of one task the merge keeps, given its versions
// (nil where a version does not have it), and returns the slugs it wrote:
// two (the same, or ours' and theirs') for a conflict around the whole
// task.
func (w *writer) task(slug string, b, o, t *piece) []string {
	switch {
	case same(o, t), same(b, t):
		return w.whole(o)
	case same(b, o):
		return w.whole(t)
	case o == nil || t == nil || b == nil:
		// Removed on one side and changed on the other, or added on both
		// with different text.
		return w.wholeConflict(slug, o, t)
	}
	return w.fields(slug, b, o, t)
}

// wholeConflict writes a conflict around the whole task: ours' version,
// then theirs' (nil where a side does not have it), and returns the
// slugs written.
func (w *writer) wholeConflict(slug string, o, t *piece) []string {
	w.endLine()
	w.conflict(withEnd(text(o), w.nl), withEnd(text(t), w.nl), slug, "task")
	var out []string
	for _, p := range []*piece{o, t} {
		if p != nil {
			out = append(out, p.task.Slug)
		}
	}
	return out
}

// whole writes p's text as it is; nothing for a removed task.
func (w *writer) whole(p *piece) []string {
	if p == nil {
		return nil
	}
	w.write(p.text)
	return []string{p.task.Slug}
}

// withEnd is b with a line ending at its end, unless it is empty.
func withEnd(b []byte, nl string) []byte {
	if len(b) == 0 || endsLine(b) {
		return b
	}
	return append(bytes.Clone(b), nl...)
}

// gap writes the blank lines after a task: its own from ours (theirs,
// then base, when ours does not have it or has it last), or, after the
// last task, what ends the section, merged from the three versions.
func (w *writer) gap(slug string, b, o, t *version, last bool) {
	if last {
		g := o.lastGap()
		if bytes.Equal(g, b.lastGap()) {
			g = t.lastGap()
		}
		if len(g) > 0 {
			w.endLine()
			w.write(g)
		}
		return
	}
	between := func(v *version) ([]byte, bool) { // its gap before another task
		p := v.tasks[slug]
		if p == nil || v.order[len(v.order)-1] == slug {
			return nil, false
		}
		return p.gap, true
	}
	gb, inB := between(b)
	g, inO := between(o)
	gt, inT := between(t)
	if !inO || inT && inB && bytes.Equal(g, gb) {
		g, inO = gt, inT
	}
	if !inO {
		g, inO = gb, inB
	}
	if inO {
		w.endLine()
		w.write(g)
		return
	}
	// No version has the task before another: the blank lines it has
	// before the end of the section, or one.
	for _, v := range []*version{o, t} {
		if p := v.tasks[slug]; p != nil && len(p.gap) > 0 {
			w.endLine()
			w.write(p.gap)
			return
		}
	}
	w.blankBefore()
}
