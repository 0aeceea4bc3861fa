package taskdoc

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// Link reference definitions reach across the whole document: "[x][spec]",
// "[spec][]" and "[spec]" are links wherever they are when a definition of
// "spec" is anywhere, and the first definition of a label wins. An edit
// that adds, changes or removes a definition could therefore change
// text far from its task without changing a byte of it. The local check
// (see region) cannot see that, so an edit whose definitions differ from
// the task's old ones compares their labels with the text outside the
// task. That costs a scan of the document, paid only by edits that touch a
// definition.

// definitions are link reference definitions by normalised label (see
// util.ToLinkReference: trimmed, case-folded, inner spaces collapsed).
type definitions map[string]parser.Reference

// definitionsOf indexes refs, each label once (a parse context keeps the
// first definition of each label).
func definitionsOf(refs []parser.Reference) definitions {
	defs := make(definitions, len(refs))
	for _, r := range refs {
		defs[util.ToLinkReference(r.Label())] = r
	}
	return defs
}

// labelChange is what an edit does to the definition of a label.
type labelChange struct {
	label string // as the definition writes it
	verb  string // "add", "change" or "remove"
}

// changedLabels returns the labels whose definition differs between the
// old bytes of a range (before) and its new bytes (after).
func changedLabels(before, after []parser.Reference) map[string]labelChange {
	if len(before) == 0 && len(after) == 0 {
		return nil
	}
	old, now := definitionsOf(before), definitionsOf(after)
	changed := map[string]labelChange{}
	for key, r := range now {
		switch o, ok := old[key]; {
		case !ok:
			changed[key] = labelChange{labelText(r), "add"}
		case !sameDefinition(o, r):
			changed[key] = labelChange{labelText(r), "change"}
		}
	}
	for key, r := range old {
		if _, ok := now[key]; !ok {
			changed[key] = labelChange{labelText(r), "remove"}
		}
	}
	return changed
}

func sameDefinition(a, b parser.Reference) bool {
	return targetOf(a) == targetOf(b)
}

// labelText is a definition's label as written, its spaces collapsed.
func labelText(r parser.Reference) string {
	return string(util.ReplaceSpaces(util.TrimRightSpace(util.TrimLeftSpace(r.Label())), ' '))
}

// checkLabels refuses an edit of d into out whose range defined before
// and defines after, when it changes what a label used outside the range
// resolves to: ErrEditChangedOutside, naming the label and pointing at the
// first such use. A label resolves to its first definition in the
// document, so a definition added after an earlier one of the same label,
// or a changed or removed one that an earlier one outside overrides,
// changes nothing, and neither does one that leaves the label resolving
// to the same destination and title.
//
// The text outside is read as a reader would, not parsed: every "[...]"
// without brackets inside counts as a use, in code too, which can refuse
// an edit that is harmless but never accepts one that is not. full, the
// parse of out, says which definition each label resolves to and tells
// the definitions outside from the uses. Without it (the local check,
// where the old range defined nothing, so the edit only adds), every
// label the edit defines counts as changed and every "[...]" as a use: a
// refusal there means only that a full parse must decide.
func (d *Document) checkLabels(out []byte, r region, before, after []parser.Reference, full *scan) error {
	changed := changedLabels(before, after)
	var defs map[int]bool // where definitions start in out
	if full != nil && len(changed) > 0 {
		placed := full.placedDefinitions()
		defs = make(map[int]bool, len(placed))
		for _, p := range placed {
			defs[p.at] = true
		}
		dropUnchanged(changed, placed, definitionsOf(before), definitionsOf(after), r)
	}
	if len(changed) == 0 {
		return nil
	}
	hit, shift := "", 0
	find := func(key string, at int) bool {
		if _, ok := changed[key]; !ok || defs[at+shift] {
			return true
		}
		hit = key
		return false
	}
	at := eachLabel(d.text, d.body, r.start, find)
	if at < 0 {
		shift = r.newEnd - r.oldEnd
		if at = eachLabel(d.text, r.oldEnd, len(d.text), find); at >= 0 {
			at += shift
		}
	}
	if at < 0 {
		return nil
	}
	c := changed[hit]
	return ErrorAt(&Error{Code: CodeEditChangedOutside, Slug: strings.Clone(r.slug),
		Msg: "the edit would " + c.verb + " the link reference definition of " + quote(c.label) +
			", a label that text outside task " + quote(r.slug) + " uses, and change what it links to; nothing was written"},
		out, at)
}

