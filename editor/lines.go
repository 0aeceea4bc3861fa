package editor

import "bytes"

// lineIndex is the index of where each line of a source starts, lines
// ended as everywhere in taskmd ("\n", "\r\n" or a lone "\r", as
// taskdoc.Position counts them), for turning offsets into lines and back
// many times: building it costs one pass over the source, each lookup a
// binary search. Lines are numbered from 0 here, as editors count them. A
// lineIndex is immutable and safe for concurrent use.
type lineIndex struct {
	src    []byte
	starts []int // starts[i] is the offset where line i starts
}

// newLineIndex indexes the lines of src, which it keeps (src must not change).
// An empty source, and one that ends in a line ending, has an empty last
// line.
func newLineIndex(src []byte) *lineIndex {
	starts := make([]int, 1, 1+bytes.Count(src, []byte("\n")))
	for at := 0; at < len(src); {
		i := bytes.IndexAny(src[at:], "\r\n")
		if i < 0 {
			break
		}
		at += i + 1
		if src[at-1] == '\r' && at < len(src) && src[at] == '\n' {
			at++
		}
		starts = append(starts, at)
	}
	return &lineIndex{src: src, starts: starts}
}

// Count is the number of lines.
func (l *lineIndex) Count() int { return len(l.starts) }

// Start is the offset where line n starts; n is clamped to the lines
// there are.
func (l *lineIndex) Start(n int) int { return l.starts[max(0, min(n, len(l.starts)-1))] }

// End is the offset where the text of line n ends, before its line
// ending; n is clamped to the lines there are.
func (l *lineIndex) End(n int) int {
	n = max(0, min(n, len(l.starts)-1))
	end := len(l.src)
	if n+1 < len(l.starts) {
		end = l.starts[n+1]
	}
	for end > l.starts[n] && (l.src[end-1] == '\n' || l.src[end-1] == '\r') {
		end--
	}
	return end
}

// Line is the line that holds the byte at offset, clamped to
// [0, len(src)]; the offset just after a line ending is on the next line.
func (l *lineIndex) Line(offset int) int {
	offset = max(0, min(offset, len(l.src)))
	lo, hi := 0, len(l.starts)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if l.starts[mid] <= offset {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
