package taskdoc

import (
	"sort"
	"strings"
)

// fieldSet is one field to set; top puts a new item first in the
// metadata (where people look for Status) instead of last.
type fieldSet struct {
	key, value string
	top        bool
}

// fieldChanges turns field values into changes of task i: an existing
// field has its value replaced in place; new fields become items of the
// existing metadata (list, or "**Key:** value" lines) in its style, or a
// new "- Key: value" list under the heading.
func (d *Document) fieldChanges(i int, sets []fieldSet) []change {
	t, m := &d.Tasks[i], d.meta(i)
	var cs []change
	var top, bottom []string
	for _, s := range sets {
		if k := fieldIndex(t, s.key); k >= 0 {
			cs = append(cs, replaceValue(d.text, m.fields[k], s.value))
			continue
		}
		line := d.newFieldLine(t, m, s, s.top)
		if s.top {
			top = append(top, line)
		} else {
			bottom = append(bottom, line)
		}
	}
	switch {
	case m.list.ok():
		if m.list.loose {
			// Keep a loose list loose: a blank line between items.
			top, bottom = spaced(top, false), spaced(bottom, true)
		}
		if len(top) > 0 {
			cs = append(cs, d.insertLines(m.list.span.Start, top))
		}
		if len(bottom) > 0 {
			cs = append(cs, d.insertLines(m.list.span.End, bottom))
		}
	case m.para.ok():
		// "**Status:** x" lines run together when rendered, so only a
		// missing Status joins them; other fields start a list below,
		// bulleted as the reference server bullets its Completed/Note.
		if len(top) > 0 {
			cs = append(cs, d.insertLines(m.para.span.Start, top))
		}
		if len(bottom) > 0 {
			cs = append(cs, d.listAfter(m.para.span.End, bottom))
		}
	case len(top)+len(bottom) > 0:
		cs = append(cs, d.newList(t, m, append(top, bottom...)))
	}
	sort.Slice(cs, func(a, b int) bool { return cs[a].start < cs[b].start })
	return cs
}

// spaced puts a blank line between lines, and before (after) them when
// they go after (before) existing items.
func spaced(lines []string, after bool) []string {
	if len(lines) == 0 {
		return nil
	}
	var out []string
	for k, l := range lines {
		if after || k > 0 {
			out = append(out, "")
		}
		out = append(out, l)
	}
	if !after {
		out = append(out, "")
	}
	return out
}

// fieldIndex is the index of the first field with key, ignoring case.
func fieldIndex(t *Task, key string) int {
	for k, f := range t.Fields {
		if strings.EqualFold(f.Key, key) {
			return k
		}
	}
	return -1
}

// replaceValue writes value over a field's value, keeping the key and
// the spacing after its colon.
func replaceValue(src []byte, loc fieldLoc, value string) change {
	switch {
	case value == "":
		return change{loc.colonEnd, loc.valueEnd, ""}
	case loc.valueStart < loc.valueEnd:
		return change{loc.valueStart, loc.valueEnd, value}
	default:
		return change{loc.colonEnd, max(loc.valueEnd, loc.colonEnd), " " + value}
	}
}

// newFieldLine renders a new field like its neighbours: the same
// indentation, bullet and key style, and lower-case keys when all the
// task's keys are lower-case.
func (d *Document) newFieldLine(t *Task, m *taskMeta, s fieldSet, top bool) string {
	key := s.key
	lower := len(t.Fields) > 0
	for _, f := range t.Fields {
		if f.Key != strings.ToLower(f.Key) {
			lower = false
		}
	}
	if lower {
		key = strings.ToLower(key)
	}
	prefix, sep, bold := "- ", " ", false
	block := blockList
	if !m.list.ok() && m.para.ok() {
		if !top {
			return "* " + key + ": " + s.value
		}
		block = blockPara
	}
	var ref *fieldLoc
	for k := range m.fields {
		if m.fields[k].block == block && (ref == nil || !top) {
			ref = &m.fields[k]
		}
	}
	if ref != nil {
		prefix, bold = string(d.text[ref.prefix.Start:ref.prefix.End]), ref.bold
		if ref.valueStart > ref.colonEnd {
			sep = string(d.text[ref.colonEnd:ref.valueStart])
		}
	}
	if bold {
		return prefix + "**" + key + ":**" + sep + s.value
	}
	return prefix + key + ":" + sep + s.value
}

