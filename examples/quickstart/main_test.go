package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// buildQuickstart compiles the program once per test, as `go run` would.
func buildQuickstart(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "quickstart")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

func TestQuickstartKeepsRoot(t *testing.T) {
	bin := buildQuickstart(t)
	root := filepath.Join(t.TempDir(), "ws")
	out, err := exec.Command(bin, "-root", root).CombinedOutput()
	require.NoError(t, err, "exit status; output:\n%s", out)
	text := string(out)

	// Scenario 1: the coordinator list ran to its archive.
	assert.NoFileExists(t, filepath.Join(root, "coordinator/active.md"))
	archives, err := filepath.Glob(filepath.Join(root, "archived/coordinator/active-*.md"))
	require.NoError(t, err)
	require.Len(t, archives, 1)
	list := parseFile(t, archives[0])
	assert.Equal(t, []string{"research-authentication-approaches", "implement-chosen-auth-system", "write-integration-tests"}, taskSlugs(list))
	assertAllCompleted(t, list)
	assert.Contains(t, text, "main workflow: tdd-incremental-orchestration")
	assert.Contains(t, text, "every task is completed: the list moved to archived/coordinator/active-")

	// Scenario 2: the subagent tasks, completed in the order chosen.
	doc := parseFile(t, filepath.Join(root, "docs/api/authentication.md"))
	assert.Equal(t, "Authentication", doc.Title())
	assert.Equal(t, []string{"implement-jwt-signing", "add-token-validation", "handle-token-refresh"}, taskSlugs(doc))
	assertAllCompleted(t, doc)
	note, _ := doc.Tasks[2].Field("Note")
	assert.Equal(t, "Refresh endpoint rotates the refresh token on every use", note)
	assert.Less(t, strings.Index(text, "start /api/authentication.md#handle-token-refresh"),
		strings.Index(text, "start /api/authentication.md#add-token-validation"), "ad-hoc order")
	assert.Contains(t, text, "reference /specs/jwt-spec.md")
	assert.Contains(t, text, "reference /specs/security-requirements.md#token-lifetime")
	assert.Contains(t, text, "start /api/authentication.md without #slug: refused, as expected (SUBAGENT_REQUIRES_SLUG: ",
		"the one refused step says it is expected")

	// The workspace is said to be kept, and the final files are printed.
	assert.True(t, strings.HasPrefix(text, "workspace "+root+" (kept after the run)\n"), text)
	assert.NotContains(t, text, "temporary")
	assert.Contains(t, text, "--- docs/api/authentication.md\n# Authentication\n")
	assert.NotContains(t, text, ".taskmd")

	// A second run refuses the used workspace instead of failing halfway.
	out, err = exec.Command(bin, "-root", root).CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "is not empty")
}

func TestQuickstartTemporaryRoot(t *testing.T) {
	bin := buildQuickstart(t)
	out, err := exec.Command(bin).CombinedOutput()
	require.NoError(t, err, "exit status; output:\n%s", out)
	first, _, _ := strings.Cut(string(out), "\n")
	root, ok := strings.CutSuffix(strings.TrimPrefix(first, "workspace "),
		" (a temporary folder, removed at the end; -root DIR keeps the workspace)")
	require.True(t, ok, "the first line says the folder is temporary: %s", first)
	assert.NoDirExists(t, root, "the temporary workspace is removed")
	assert.True(t, strings.HasSuffix(string(out), "\nremoved the temporary workspace "+root+"; run with -root DIR to keep one\n"),
		"the last line says it is gone: %s", out)
}

func parseFile(t *testing.T, name string) *taskdoc.Document {
	t.Helper()
	src, err := os.ReadFile(name)
	require.NoError(t, err)
	doc, err := taskdoc.Parse(src)
	require.NoError(t, err)
	return doc
}

func taskSlugs(doc *taskdoc.Document) []string {
	var out []string
	for _, t := range doc.Tasks {
		out = append(out, t.Slug)
	}
	return out
}

func assertAllCompleted(t *testing.T, doc *taskdoc.Document) {
	t.Helper()
	for _, task := range doc.Tasks {
		assert.Equal(t, taskdoc.StatusCompleted, task.Status, task.Slug)
		_, hasNote := task.Field("Note")
		assert.True(t, hasNote, task.Slug)
	}
}
