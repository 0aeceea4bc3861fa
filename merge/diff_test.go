package merge

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apply replays hunks on a, taking the new lines from b.
func apply(a, b []int, hs []hunk) []int {
	var out []int
	i := 0
	for _, h := range hs {
		out = append(out, a[i:h.a0]...)
		out = append(out, b[h.b0:h.b1]...)
		i = h.a1
	}
	return append(out, a[i:]...)
}

// lcs is the length of a longest common subsequence, by dynamic
// programming: what a shortest edit script keeps.
func lcs(a, b []int) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func TestDiffIsShortest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 2000; n++ {
		a := make([]int, r.IntN(12))
		b := make([]int, r.IntN(12))
		for i := range a {
			a[i] = r.IntN(4)
		}
		for i := range b {
			b[i] = r.IntN(4)
		}
		hs := diff(a, b)
		require.Equal(t, b, orEmpty(apply(a, b, hs)), "a=%v b=%v hunks=%v", a, b, hs)
		kept := len(a)
		for i, h := range hs {
			kept -= h.a1 - h.a0
			require.True(t, h.a1 > h.a0 || h.b1 > h.b0, "empty hunk")
			if i > 0 {
				require.Greater(t, h.a0, hs[i-1].a1, "hunks are apart: a=%v b=%v %v", a, b, hs)
			}
		}
		require.Equal(t, lcs(a, b), kept, "a=%v b=%v hunks=%v", a, b, hs)
	}
}

func orEmpty(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func TestDiffPastMaxEdits(t *testing.T) {
	a := make([]int, maxEdits)
	b := make([]int, maxEdits)
	for i := range a {
		a[i], b[i] = i, -i-1
	}
	a = append([]int{-9}, append(a, -7)...)
	b = append([]int{-9}, append(b, -7)...)
	assert.Equal(t, []hunk{{1, maxEdits + 1, 1, maxEdits + 1}}, diff(a, b))
}