// placedDefinition is a link reference definition of a parse: its
// normalised label, where its "[" is, and what it resolves the label to.
type placedDefinition struct {
	key    string
	at     int
	target target
}

// target is what a label resolves to; the zero target is no definition.
type target struct {
	defined     bool
	dest, title string
}

func targetOf(r parser.Reference) target {
	return target{true, string(r.Destination()), string(r.Title())}
}

// dropUnchanged removes from changed, the labels whose definitions in the
// range r differ between old and now, those that text outside the range
// reads as before: a definition outside before the range wins over the
// range's either way, and otherwise the label resolves to the range's
// first definition or, without one, to the first definition after the
// range; unchanged when both resolve alike. placed are the definitions
// of the edited document in order.
func dropUnchanged(changed map[string]labelChange, placed []placedDefinition, old, now definitions, r region) {
	first := map[string]int{} // the first definition outside the range by label: -1 before it, or its index after
	for i, p := range placed {
		if _, ok := changed[p.key]; !ok || (p.at >= r.start && p.at < r.newEnd) {
			continue
		}
		if _, seen := first[p.key]; !seen {
			first[p.key] = i
			if p.at < r.start {
				first[p.key] = -1
			}
		}
	}
	for key := range changed {
		var after target
		if i, ok := first[key]; ok {
			if i < 0 {
				delete(changed, key)
				continue
			}
			after = placed[i].target
		}
		was, is := after, after
		if o, ok := old[key]; ok {
			was = targetOf(o)
		}
		if n, ok := now[key]; ok {
			is = targetOf(n)
		}
		if was == is {
			delete(changed, key)
		}
	}
}

// placedDefinitions returns the link reference definitions of the parse
// in document order.
func (sc *scan) placedDefinitions() []placedDefinition {
	var out []placedDefinition
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		if def, ok := n.(*ast.LinkReferenceDefinition); ok {
			if l := n.Lines(); l.Len() > 0 {
				out = append(out, placedDefinition{util.ToLinkReference(def.Label), sc.base + l.At(0).Start,
					target{true, string(def.Destination), string(def.Title)}})
			}
			return
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Type() == ast.TypeBlock {
				visit(c)
			}
		}
	}
	for _, tb := range sc.tops {
		visit(tb.node)
	}
	return out
}

// definitionStarts returns where the link reference definitions of the
// parse start: the offset of each one's "[".
func (sc *scan) definitionStarts() map[int]bool {
	starts := map[int]bool{}
	for _, p := range sc.placedDefinitions() {
		starts[p.at] = true
	}
	return starts
}

// eachLabel calls f with the normalised text of every bracket pair in
// text[from:to] that holds no other unescaped bracket (the only text that
// can be a link label), and where its "[" is, until f returns false; it
// returns that offset, or -1 when f never does. A label that runs over
// lines is given twice when they differ: as CommonMark reads it, without
// the block quote markers that start its lines, and as goldmark does, with
// them.
func eachLabel(text []byte, from, to int, f func(key string, at int) bool) int {
	open := -1
	for i := from; i < to; {
		j := bytes.IndexAny(text[i:to], `\[]`)
		if j < 0 {
			break
		}
		i += j
		switch text[i] {
		case '\\':
			i += 2
			continue
		case '[':
			open = i
		case ']':
			if open < 0 {
				break
			}
			label := text[open+1 : i]
			if !f(util.ToLinkReference(label), open) {
				return open
			}
			if bytes.IndexByte(label, '\n') >= 0 {
				if bare := stripQuoteMarkers(label); !bytes.Equal(bare, label) && !f(util.ToLinkReference(bare), open) {
					return open
				}
			}
			open = -1
		}
		i++
	}
	return -1
}

// stripQuoteMarkers drops the spaces and ">" that start each line of a
// label after its first.
func stripQuoteMarkers(label []byte) []byte {
	var out []byte
	for len(label) > 0 {
		line := label
		if i := bytes.IndexByte(label, '\n'); i >= 0 {
			line = label[:i+1]
		}
		label = label[len(line):]
		if out != nil {
			line = bytes.TrimLeft(line, " \t>")
		}
		out = append(out, line...)
	}
	return out
}
