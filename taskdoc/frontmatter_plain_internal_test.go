package taskdoc

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v2"
)

// plainYAMLCases are front matter bodies: the first ones plainYAML reads,
// the rest it leaves to yaml.v2 (a boolean or null word as key or value, a
// number, a comment, a nested value, a repeated key, a blank line, a key
// longer than yaml.v2 reads, ...).
var (
	plainYAMLRead = []string{
		"title: Token service\n",
		"title: Token service\nowner: team-auth\nstatus_note: see docs/auth.md, v2.1\n",
		"a:  two spaces before\n",
		"yes-or-no: yesterday\nnone: nothing\nOn-call: Ona\n",
		"title: Authentication service\nowner: platform-team\ntags: [auth, tokens]\n",
		"tags: [a,b ,c d]\none: [x]\n",
		"a: [ b ]\nc: [d e ]\n",
		strings.Repeat("k", maxSimpleKey) + ": b\n",
	}
	plainYAMLLeft = []string{
		"", "\n", "title: x", "title:x\n", "title:\n", "title: \n", "y: b\n", "Yes: b\n", "a: yes\n", "a: Off\n", "a: NULL\n",
		"a: 1\n", "a: 1.5\n", "a: -b\n", "a: .5\n", "a: ~\n", "a: b #c\n", "a: b:c\n", "a: b: c\n", "a: b\na: c\n",
		"a: b\n\nc: d\n", "# c\na: b\n", "a: {b: c}\n", "a: 'b'\n", "a: \"b\"\n", "a: b \n", "a: b  c\n",
		"a: b\r\n", " a: b\n", "a:\n  b: c\n", "a: é\n", "<<: b\n", "a: b\tc\n", "a b: c\n", "1a: b\n", "a: 2026-11-26\n",
		strings.Repeat("k", maxSimpleKey+1) + ": b\n", "a: b\n" + strings.Repeat("k", maxSimpleKey+1) + ": b\n",
		"a: []\n", "a: [b,]\n", "a: [,b]\n", "a: [b, yes]\n", "a: [b, 1]\n", "a: [b, [c]]\n", "a: [b\n", "a: [b  c]\n",
	}
)

// TestPlainYAMLAgreesWithYAML: what plainYAML reads, yaml.v2 reads the
// same; the usual front matter is read without yaml.v2; the rest is left
// to it.
func TestPlainYAMLAgreesWithYAML(t *testing.T) {
	for _, src := range plainYAMLRead {
		got, ok := plainYAML([]byte(src))
		require.True(t, ok, "%q", src)
		want := map[string]any{}
		require.NoError(t, yaml.Unmarshal([]byte(src), &want), "%q", src)
		assert.Equal(t, want, got, "%q", src)
	}
	for _, src := range plainYAMLLeft {
		_, ok := plainYAML([]byte(src))
		assert.False(t, ok, "%q", src)
	}
	doc, err := Parse([]byte("---\ntitle: Token service\n---\n# T\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"title": "Token service"}, doc.FrontMatter.Values)
}

func FuzzPlainYAML(f *testing.F) {
	for _, src := range append(plainYAMLRead, plainYAMLLeft...) {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got, ok := plainYAML(src)
		if !ok {
			return
		}
		want := map[string]any{}
		if err := yaml.Unmarshal(src, &want); err != nil {
			t.Fatalf("%q: plainYAML read %v, yaml.v2 refuses: %v", src, got, err)
		}
		if !assert.ObjectsAreEqual(want, got) {
			t.Fatalf("%q: plainYAML read %#v, yaml.v2 %#v", src, got, want)
		}
	})
}
