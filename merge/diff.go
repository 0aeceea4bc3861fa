package merge

// A hunk is one change of a diff from a to b: a[A0:A1] became b[B0:B1].
// An insertion has A0 == A1, a deletion B0 == B1.
type hunk struct{ a0, a1, b0, b1 int }

// maxEdits bounds the work of one diff: past this many inserted and
// deleted lines the middle of the two sides, between their common start
// and end, is one hunk. The merge is then coarser (a conflict where a
// finer diff would have merged), never wrong.
const maxEdits = 1024

// diff returns the hunks that turn a into b, in order, by Myers' O(ND)
// algorithm on line numbers (equal lines have equal numbers). It keeps
// the trace of its frontier, so memory grows with the square of the
// edits; maxEdits bounds it.
func diff(a, b []int) []hunk {
	// The common start and end are not part of the search.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	x0, x1, y0, y1 := pre, len(a)-suf, pre, len(b)-suf
	if x0 == x1 && y0 == y1 {
		return nil
	}
	if x0 == x1 || y0 == y1 {
		return []hunk{{x0, x1, y0, y1}}
	}
	matches, ok := myers(a[x0:x1], b[y0:y1])
	if !ok {
		return []hunk{{x0, x1, y0, y1}}
	}
	var out []hunk
	i, j := 0, 0
	for _, m := range append(matches, [2]int{x1 - x0, y1 - y0}) {
		if m[0] > i || m[1] > j {
			out = append(out, hunk{x0 + i, x0 + m[0], y0 + j, y0 + m[1]})
		}
		i, j = m[0]+1, m[1]+1
	}
	return out
}

// myers returns the pairs (i, j) with a[i] == b[j] of a shortest edit
// script, in order, or false past maxEdits edits.
func myers(a, b []int) ([][2]int, bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		// Only diagonals -d..d are reachable: keep just those.
		snap := make([]int, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, d, n, m), true
			}
		}
	}
	return nil, false
}

// backtrack walks the trace of myers back from (n, m), reached at d
// edits, and returns the matched pairs, in order. trace[e] is the
// frontier before step e, diagonal k at index k+e.
func backtrack(trace [][]int, d, n, m int) [][2]int {
	var rev [][2]int
	x, y := n, m
	for ; d > 0; d-- {
		prev := trace[d]
		k := x - y
		var pk, sx int // the previous diagonal; x where this step's snake starts
		if k == -d || (k != d && prev[k-1+d] < prev[k+1+d]) {
			pk = k + 1 // down: an insertion
			sx = prev[pk+d]
		} else {
			pk = k - 1 // right: a deletion
			sx = prev[pk+d] + 1
		}
		for x > sx {
			rev = append(rev, [2]int{x - 1, y - 1})
			x, y = x-1, y-1
		}
		x = prev[pk+d]
		y = x - pk
	}
	for x > 0 && y > 0 {
		rev = append(rev, [2]int{x - 1, y - 1})
		x, y = x-1, y-1
	}
	out := make([][2]int, len(rev))
	for i, p := range rev {
		out[len(rev)-1-i] = p
	}
	return out
}