// insertLines inserts whole lines at a line start, or after a last line
// that has no line ending.
func (d *Document) insertLines(at int, lines []string) change {
	nl := d.Newline
	if at > 0 && d.text[at-1] != '\n' {
		return change{at, at, nl + strings.Join(lines, nl)}
	}
	return change{at, at, strings.Join(lines, nl) + nl}
}

// listAfter starts a metadata list after the block ending at at, with a
// blank line between them.
func (d *Document) listAfter(at int, lines []string) change {
	src, nl := d.text, d.Newline
	next := at
	for next < len(src) && isBlankLine(src, next) {
		next = lineEnd(src, next)
	}
	list := strings.Join(clearOfNext(lines, "* ", src, next), nl)
	if at > 0 && src[at-1] != '\n' {
		return change{at, at, nl + nl + list}
	}
	return change{at, at, nl + list + nl}
}

// newList starts a metadata list right under the task's heading, with a
// blank line on each side.
func (d *Document) newList(t *Task, m *taskMeta, lines []string) change {
	src, nl := d.text, d.Newline
	at := t.HeadingSpan.End
	if at > 0 && src[at-1] != '\n' {
		return change{at, at, nl + nl + strings.Join(lines, nl)}
	}
	// next is the first line after the list: the task's content or, in a
	// task without any, the next heading.
	next := at
	for next < len(src) && isBlankLine(src, next) {
		next = lineEnd(src, next)
	}
	list := strings.Join(clearOfNext(lines, "- ", src, next), nl)
	switch {
	case next == len(src) || (m.lastLine <= at && next > at):
		return change{at, at, nl + list + nl}
	case next == at:
		// Keep a blank line before what follows, or a paragraph or the
		// text of a setext heading would continue the list item.
		return change{at, at, nl + list + nl + nl}
	}
	return change{next, next, list + nl + nl}
}

// clearOfNext makes new list items, written with bullet, stay apart from
// the line after them (at next). A list item there with the same bullet
// would join the new list, so the other bullet is used; and a line
// indented as far as an item's text continues the item, even after a
// blank line, so the bullet is widened: the text of "-    x" starts in
// column 5, the furthest a bullet allows.
func clearOfNext(lines []string, bullet string, src []byte, next int) []string {
	indent, at := 0, next
	for ; at < len(src) && (src[at] == ' ' || src[at] == '\t'); at++ {
		if src[at] == '\t' {
			indent += 4 - indent%4
		} else {
			indent++
		}
	}
	mark := bullet[:1]
	if at < len(src) && src[at] == mark[0] && (at+1 == len(src) || isSpaceOrEOL(src[at+1])) {
		mark = map[string]string{"-": "*", "*": "-", "+": "-"}[mark]
	}
	wide := mark + strings.Repeat(" ", min(max(indent, 1), 4))
	if wide == bullet {
		return lines
	}
	out := make([]string, len(lines))
	for k, l := range lines {
		out[k] = wide + strings.TrimPrefix(l, bullet)
	}
	return out
}

func isSpaceOrEOL(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// removeFieldChanges deletes every field with key. A metadata block left
// with no items goes too, with the blank line that separated it.
func (d *Document) removeFieldChanges(i int, key string) []change {
	t, m := &d.Tasks[i], d.meta(i)
	src := d.text
	var cs []change
	removed := map[int]int{}
	for k, f := range t.Fields {
		if strings.EqualFold(f.Key, key) {
			cs = append(cs, change{f.Span.Start, f.Span.End, ""})
			removed[m.fields[k].block]++
		}
	}
	blocks := []metaBlock{blockPara: m.para, blockList: m.list, blockTrailing: m.trailing}
	for b, n := range removed {
		if blocks[b].items != n {
			continue
		}
		span := blocks[b].span
		cs = dropWithin(cs, span)
		end := span.End
		for end < m.lastLine && isBlankLine(src, end) {
			end = lineEnd(src, end)
		}
		start := span.Start
		if end >= m.lastLine {
			// Nothing follows the block: take the blank lines before it.
			end = span.End
			start = trimBlankLinesBefore(src, t.HeadingSpan.End, start)
		}
		cs = append(cs, change{start, end, ""})
	}
	sort.Slice(cs, func(a, b int) bool { return cs[a].start < cs[b].start })
	return cs
}

// dropWithin removes the changes that lie inside span.
func dropWithin(cs []change, span Span) []change {
	kept := cs[:0]
	for _, c := range cs {
		if c.start < span.Start || c.end > span.End {
			kept = append(kept, c)
		}
	}
	return kept
}
