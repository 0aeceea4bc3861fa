package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// Headings whose text holds inline markup are read a second time for
// their anchors; these cases pin what that reading must give.
func TestHeadingMarkupAnchors(t *testing.T) {
	tests := []struct {
		name, src, text, slug string
	}{
		{"emphasis and code", "# *a* _b_ `c`\n", "a b c", "a-b-c"},
		{"link text, not its target", "# see [the spec](/specs/x.md)\n", "see the spec", "see-the-spec"},
		{"reference link defined elsewhere", "[r]: /u\n\n# [r] and [x][r]\n", "r and x", "r-and-x"},
		{"undefined reference stays literal", "# [x][nowhere]\n", "[x][nowhere]", "xnowhere"},
		{"raw HTML dropped, its space kept", "# <kbd>x\n", "x", "x"},
		{"markup in a quote", "> # in *quote*\n", "in quote", "in-quote"},
		{"markup in a list item", "- # item *x*\n", "item x", "item-x"},
		{"closing sequence after markup", "# *foo* # #\n", "foo #", "foo-"},
		{"setext over two lines", "a *b*\nc `d`\n===\n", "a b c d", "a-bc-d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(tt.src))
			require.NoError(t, err)
			require.Len(t, doc.Headings, 1)
			assert.Equal(t, tt.text, doc.Headings[0].Text)
			assert.Equal(t, tt.slug, doc.Headings[0].Slug)
		})
	}
}
