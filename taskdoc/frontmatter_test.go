package taskdoc_test

import (
	"os"
	"path/filepath"
	"strings"
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

// TestUndecodableFrontMatterIsKeptOpaque: front matter that does not
// decode is kept byte for byte and reported in FrontMatter.Err (and by
// ParseFrontMatter); the document still parses and its tasks can be
// edited.
func TestUndecodableFrontMatterIsKeptOpaque(t *testing.T) {
	const fmText = "---\ntitle: x\nissue id: [#885]\n---\n"
	crlf := strings.ReplaceAll(fmText, "\n", "\r\n")
	for _, tt := range []struct{ fm, src string }{
		{fmText, fmText + "# D\n\n## Tasks\n\n### A\n\n- Status: pending\n\n### B\n"},
		{crlf, crlf + "# D\r\n\r\n## Tasks\r\n\r\n### A\r\n\r\n### B\r\n"},
		{"+++\na = 1\na = 2\n+++\n", "\ufeff+++\na = 1\na = 2\n+++\n## Tasks\n\n### A\n\n### B"},
	} {
		src := tt.src
		t.Run(src, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(src))
			require.NoError(t, err)
			assert.Equal(t, tt.fm, string(doc.FrontMatter.Raw))
			assert.Nil(t, doc.FrontMatter.Values)
			assert.NotEmpty(t, doc.FrontMatter.Format)
			var e *taskdoc.Error
			require.ErrorAs(t, doc.FrontMatter.Err, &e)
			assert.Equal(t, taskdoc.CodeParse, e.Code)
			assert.Equal(t, 3, e.Line, "the line the decoder names")
			assert.Contains(t, e.Msg, "front matter does not decode")

			fm, err := taskdoc.ParseFrontMatter([]byte(src))
			assert.ErrorIs(t, err, taskdoc.ErrParse)
			assert.Equal(t, doc.FrontMatter, fm)

			require.Len(t, doc.Tasks, 2)
			edits := map[string]func() (*taskdoc.Document, *taskdoc.Task, error){
				"status": func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.SetStatus("a", taskdoc.StatusBlocked) },
				"add":    func() (*taskdoc.Document, *taskdoc.Task, error) { return doc.AddTask(taskdoc.NewTask{Title: "C"}) },
				"edit": func() (*taskdoc.Document, *taskdoc.Task, error) {
					return doc.EditTask("b", taskdoc.Edit{Title: "Bee", Content: "Body."})
				},
				"remove": func() (*taskdoc.Document, *taskdoc.Task, error) { return removed(doc.RemoveTask("a")) },
			}
			for name, edit := range edits {
				nd, task, err := edit()
				require.NoError(t, err, name)
				slug := map[string]string{"status": "a", "add": "c", "edit": "b", "remove": "a"}[name]
				got := assertEditProperty(t, doc.Source, nd, task, slug)
				assert.Equal(t, doc.FrontMatter.Err, got.FrontMatter.Err, name)
			}
		})
	}
}
