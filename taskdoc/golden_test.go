package taskdoc_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output (review every diff by eye)")

// goldenSlug is the task every golden edit targets; each case document
// has it, except the one without a Tasks section.
const goldenSlug = "implement-jwt-signing"

var goldenDate = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)

// goldenEdits are the edit kinds run on every testdata/<case>.md. Each
// returns what the edit returned and the slug whose span the edit may
// change.
var goldenEdits = []struct {
	name  string
	apply func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error)
	shows func(t *testing.T, after *taskdoc.Document)
}{
	{"status", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, task, err := d.SetStatus(goldenSlug, taskdoc.StatusBlocked)
		return nd, task, goldenSlug, err
	}, func(t *testing.T, after *taskdoc.Document) {
		requireTaskStatus(t, after, goldenSlug, taskdoc.StatusBlocked)
	}},
	{"set-field", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, task, err := d.SetField(goldenSlug, "Workflow", "spec-first-delivery")
		return nd, task, goldenSlug, err
	}, func(t *testing.T, after *taskdoc.Document) {
		requireField(t, after, goldenSlug, "Workflow", "spec-first-delivery")
	}},
	{"add-field", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, task, err := d.SetField(goldenSlug, "Owner", "ana")
		return nd, task, goldenSlug, err
	}, func(t *testing.T, after *taskdoc.Document) {
		requireField(t, after, goldenSlug, "Owner", "ana")
	}},
	{"remove-field", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, task, err := d.RemoveField(goldenSlug, "workflow")
		return nd, task, goldenSlug, err
	}, func(t *testing.T, after *taskdoc.Document) {
		task, err := after.Task(goldenSlug)
		require.NoError(t, err)
		_, ok := task.Field("Workflow")
		require.False(t, ok)
	}},
	{"complete", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, task, err := d.Complete(goldenSlug, "Signed with RS256; keys rotate daily.", goldenDate)
		return nd, task, goldenSlug, err
	}, func(t *testing.T, after *taskdoc.Document) {
		requireTaskStatus(t, after, goldenSlug, taskdoc.StatusCompleted)
		requireField(t, after, goldenSlug, "Completed", "2026-11-23")
		requireField(t, after, goldenSlug, "Note", "Signed with RS256; keys rotate daily.")
	}},
	{"add", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, task, err := d.AddTask(taskdoc.NewTask{Title: "Write API docs", Content: goldenContent})
		return nd, task, "write-api-docs", err
	}, requireGoldenNewTask},
	{"add-after", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, task, err := d.AddTask(taskdoc.NewTask{Title: "Write API docs", Content: goldenContent, After: goldenSlug})
		return nd, task, "write-api-docs", err
	}, requireGoldenNewTask},
	{"edit", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, task, err := d.EditTask(goldenSlug, taskdoc.Edit{Title: "Sign tokens with RS256", Content: "- Status: blocked\n\nWaiting for the key vault."})
		return nd, task, goldenSlug, err
	}, func(t *testing.T, after *taskdoc.Document) {
		task, err := after.Task("sign-tokens-with-rs256")
		require.NoError(t, err)
		require.Equal(t, taskdoc.StatusBlocked, task.Status)
		require.Equal(t, "Waiting for the key vault.", task.Body)
	}},
	{"remove", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, string, error) {
		nd, err := d.RemoveTask(goldenSlug)
		return nd, nil, goldenSlug, err
	}, func(t *testing.T, after *taskdoc.Document) {
		_, err := after.Task(goldenSlug)
		require.ErrorIs(t, err, taskdoc.ErrTaskNotFound)
	}},
}

const goldenContent = "- Status: pending\n- Workflow: docs-first\n\nDescribe every endpoint.\n\n@/specs/api.md"

func requireGoldenNewTask(t *testing.T, after *taskdoc.Document) {
	task, err := after.Task("write-api-docs")
	require.NoError(t, err)
	require.Equal(t, "Write API docs", task.Title)
	require.Equal(t, taskdoc.StatusPending, task.Status)
	require.Equal(t, []taskdoc.Reference{{Raw: "@/specs/api.md", Path: "/specs/api.md"}}, task.References)
}

// TestGolden runs every edit kind on every testdata/<case>.md and compares
// the result with testdata/<case>.<edit>.golden. A failed edit is
// recorded in the golden file as "error CODE".
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".md")
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, edit := range goldenEdits {
			t.Run(name+"/"+edit.name, func(t *testing.T) {
				doc, err := taskdoc.Parse(src)
				require.NoError(t, err)
				nd, task, slug, err := edit.apply(doc)
				var got []byte
				if err != nil {
					requireTypedError(t, err, nd)
					got = []byte(fmt.Sprintf("error %s\n", taskdoc.CodeOf(err)))
				} else {
					got = nd.Source
					after := assertEditProperty(t, src, nd, task, slug)
					edit.shows(t, after)
				}
				compareGolden(t, filepath.Join("testdata", name+"."+edit.name+".golden"), got)
			})
		}
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing %s; run go test -run TestGolden -update and review it", path)
	}
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "output differs from %s", path)
}
