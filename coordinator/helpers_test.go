package coordinator_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

const (
	activeFile = "coordinator/active.md"
	archiveDir = "archived/coordinator"
)

// fixedNow is the clock of most tests: 2026-11-22 09:30:00 UTC.
var fixedNow = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

// openList opens a workspace in a new temporary root and returns its list
// with the fixed clock.
func openList(t testing.TB, files map[string]string) (*coordinator.List, *workspace.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		filetest.Write(t, root, name, text)
	}
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return coordinator.New(ws, coordinator.WithClock(func() time.Time { return fixedNow })), ws, root
}

// readFile returns the file's text, or "" with ok false when it is missing.
func readFile(t testing.TB, root, name string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if os.IsNotExist(err) {
		return "", false
	}
	require.NoError(t, err)
	return string(data), true
}

func mustRead(t testing.TB, root, name string) string {
	t.Helper()
	text, ok := readFile(t, root, name)
	require.Truef(t, ok, "%s does not exist", name)
	return text
}

// archives lists the *.md files in archived/coordinator, sorted.
func archives(t testing.TB, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(archiveDir)))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") {
			names = append(names, archiveDir+"/"+e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// parseFile parses a file on disk with taskdoc.
func parseFile(t testing.TB, root, name string) *taskdoc.Document {
	t.Helper()
	doc, err := taskdoc.Parse([]byte(mustRead(t, root, name)))
	require.NoError(t, err)
	return doc
}

// statuses maps each task's slug to its status, from the file on disk.
func statuses(t testing.TB, root, name string) map[string]taskdoc.Status {
	t.Helper()
	m := map[string]taskdoc.Status{}
	for _, task := range parseFile(t, root, name).Tasks {
		m[task.Slug] = task.Status
	}
	return m
}

func field(t testing.TB, task taskdoc.Task, key string) string {
	t.Helper()
	v, _ := task.Field(key)
	return v
}

func slugsOf(tasks []taskdoc.Task) []string {
	out := make([]string, len(tasks))
	for i, task := range tasks {
		out[i] = task.Slug
	}
	return out
}

func requireCode(t testing.TB, err error, code taskdoc.Code) *taskdoc.Error {
	t.Helper()
	require.Error(t, err)
	var e *taskdoc.Error
	require.ErrorAsf(t, err, &e, "want a *taskdoc.Error with code %s, got %v", code, err)
	require.Equalf(t, code, e.Code, "error: %v", err)
	require.NotContains(t, e.Error(), string(code), "messages do not repeat the code")
	return e
}

// first is a valid first task: it carries Main-Workflow.
func first(title string) taskdoc.NewTask {
	return taskdoc.NewTask{Title: title, Content: "- Status: pending\n- Main-Workflow: tdd-incremental-orchestration\n\nFirst step."}
}

func plain(title string) taskdoc.NewTask {
	return taskdoc.NewTask{Title: title, Content: "- Status: pending\n\nDo " + title + "."}
}

func withStatus(title string, status taskdoc.Status) taskdoc.NewTask {
	return taskdoc.NewTask{Title: title, Content: "- Status: " + string(status) + "\n\nDo " + title + "."}
}

var bg = context.Background()
