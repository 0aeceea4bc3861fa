package taskdoc_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// ParseFrontMatter must read exactly the front matter Parse reads, on
// every case document (YAML, TOML, BOM, CRLF, none).
func TestParseFrontMatterAgreesWithParse(t *testing.T) {
	files, err := filepath.Glob("testdata/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		doc, err := taskdoc.Parse(src)
		require.NoError(t, err, file)
		fm, err := taskdoc.ParseFrontMatter(src)
		require.NoError(t, err, file)
		assert.Equal(t, doc.FrontMatter, fm, file)
	}
}

func TestParseFrontMatter(t *testing.T) {
	fm, err := taskdoc.ParseFrontMatter([]byte("\ufeff---\r\ntitle: Flow\r\n---\r\n# Flow\r\n"))
	require.NoError(t, err)
	assert.Equal(t, "yaml", fm.Format)
	assert.Equal(t, "---\r\ntitle: Flow\r\n---\r\n", string(fm.Raw))
	assert.Equal(t, map[string]any{"title": "Flow"}, fm.Values)

	fm, err = taskdoc.ParseFrontMatter([]byte("# No front matter\n"))
	require.NoError(t, err)
	assert.Equal(t, taskdoc.FrontMatter{}, fm)

	_, err = taskdoc.ParseFrontMatter([]byte("---\ntitle: [unclosed\n---\n"))
	assert.ErrorIs(t, err, taskdoc.ErrParse)
}
