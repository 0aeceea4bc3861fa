package taskdoc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The line scan counts at least as many heading lines as the document has
// headings, so that no document passes MaxHeadings by the way it writes
// them: over the CommonMark spec's examples (ATX and setext headings in
// every container) and what the fuzzer makes of them.
func FuzzHeadingLines(f *testing.F) {
	for _, ex := range SpecExamples(f) {
		f.Add([]byte(ex.Markdown))
	}
	f.Add([]byte("t\n-\n\n> t\n> -\n\n- t\n  =\n\n1. # t\n\n* ##\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse(src)
		if err != nil {
			return
		}
		require.GreaterOrEqual(t, d.lines.headings, len(d.Headings), "%q", src)
	})
}
