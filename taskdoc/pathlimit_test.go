package taskdoc_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// An address whose file would be too deep or too long is refused by
// ParseAddress, so nothing is created for it; the limits count the
// file's root-relative name ("docs/..."), as the workspace does.
func TestParseAddressLimits(t *testing.T) {
	folders := func(n int) string { return strings.Repeat("f/", n) }
	tests := []struct {
		address string
		ok      bool
		why     string
	}{
		{"/" + folders(taskdoc.MaxPathDepth-1) + "a.md#t", true, ""},                      // docs/ and 31 more
		{"/" + folders(taskdoc.MaxPathDepth) + "a.md#t", false, "33 folders deep"},        // one too many
		{"/" + folders(3000) + "a.md#t", false, "6009 bytes long"},                        // the pathological one
		{"/archived/" + folders(taskdoc.MaxPathDepth-1) + "a.md", true, ""},               // archived/ counts once
		{"/" + strings.Repeat("x", taskdoc.MaxPathElement-3) + ".md", true, ""},           // 255 bytes
		{"/" + strings.Repeat("x", taskdoc.MaxPathElement-2) + ".md", false, "256 bytes"}, // 256 bytes
		{"/" + strings.Repeat(strings.Repeat("y", 200)+"/", 6) + "a.md", false, "1215 bytes long"},
	}
	for _, tt := range tests {
		a, err := taskdoc.ParseAddress(tt.address)
		if tt.ok {
			require.NoError(t, err, "%.60s", tt.address)
			assert.Empty(t, taskdoc.PathLimit(a.File()))
			continue
		}
		require.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err), "%.60s", tt.address)
		assert.Contains(t, err.Error(), tt.why)
		assert.Less(t, len(err.Error()), 400, "the message quotes a long address in part")
	}
	// The whole name: 1,024 bytes pass, 1,025 do not.
	name := strings.Repeat(strings.Repeat("z", 99)+"/", 10) + strings.Repeat("z", 21) + ".md"
	require.Len(t, name, taskdoc.MaxPathBytes)
	assert.Empty(t, taskdoc.PathLimit(name))
	assert.Contains(t, taskdoc.PathLimit(name+"x"), "1025 bytes long, more than the limit of 1024")
}
