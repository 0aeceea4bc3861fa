package editor

import (
	"bytes"

	"github.com/taskmd/taskmd/internal/affix"
)

// Edit is one change of a buffer: the text that replaces Range, both in
// the buffer as it was before any of the edits it comes with.
type Edit struct {
	Range   Range  `json:"range"`
	NewText string `json:"new_text"`
}

// maxDiffLines bounds the lines diffed line by line; a change over more
// lines is one edit of the changed region.
const maxDiffLines = 400

// diff returns the edits that turn t into to: the fewest lines changed,
// each trimmed to the characters that differ (a line changed in place is
// an edit of its own, a run of lines added or removed one edit; see
// align), so that an editor keeps its cursor, marks and undo history
// everywhere else. The
// edits are in order and do not overlap. The library's edits splice one
// task, so the region that differs is small and found first, by the
// bytes the two texts share at their ends.
func (t *text) diff(to []byte) []Edit {
	from := t.src
	if bytes.Equal(from, to) {
		return nil
	}
	// The region that differs, widened to whole lines of from.
	p := affix.Prefix(from, to)
	s := affix.Suffix(from[p:], to[p:])
	first := t.lines.Line(p)
	if p > 0 && p == t.lines.Start(first) && from[p-1] == '\r' && p < len(to) && to[p] == '\n' {
		first-- // the "\r" ending the line before becomes a "\r\n"
	}
	start := t.lines.Start(first)
	endFrom, endTo := len(from)-s, len(to)-s
	last := t.lines.Line(endFrom)
	if endFrom > t.lines.Start(last) || endFrom < len(from) && from[endFrom] == '\n' && endTo > start && to[endTo-1] == '\r' {
		// To the end of the line (and so of a "\r\n" the change writes).
		ext := t.lines.Start(last+1) - endFrom
		if last+1 >= t.lines.Count() {
			ext = len(from) - endFrom
		}
		endFrom += ext
		endTo += ext
	}
	a := splitLines(from[start:endFrom])
	b := splitLines(to[start:endTo])
	if len(a) > maxDiffLines || len(b) > maxDiffLines {
		return []Edit{t.edit(start, endFrom, from[start:endFrom], to[start:endTo])}
	}
	var edits []Edit
	ai, bi := 0, 0         // the current line of a and b
	at, bt := start, start // and its offset in from and to
	for _, h := range hunks(a, b) {
		for ; ai < h.a0; ai++ {
			at += len(a[ai])
		}
		for ; bi < h.b0; bi++ {
			bt += len(b[bi])
		}
		for _, g := range align(a[h.a0:h.a1], b[h.b0:h.b1]) {
			aEnd, bEnd := at, bt
			for ; g.a > 0; g.a-- {
				aEnd += len(a[ai])
				ai++
			}
			for ; g.b > 0; g.b-- {
				bEnd += len(b[bi])
				bi++
			}
			if !bytes.Equal(from[at:aEnd], to[bt:bEnd]) {
				e := t.edit(at, aEnd, from[at:aEnd], to[bt:bEnd])
				if n := len(edits); n > 0 && edits[n-1].Range.End == e.Range.Start {
					// Edits that touch are one.
					edits[n-1].Range.End = e.Range.End
					edits[n-1].NewText += e.NewText
				} else {
					edits = append(edits, e)
				}
			}
			at, bt = aEnd, bEnd
		}
	}
	return edits
}

// group is a lines of from that become b lines of to, in one edit.
type group struct{ a, b int }

