package taskdoc

import (
	"bytes"
	"slices"
)

// CrossLink is a link reference label that ties a task to text outside
// it, so that moving or removing the task would change what a link means:
// the task defines a label that text outside the task uses or defines too,
// or the task uses a label that only a definition outside it gives a
// destination.
type CrossLink struct {
	Slug  string `json:"slug"`  // the task's
	Label string `json:"label"` // as the task writes it, its white space collapsed
	// Span is the "[label]" in the task: the task's first definition of
	// the label when it defines it, else its first use.
	Span Span `json:"-"`
	// Defines says whether the task defines the label.
	Defines bool `json:"defines"`
	// Outside is the "[label]" outside the task it is tied to: the first
	// text outside that uses or defines the label when the task defines it,
	// else the first definition outside.
	Outside Span `json:"-"`
}

// CrossLinks returns the link reference labels that tie each task to text
// outside it, in task order and, within a task, in the order the labels
// first appear in it. Labels match as CommonMark matches them
// (case-folded, spaces collapsed), as the edits' check of definitions does
// (see Edits in the package doc), and text is read the same way: every
// "[label]" counts as a use, in code too, and the definitions are those
// goldmark finds. A document that defines no link reference has none.
//
// It costs a scan of the document for brackets and, for the tasks and the
// text around the Tasks section that hold a definition, a parse of that
// part: a document without definitions costs nothing.
func (d *Document) CrossLinks() []CrossLink {
	if !d.hasRefs || len(d.Tasks) == 0 {
		return nil
	}
	// Parts: 0 is the text before the first task, i+1 task i, and
	// len(d.Tasks)+1 the text after the last. Each starts where nothing
	// before it is open (the body or a top-level heading), so each reads
	// on its own as it reads in the document.
	bounds := make([]int, 0, len(d.Tasks)+2)
	bounds = append(bounds, d.body)
	for _, t := range d.Tasks {
		bounds = append(bounds, t.Span.Start)
	}
	last := d.Tasks[len(d.Tasks)-1].Span.End
	bounds = append(bounds, last, len(d.text))
	defs := map[int]bool{} // where definitions start
	for p := 0; p+1 < len(bounds); p++ {
		from, to := bounds[p], bounds[p+1]
		if from < to && bytes.Contains(d.text[from:to], []byte("]:")) {
			for at := range scanBlocks(d.text, from, to, from, false).definitionStarts() {
				defs[at] = true
			}
		}
	}
	if len(defs) == 0 {
		return nil
	}

	byKey := map[string][]mark{}
	var order []string // keys in order of first appearance
	part := 0
	eachLabel(d.text, d.body, len(d.text), func(key string, at int) bool {
		for part+1 < len(bounds)-1 && at >= bounds[part+1] {
			part++
		}
		if key == "" {
			return true
		}
		if _, ok := byKey[key]; !ok {
			order = append(order, key)
		}
		byKey[key] = append(byKey[key], mark{part: part, span: Span{at, labelEnd(d.text, at)}, def: defs[at]})
		return true
	})

	var out []CrossLink
	for _, key := range order {
		out = appendCrossLinks(out, d, byKey[key], len(d.Tasks))
	}
	slices.SortFunc(out, func(a, b CrossLink) int { return a.Span.Start - b.Span.Start })
	return out
}

// mark is one "[label]" of the document: the part it is in (see
// CrossLinks), where, and whether it starts a definition.
type mark struct {
	part int
	span Span
	def  bool
}

// appendCrossLinks adds the cross links of one label, given its marks in
// order, for each task (parts 1 to tasks) that has one.
func appendCrossLinks(out []CrossLink, d *Document, marks []mark, tasks int) []CrossLink {
	// The first mark, and the first in another part than that one, are
	// enough to find the first mark outside any part; the same for
	// definitions.
	var head, headElse, def, defElse *mark
	for k := range marks {
		m := &marks[k]
		switch {
		case head == nil:
			head = m
		case headElse == nil && m.part != head.part:
			headElse = m
		}
		switch {
		case !m.def:
		case def == nil:
			def = m
		case defElse == nil && m.part != def.part:
			defElse = m
		}
	}
	outside := func(first, other *mark, part int) *mark {
		if first != nil && first.part == part {
			return other
		}
		return first
	}
	for k := 0; k < len(marks); {
		part := marks[k].part
		var first, firstDef *mark
		for ; k < len(marks) && marks[k].part == part; k++ {
			if first == nil {
				first = &marks[k]
			}
			if firstDef == nil && marks[k].def {
				firstDef = &marks[k]
			}
		}
		if part < 1 || part > tasks {
			continue
		}
		if firstDef != nil {
			if o := outside(head, headElse, part); o != nil {
				out = append(out, d.crossLink(part-1, firstDef.span, true, o.span))
			}
		} else if o := outside(def, defElse, part); o != nil {
			out = append(out, d.crossLink(part-1, first.span, false, o.span))
		}
	}
	return out
}

func (d *Document) crossLink(task int, span Span, defines bool, outside Span) CrossLink {
	label := string(bytes.Join(bytes.Fields(d.text[span.Start+1:span.End-1]), []byte(" ")))
	return CrossLink{Slug: d.Tasks[task].Slug, Label: label, Span: span, Defines: defines, Outside: outside}
}

// labelEnd is where the bracket pair that eachLabel found at open ends:
// just after its "]", the first unescaped bracket after open.
func labelEnd(text []byte, open int) int {
	for i := open + 1; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case ']', '[':
			return i + 1
		}
	}
	return len(text)
}
