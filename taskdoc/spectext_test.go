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
	examples := taskdoc.SpecExamples(t)
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
	edits := map[string]func() (*taskdoc.Document, *taskdoc.Task, string, error){
		"add": func() (*taskdoc.Document, *taskdoc.Task, string, error) {
			nd, task, err := doc.AddTask(taskdoc.NewTask{Title: "Spec example", Content: text})
			return nd, task, "spec-example", err
		},
		"add-titled": func() (*taskdoc.Document, *taskdoc.Task, string, error) {
			nd, task, err := doc.AddTask(taskdoc.NewTask{Title: first, After: goldenSlug})
			return nd, task, "", err
		},
		"edit": func() (*taskdoc.Document, *taskdoc.Task, string, error) {
			nd, task, err := doc.EditTask(goldenSlug, taskdoc.Edit{Content: text})
			return nd, task, goldenSlug, err
		},
		"rename": func() (*taskdoc.Document, *taskdoc.Task, string, error) {
			nd, task, err := doc.EditTask(goldenSlug, taskdoc.Edit{Title: first})
			return nd, task, goldenSlug, err
		},
		"field": func() (*taskdoc.Document, *taskdoc.Task, string, error) {
			nd, task, err := doc.SetField(goldenSlug, "Owner", first)
			return nd, task, goldenSlug, err
		},
		"complete": func() (*taskdoc.Document, *taskdoc.Task, string, error) {
			nd, task, err := doc.Complete(goldenSlug, text, goldenDate)
			return nd, task, goldenSlug, err
		},
	}
	for name, edit := range edits {
		nd, task, slug, err := edit()
		if err != nil {
			requireTypedError(t, err, nd)
			continue
		}
		if slug == "" {
			// The title's Markdown decides the slug: find the new task.
			after, err := taskdoc.Parse(nd.Source)
			require.NoError(t, err, "%s:\n%s", name, nd.Source)
			for _, nt := range after.Tasks {
				if _, err := doc.Task(nt.Slug); err != nil {
					slug = nt.Slug
				}
			}
		}
		assertEditProperty(t, doc.Source, nd, task, slug)
	}
}
