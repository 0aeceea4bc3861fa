package merge

import (
	"bytes"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// fields writes the merge of a task both sides changed: title, fields
// and body each merged on their own, written in ours' form (its bullets,
// its key spelling) by taskdoc's own field edits. It returns the slugs
// written.
func (w *writer) fields(slug string, b, o, t *piece) []string {
	eb, okB := metaEnd(b)
	eo, okO := metaEnd(o)
	et, okT := metaEnd(t)
	if !okB || !okO || !okT {
		w.lines(b.text, o.text, t.text, slug, "body")
		return []string{o.task.Slug}
	}
	// The title.
	hb, ho, ht := b.heading(), o.heading(), t.heading()
	heading, titleConflict := ho, false
	switch {
	case bytes.Equal(ho, ht), bytes.Equal(ht, hb):
	case bytes.Equal(ho, hb):
		heading = ht
	default:
		titleConflict = true
	}
	// The fields, applied to ours' text with its heading.
	choices := mergeFields(b, o, t)
	text, ok := w.applyFields(o, heading, choices)
	if !ok {
		w.lines(b.text, o.text, t.text, slug, "body")
		return []string{o.task.Slug}
	}
	// The body, after the metadata, line by line.
	body := newWriter(w.o, w.nl, true)
	body.lines(b.text[eb:], o.text[eo:], t.text[et:], slug, "body")

	doc, err := taskdoc.Parse(text.src)
	if err != nil || len(doc.Tasks) != 1 {
		w.lines(b.text, o.text, t.text, slug, "body")
		return []string{o.task.Slug}
	}
	merged := &piece{task: &doc.Tasks[0], src: text.src}
	me, ok := metaEnd(merged)
	if !ok {
		w.lines(b.text, o.text, t.text, slug, "body")
		return []string{o.task.Slug}
	}
	start := merged.task.Span.Start
	src := text.src
	pos := start
	if titleConflict {
		w.conflict(withEnd(ho, w.nl), withEnd(ht, w.nl), slug, "title")
		pos = merged.task.HeadingSpan.End
	}
	// Field conflicts, in the order of the merged text.
	type at struct {
		span         taskdoc.Span
		ours, theirs []byte
		key          string
	}
	var marks []at
	for _, c := range choices {
		if !c.conflict {
			continue
		}
		fo, ft := fieldOf(o, c.key), fieldOf(t, c.key)
		var line []byte
		if ft.ok {
			line = t.src[ft.span.Start:ft.span.End]
		}
		span := taskdoc.Span{Start: start + me, End: start + me}
		name := c.key
		if fm := fieldOf(merged, c.key); fm.ok {
			span, name = fm.span, fm.key
		} else if fo.ok {
			name = fo.key
		} else if ft.ok {
			name = ft.key
		}
		var mine []byte
		if fo.ok {
			mine = o.src[fo.span.Start:fo.span.End]
		}
		marks = append(marks, at{span: span, ours: withEnd(mine, w.nl), theirs: withEnd(line, w.nl), key: name})
	}
	slices.SortStableFunc(marks, func(x, y at) int { return x.span.Start - y.span.Start })
	for _, m := range marks {
		w.write(src[pos:m.span.Start])
		w.conflict(m.ours, m.theirs, slug, m.key)
		pos = m.span.End
	}
	w.write(src[pos : start+me])
	// The body, its conflicts moved to their lines in the whole result.
	offset := w.line
	if b := w.buf.Bytes(); len(b) > 0 && !endsLine(b) {
		offset-- // the body starts on the line the metadata ends on
	}
	w.write(body.buf.Bytes())
	for _, c := range body.conflicts {
		c.Line += offset
		w.conflicts = append(w.conflicts, c)
	}
	if titleConflict {
		return []string{o.task.Slug, t.task.Slug}
	}
	return []string{merged.task.Slug}
}

// miniDoc is a task alone in a document of its own, under a Tasks heading
// one level up, so that taskdoc's edits apply to it.
type miniDoc struct{ src []byte }

// applyFields returns ours' task with heading in place of its own and
// the merged fields set (or removed) where they differ from ours', as a
// document of its own. ok is false when an edit does not apply.
func (w *writer) applyFields(o *piece, heading []byte, choices []fieldChoice) (miniDoc, bool) {
	prefix := strings.Repeat("#", max(1, o.task.Level-1)) + " Tasks" + w.nl + w.nl
	src := append([]byte(prefix), heading...)
	src = append(src, o.text[len(o.heading()):]...)
	src = withEnd(src, w.nl)
	doc, err := taskdoc.Parse(src)
	if err != nil || len(doc.Tasks) != 1 {
		return miniDoc{}, false
	}
	slug := doc.Tasks[0].Slug
	for _, c := range choices {
		if c.conflict {
			continue
		}
		cur := fieldOf(&piece{task: &doc.Tasks[0], src: doc.Source}, c.key)
		if cur.equal(c.merged) {
			continue
		}
		if c.merged.ok {
			key := c.merged.key
			if cur.ok {
				key = cur.key
			}
			doc, _, err = doc.SetField(slug, key, c.merged.val)
		} else {
			doc, _, err = doc.RemoveField(slug, c.key)
		}
		if err != nil {
			return miniDoc{}, false
		}
	}
	return miniDoc{src: doc.Source}, true
}
