package editor

import "bytes"

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
// an edit of its own, lines added or removed one edit with the lines they
// replace), so that an editor keeps its cursor, marks and undo history
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
	p := commonPrefix(from, to)
	s := commonSuffix(from[p:], to[p:])
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
	ai, bi := 0, 0 // byte offsets of the current line in from[start:] and to[start:]
	at, bt := start, start
	for _, h := range hunks(a, b) {
		for ; ai < h.a0; ai++ {
			at += len(a[ai])
		}
		for ; bi < h.b0; bi++ {
			bt += len(b[bi])
		}
		if h.a1-h.a0 == h.b1-h.b0 {
			// Lines changed in place: an edit per line, so that what an
			// editor marks on the lines between stays.
			for i := 0; i < h.a1-h.a0; i++ {
				la, lb := a[h.a0+i], b[h.b0+i]
				if !bytes.Equal(la, lb) {
					edits = append(edits, t.edit(at, at+len(la), la, lb))
				}
				at += len(la)
				bt += len(lb)
			}
			ai, bi = h.a1, h.b1
			continue
		}
		aEnd, bEnd := at, bt
		for i := h.a0; i < h.a1; i++ {
			aEnd += len(a[i])
		}
		for i := h.b0; i < h.b1; i++ {
			bEnd += len(b[i])
		}
		edits = append(edits, t.edit(at, aEnd, from[at:aEnd], to[bt:bEnd]))
		ai, bi, at, bt = h.a1, h.b1, aEnd, bEnd
	}
	return edits
}

// edit is the Edit that replaces old, at [start, end) of the text, with
// new, trimmed to the bytes that differ (whole characters).
func (t *text) edit(start, end int, old, new []byte) Edit {
	p := runeStart(old, commonPrefix(old, new))
	s := len(old) - runeEnd(old, len(old)-commonSuffix(old[p:], new[p:]))
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

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
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
