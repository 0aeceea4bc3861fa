// Package affix measures what two versions of a text share at their
// start and at their end: where an edit (or another process's write)
// begins and ends. Long runs are compared in blocks, with the machine's
// fast memory compare, so a 2 MB document costs microseconds.
package affix

import "bytes"

// block is how many bytes are compared at once before the byte-by-byte
// search for the first difference.
const block = 64

// Prefix is how many bytes a and b share at their start.
func Prefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// Suffix is how many bytes a and b share at their end.
func Suffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[len(a)-i-block:len(a)-i], b[len(b)-i-block:len(b)-i]) {
		i += block
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
