package editor

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// awkwardTexts hold every kind of line ending and characters of one to
// four UTF-8 bytes (two UTF-16 units for the emoji).
var awkwardTexts = []string{
	"",
	"a",
	"\n",
	"\r",
	"\r\n",
	"\r\r\n\n",
	"a😀b\r\nline 界\rlast",
	"---\ntitle: 界\n---\n# 😀\r\n\r\n## Tasks\r### é\n",
	"no final newline 😀😀",
	"é\u0301 combining, \u00a0 nbsp\n",
}

// Every character boundary of a text has a Position the independent
// reading agrees with, and turns back into the same offset.
func TestPositionRoundTrip(t *testing.T) {
	for _, src := range awkwardTexts {
		for _, enc := range Encodings {
			tx := newText([]byte(src), enc)
			for off := 0; off <= len(src); off++ {
				if off < len(src) && !utf8.RuneStart(src[off]) || off > 0 && off < len(src) && src[off-1] == '\r' && src[off] == '\n' {
					continue // inside a character or a "\r\n": no Position
				}
				p := tx.position(off)
				want, err := StrictOffset(src, p, enc)
				require.NoError(t, err, "%q %s offset %d -> %+v", src, enc, off, p)
				assert.Equal(t, off, want, "%q %s %+v", src, enc, p)
				got, err := tx.offset(p)
				require.NoError(t, err)
				assert.Equal(t, off, got, "%q %s %+v", src, enc, p)
			}
		}
	}
}

func TestPositionCounts(t *testing.T) {
	const src = "a😀b\r\nline 界\rlast"
	tests := []struct {
		enc  Encoding
		off  int // of "b"
		want Position
	}{
		{UTF16, 5, Position{0, 3}},
		{UTF8, 5, Position{0, 5}},
		{UTF32, 5, Position{0, 2}},
	}
	for _, tt := range tests {
		tx := newText([]byte(src), tt.enc)
		assert.Equal(t, tt.want, tx.position(tt.off), tt.enc)
	}
	// After the lone "\r": line 2. The "界" is 3 bytes, 1 UTF-16 unit.
	tx := newText([]byte(src), UTF8)
	assert.Equal(t, Position{1, 8}, tx.position(len("a😀b\r\nline 界")))
	assert.Equal(t, Position{2, 0}, tx.position(len("a😀b\r\nline 界\r")))
	assert.Equal(t, Position{2, 4}, tx.position(len(src)))
	assert.Equal(t, Position{2, 4}, tx.position(len(src)+10), "clamped")
	assert.Equal(t, Position{0, 0}, tx.position(-3), "clamped")
	// Between the "\r" and the "\n" is the end of the line.
	assert.Equal(t, Position{0, 6}, tx.position(len("a😀b\r")))
}

// The protocol's clamping: a character past its line is the line's end,
// a line past the last the text's end, half of a surrogate pair its
// character's start. Negative positions and reversed ranges are refused.
func TestOffsetClamps(t *testing.T) {
	const src = "a😀b\r\nline"
	tx := newText([]byte(src), UTF16)
	for _, tt := range []struct {
		p    Position
		want int
	}{
		{Position{0, 99}, len("a😀b")},
		{Position{1, 99}, len(src)},
		{Position{5, 0}, len(src)},
		{Position{0, 2}, 1}, // inside the emoji
		{Position{0, 3}, len("a😀")},
	} {
		got, err := tx.offset(tt.p)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%+v", tt.p)
	}
	_, err := tx.offset(Position{-1, 0})
	assert.Error(t, err)
	_, err = tx.offset(Position{0, -1})
	assert.Error(t, err)
	_, _, err = tx.rangeOffsets(Range{Start: Position{1, 0}, End: Position{0, 1}})
	assert.Error(t, err)
	start, end, err := tx.rangeOffsets(Range{Start: Position{0, 1}, End: Position{1, 2}})
	require.NoError(t, err)
	assert.Equal(t, "😀b\r\nli", src[start:end])
}

// The independent reading used by the tests agrees with itself on the
// cases written by hand.
func TestStrictOffset(t *testing.T) {
	src := "a😀\r\nb\rc\n"
	assert.Equal(t, []string{"a😀", "b", "c", ""}, SplitLines(src))
	for _, tt := range []struct {
		p    Position
		enc  Encoding
		want int
		bad  bool
	}{
		{Position{0, 3}, UTF16, 5, false},
		{Position{0, 5}, UTF8, 5, false},
		{Position{0, 2}, UTF32, 5, false},
		{Position{0, 2}, UTF16, 0, true},
		{Position{0, 4}, UTF16, 0, true},
		{Position{1, 1}, UTF16, 8, false},
		{Position{3, 0}, UTF16, len(src), false},
		{Position{4, 0}, UTF16, 0, true},
	} {
		got, err := StrictOffset(src, tt.p, tt.enc)
		if tt.bad {
			assert.Error(t, err, "%+v", tt.p)
			continue
		}
		require.NoError(t, err, "%+v", tt.p)
		assert.Equal(t, tt.want, got, "%+v %s", tt.p, tt.enc)
	}
}
