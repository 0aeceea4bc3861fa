package taskcontext_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/taskcontext"
)

func TestDefaultEstimator(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"abc", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"a b c d e f", 6}, // words, not 3 by bytes
		{"  \n\t ", 2},     // 5 bytes, no words
		{strings.Repeat("word ", 100), 125},
		{"日本語", 3}, // 9 bytes, one word
	} {
		assert.Equal(t, tc.want, taskcontext.DefaultEstimator(tc.text), "%q", tc.text)
	}
}
