package taskdoc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestEditsWithSpecExamplesAsText feeds every CommonMark spec example to
// every edit as the caller's text (title, content, field value, note) on
// golden case documents that differ in line endings, metadata form and
// what follows the task: each edit either fails with a typed error and no
// bytes, or keeps the editing property.
func TestEditsWithSpecExamplesAsText(t *testing.T) {
	examples := loadSpecExamples(t)
	for _, name := range []string{"crlf", "subheading", "reference-server", "no-trailing-newline"} {
		path := filepath.Join("testdata", name+".md")
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		doc, err := taskdoc.Parse(src)
		require.NoError(t, err)
		for _, ex := range examples {
			t.Run(fmt.Sprintf("%s/example-%03d", filepath.Base(path), ex.Example), func(t *testing.T) {
				checkSpecTextEdits(t, doc, ex.Markdown)
			})
		}
	}
}

// checkSpecTextEdits runs every edit with text as the caller's text.
func checkSpecTextEdits(t *testing.T, doc *taskdoc.Document, text string) {
	first, _, _ := strings.Cut(text, "\n")
	edits := map[string]func() ([]byte, string, error){
		"add": func() ([]byte, string, error) {
			out, err := doc.AddTask(taskdoc.NewTask{Title: "Spec example", Content: text})
			return out, "spec-example", err
		},
		"add-titled": func() ([]byte, string, error) {
			out, err := doc.AddTask(taskdoc.NewTask{Title: first, After: goldenSlug})
			return out, "", err
		},
		"edit": func() ([]byte, string, error) {
			out, err := doc.EditTask(goldenSlug, taskdoc.Edit{Content: text})
			return out, goldenSlug, err
		},
		"rename": func() ([]byte, string, error) {
			out, err := doc.EditTask(goldenSlug, taskdoc.Edit{Title: first})
			return out, goldenSlug, err
		},
		"field": func() ([]byte, string, error) {
			out, err := doc.SetField(goldenSlug, "Owner", first)
			return out, goldenSlug, err
		},
		"complete": func() ([]byte, string, error) {
			out, err := doc.Complete(goldenSlug, text, goldenDate)
			return out, goldenSlug, err
		},
	}
	for name, edit := range edits {
		out, slug, err := edit()
		if err != nil {
			requireTypedError(t, err, out)
			continue
		}
		if slug == "" {
			// The title's Markdown decides the slug: find the new task.
			after, err := taskdoc.Parse(out)
			require.NoError(t, err, "%s:\n%s", name, out)
			for _, task := range after.Tasks {
				if _, err := doc.Task(task.Slug); err != nil {
					slug = task.Slug
				}
			}
		}
		assertEditProperty(t, doc.Source, out, slug)
	}
}