// align splits the lines a that become the lines b into the groups of
// their edits: a line changed in place is a group of its own (1, 1), so
// that an edit is trimmed to the characters of one line and what an
// editor marks on the lines between stays; the lines added or removed
// around them are one group each. When as many lines go as come, each
// line is changed in place; otherwise the lines changed in place are the
// run of the shorter side's length, at the place in the longer side where
// the paired lines share the most bytes at their ends (a completion's
// status line and the lines it adds after it).
func align(a, b [][]byte) []group {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return []group{{n, m}}
	}
	k, d := min(n, m), max(n, m)-min(n, m)
	best, bestAt := -1, 0
	for o := 0; o <= d; o++ {
		shared := 0
		for i := 0; i < k; i++ {
			la, lb := a[i], b[i]
			if n > m {
				la = a[i+o]
			} else {
				lb = b[i+o]
			}
			p := affix.Prefix(la, lb)
			shared += p + affix.Suffix(la[p:], lb[p:])
		}
		if shared > best {
			best, bestAt = shared, o
		}
	}
	side := func(c int) group {
		if n > m {
			return group{c, 0}
		}
		return group{0, c}
	}
	var out []group
	if bestAt > 0 {
		out = append(out, side(bestAt))
	}
	for range k {
		out = append(out, group{1, 1})
	}
	if d-bestAt > 0 {
		out = append(out, side(d-bestAt))
	}
	return out
}

// edit is the Edit that replaces old, at [start, end) of the text, with
// new, trimmed to the bytes that differ (whole characters).
func (t *text) edit(start, end int, old, new []byte) Edit {
	p := runeStart(old, affix.Prefix(old, new))
	s := len(old) - runeEnd(old, len(old)-affix.Suffix(old[p:], new[p:]))
	// No Position falls between the "\r" and "\n" of a line ending, and
	// an editor need not join a "\r" and a "\n" across an edit's end: an
	// edit that splits one, or makes one of a "\r" before it and a "\n"
	// it writes (or of a "\r" it writes and a "\n" after it), takes the
	// whole line ending.
	src := t.src
	if at := start + p; p > 0 && src[at-1] == '\r' && (at < end && src[at] == '\n' || p < len(new) && new[p] == '\n') {
		p--
	}
	if e, n := end-s, len(new)-s; s > 0 && src[e] == '\n' && (e > start+p && src[e-1] == '\r' || n > p && new[n-1] == '\r') {
		s--
	}
	return Edit{
		Range:   Range{Start: t.position(start + p), End: t.position(end - s)},
		NewText: string(new[p : len(new)-s]),
	}
}

// runeEnd moves i on to the start of the next UTF-8 character when it is
// inside one.
func runeEnd(b []byte, i int) int {
	for i < len(b) && b[i]&0xC0 == 0x80 {
		i++
	}
	return i
}

// runeStart moves i back to the start of the UTF-8 character holding it.
func runeStart(b []byte, i int) int {
	for i > 0 && i < len(b) && b[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// splitLines splits b after each line ending, keeping them ("\n", "\r\n"
// or a lone "\r"); a last line without one is a line too.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			out = append(out, b)
			break
		}
		i++
		if b[i-1] == '\r' && i < len(b) && b[i] == '\n' {
			i++
		}
		out = append(out, b[:i])
		b = b[i:]
	}
	return out
}

// hunk is a run of lines a[a0:a1] that becomes b[b0:b1].
type hunk struct{ a0, a1, b0, b1 int }

// hunks are the changes from a to b by their longest common subsequence
// of lines, in order.
func hunks(a, b [][]byte) []hunk {
	n, m := len(a), len(b)
	// lcs[i][j] is the length of the LCS of a[i:] and b[j:].
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if bytes.Equal(a[i], b[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []hunk
	i, j := 0, 0
	for i < n || j < m {
		if i < n && j < m && bytes.Equal(a[i], b[j]) {
			i++
			j++
			continue
		}
		h := hunk{a0: i, b0: j}
		for (i < n || j < m) && !(i < n && j < m && bytes.Equal(a[i], b[j])) {
			if j >= m || (i < n && lcs[i+1][j] >= lcs[i][j+1]) {
				i++
			} else {
				j++
			}
		}
		h.a1, h.b1 = i, j
		out = append(out, h)
	}
	return out
}
