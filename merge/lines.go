package merge

import (
	"bytes"
	"strings"
)

// mergeLines merges base, ours and theirs line by line, as git merge-file
// does: a change on one side is taken, the same change on both sides is
// taken once, and changes of both sides that overlap or touch are a
// conflict, written between "<<<<<<<", "=======" and ">>>>>>>" markers
// (lines both sides' versions of the conflict begin or end with stay
// outside it). A side that ends without a line ending keeps that; inside
// a conflict a line ending is added so the markers stay on lines of their
// own.
func mergeLines(base, ours, theirs []byte, opts ...Option) Result {
	o := newOptions(opts)
	w := newWriter(o, newlineOf(ours, theirs, base), false)
	w.lines(base, ours, theirs, "", "text")
	return w.result()
}

// split cuts b into lines, each with its line ending ("\n" or "\r\n"; a
// last line may have none).
func split(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	out := make([][]byte, 0, bytes.Count(b, []byte{'\n'})+1)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

// numberer gives equal lines equal numbers, for diff.
type numberer map[string]int

func (nb numberer) of(lines [][]byte) []int {
	out := make([]int, len(lines))
	for i, l := range lines {
		n, ok := nb[string(l)]
		if !ok {
			n = len(nb)
			nb[string(l)] = n
		}
		out[i] = n
	}
	return out
}

// A chunk is one piece of a three-way merge: lines that need no choice
// (unchanged, or changed the same way on both sides), a change of one
// side, or a conflict between ours and theirs.
type chunk struct {
	kind         chunkKind
	lines        [][]byte // the merged lines, when not a conflict
	ours, theirs [][]byte // a conflict's sides
}

type chunkKind int

const (
	settled  chunkKind = iota // unchanged, or the same on both sides
	one                       // changed on one side only
	conflict                  // changed on both sides, differently
)

// diff3 merges the lines of three versions into chunks, as git's xdiff
// does at its default level (zealous, alnum): hunks of the two diffs from
// base that overlap or touch become one region; a region only one side
// changed, or that both changed the same way, is taken; otherwise it is a
// conflict, refined to the hunks of a diff between ours' and theirs'
// versions of it; then conflicts with at most three lines between them,
// or only lines without a letter or digit, become one.
func diff3(base, ours, theirs [][]byte) []chunk {
	nb := numberer{}
	b, o, t := nb.of(base), nb.of(ours), nb.of(theirs)
	ho, ht := diff(b, o), diff(b, t)
	var out []chunk
	stable := func(from, to int) {
		if to > from {
			out = append(out, chunk{kind: settled, lines: base[from:to]})
		}
	}
	pos := 0 // in base
	i, j := 0, 0
	for i < len(ho) || j < len(ht) {
		// The region: the first hunk, and every hunk of either side that
		// overlaps or touches what is gathered so far.
		var start, end int
		switch {
		case j == len(ht) || (i < len(ho) && ho[i].a0 <= ht[j].a0):
			start, end = ho[i].a0, ho[i].a1
		default:
			start, end = ht[j].a0, ht[j].a1
		}
		i0, j0 := i, j
		for {
			if i < len(ho) && ho[i].a0 <= end && ho[i].a1 >= start {
				end = max(end, ho[i].a1)
				i++
				continue
			}
			if j < len(ht) && ht[j].a0 <= end && ht[j].a1 >= start {
				end = max(end, ht[j].a1)
				j++
				continue
			}
			break
		}
		stable(pos, start)
		pos = end
		mine := side(base, ours, ho[i0:i], start, end)
		yours := side(base, theirs, ht[j0:j], start, end)
		switch {
		case j == j0:
			out = append(out, chunk{kind: one, lines: mine})
		case i == i0:
			out = append(out, chunk{kind: one, lines: yours})
		case equalLines(mine, yours):
			out = append(out, chunk{kind: settled, lines: mine})
		default:
			out = append(out, refine(nb, mine, yours)...)
		}
	}
	stable(pos, len(base))
	return simplify(out)
}

// side is a side's version of base[start:end], given its hunks there.
func side(base, lines [][]byte, hs []hunk, start, end int) [][]byte {
	var out [][]byte
	pos := start
	for _, h := range hs {
		out = append(out, base[pos:h.a0]...)
		out = append(out, lines[h.b0:h.b1]...)
		pos = h.a1
	}
	return append(out, base[pos:end]...)
}

// refine splits the conflict between ours and theirs into the hunks of a
// diff between them, with the lines they share between the hunks out of
// the conflict. A conflict with an empty side stays whole.
func refine(nb numberer, ours, theirs [][]byte) []chunk {
	if len(ours) == 0 || len(theirs) == 0 {
		return []chunk{{kind: conflict, ours: ours, theirs: theirs}}
	}
	var out []chunk
	pos := 0
	for _, h := range diff(nb.of(ours), nb.of(theirs)) {
		if h.a0 > pos {
			out = append(out, chunk{kind: settled, lines: ours[pos:h.a0]})
		}
		out = append(out, chunk{kind: conflict, ours: ours[h.a0:h.a1], theirs: theirs[h.b0:h.b1]})
		pos = h.a1
	}
	if pos < len(ours) {
		out = append(out, chunk{kind: settled, lines: ours[pos:]})
	}
	return out
}

// simplify joins two conflicts that only lines needing no choice keep
// apart, when those are at most three lines or have no letter or digit:
// one conflict reads more simply than two.
func simplify(cs []chunk) []chunk {
	var out []chunk
	for i := 0; i < len(cs); i++ {
		c := cs[i]
		if c.kind != conflict || len(out) == 0 {
			out = append(out, c)
			continue
		}
		// Find the previous conflict with only same chunks after it.
		k := len(out) - 1
		var gap [][]byte
		for k >= 0 && out[k].kind == settled {
			k--
		}
		if k < 0 || out[k].kind != conflict {
			out = append(out, c)
			continue
		}
		for _, g := range out[k+1:] {
			gap = append(gap, g.lines...)
		}
		if len(gap) > 3 && hasAlnum(gap) {
			out = append(out, c)
			continue
		}
		prev := out[k]
		joined := chunk{kind: conflict,
			ours:   concat(prev.ours, gap, c.ours),
			theirs: concat(prev.theirs, gap, c.theirs)}
		out = append(out[:k], joined)
	}
	return out
}

func concat(parts ...[][]byte) [][]byte {
	var out [][]byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// hasAlnum reports whether a line has an ASCII letter or digit.
func hasAlnum(lines [][]byte) bool {
	for _, l := range lines {
		for _, c := range l {
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				return true
			}
		}
	}
	return false
}

func equalLines(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// newlineOf is the line ending of the first of the texts that has one:
// the ending conflict markers take.
func newlineOf(texts ...[]byte) string {
	for _, t := range texts {
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			if i > 0 && t[i-1] == '\r' {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}

// writer builds a merge's bytes and its list of conflicts, counting lines
// as it goes.
type writer struct {
	o         options
	nl        string
	markdown  bool // keep conflict markers from reading as Markdown structure
	buf       bytes.Buffer
	line      int // lines written so far
	conflicts []Conflict
}

func newWriter(o options, nl string, markdown bool) *writer {
	return &writer{o: o, nl: nl, markdown: markdown}
}

func (w *writer) result() Result {
	return Result{Bytes: w.buf.Bytes(), Conflicts: w.conflicts}
}

// write appends b as it is.
func (w *writer) write(b []byte) {
	w.buf.Write(b)
	w.line += bytes.Count(b, []byte{'\n'})
}

// endLine adds a line ending when the text so far does not end with one.
func (w *writer) endLine() {
	if b := w.buf.Bytes(); len(b) > 0 && !endsLine(b) {
		w.write([]byte(w.nl))
	}
}

// endsLine reports whether b ends with a line ending: "\n", or a lone
// "\r", which Markdown reads as one too.
func endsLine(b []byte) bool {
	return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r')
}

// endsBlank reports whether b ends with a blank line.
func endsBlank(b []byte) bool {
	switch {
	case bytes.HasSuffix(b, []byte("\r\n")):
		b = b[:len(b)-2]
	case endsLine(b):
		b = b[:len(b)-1]
	default:
		return false
	}
	return len(b) == 0 || endsLine(b)
}

// blankBefore adds a blank line unless the text so far ends with one (or
// is empty): Markdown mode puts one before "=======" and before a task
// after a conflict, so that "=======" under a line of text is not read as
// a heading's underline, nor the next heading as part of a block quote.
func (w *writer) blankBefore() {
	if b := w.buf.Bytes(); len(b) == 0 || endsBlank(b) {
		return
	}
	w.endLine()
	w.write([]byte(w.nl))
}

// marker writes a marker line: c repeated to the marker size, then the
// label.
func (w *writer) marker(c byte, label string) {
	w.endLine()
	m := strings.Repeat(string(c), w.o.size)
	if label != "" {
		m += " " + label
	}
	w.write([]byte(m + w.nl))
}

// conflict writes ours and theirs between markers and records the
// conflict.
func (w *writer) conflict(ours, theirs []byte, task, field string) {
	w.endLine()
	w.conflicts = append(w.conflicts, Conflict{Task: task, Field: field, Line: w.line + 1})
	w.marker('<', w.o.ours)
	w.side(ours)
	if w.markdown {
		w.blankBefore()
	}
	w.marker('=', "")
	w.side(theirs)
	w.marker('>', w.o.theirs)
}

// side writes one side of a conflict; in Markdown mode a blank line
// first when it starts with a setext heading, which the marker line
// before it would otherwise join.
func (w *writer) side(b []byte) {
	if w.markdown && startsSetext(b) {
		w.write([]byte(w.nl))
	}
	w.write(b)
}

// startsSetext reports whether b's second line underlines its first:
// "Title" then "-----" or "=====".
func startsSetext(b []byte) bool {
	first, rest, ok := bytes.Cut(b, []byte{'\n'})
	if !ok || len(bytes.TrimSpace(first)) == 0 {
		return false
	}
	second, _, _ := bytes.Cut(rest, []byte{'\n'})
	second = bytes.TrimRight(second, " \t\r")
	indent := len(second) - len(bytes.TrimLeft(second, " "))
	second = second[indent:]
	if indent > 3 || len(second) == 0 || (second[0] != '=' && second[0] != '-') {
		return false
	}
	return len(bytes.Trim(second, string(second[0]))) == 0
}

// lines merges three versions of a piece of text by diff3 into the
// output, on a line of its own.
func (w *writer) lines(base, ours, theirs []byte, task, field string) {
	for _, c := range diff3(split(base), split(ours), split(theirs)) {
		if c.kind != conflict {
			for _, l := range c.lines {
				w.endLine()
				w.write(l)
			}
			continue
		}
		w.conflict(bytes.Join(c.ours, nil), bytes.Join(c.theirs, nil), task, field)
	}
}
