package affix_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/affix"
)

// slowPrefix and slowSuffix are the definitions, byte by byte.
func slowPrefix(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func slowSuffix(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// TestAgainstTheDefinition: random texts sharing random runs at both ends,
// around the block size.
func TestAgainstTheDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 5000 {
		shared := make([]byte, r.IntN(300))
		for i := range shared {
			shared[i] = byte('a' + r.IntN(3))
		}
		mid := func() []byte {
			m := make([]byte, r.IntN(5))
			for i := range m {
				m[i] = byte('a' + r.IntN(3))
			}
			return m
		}
		cut := r.IntN(len(shared) + 1)
		a := append(append(append([]byte{}, shared[:cut]...), mid()...), shared[cut:]...)
		b := append(append(append([]byte{}, shared[:cut]...), mid()...), shared[cut:]...)
		require.Equal(t, slowPrefix(a, b), affix.Prefix(a, b), "round %d: %q %q", round, a, b)
		require.Equal(t, slowSuffix(a, b), affix.Suffix(a, b), "round %d: %q %q", round, a, b)
	}
	require.Equal(t, 0, affix.Prefix(nil, []byte("x")))
	require.Equal(t, 3, affix.Suffix([]byte("abc"), []byte("xabc")))
}

func BenchmarkPrefix2MB(b *testing.B) {
	a := make([]byte, 2<<20)
	c := append([]byte{}, a...)
	c[len(c)-1] = 1
	b.SetBytes(int64(len(a)))
	for b.Loop() {
		affix.Prefix(a, c)
	}
}
