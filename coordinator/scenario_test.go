package coordinator_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const (
	mainWorkflowText = "# TDD incremental orchestration\n\nRed, green, refactor; one slice at a time.\n"
	researchText     = "# Multi-option trade-off\n\nList options, score them, pick one.\n"
	reviewText       = "# Code review, issue based\n\nFile one issue per finding.\n"
	securityText     = "# Security requirements\n\nTokens expire after 15 minutes.\n"
)

// scenarioFiles is the workspace of the protocol's first scenario.
func scenarioFiles() map[string]string {
	return map[string]string{
		"workflows/tdd-incremental-orchestration.md": mainWorkflowText,
		"workflows/multi-option-tradeoff.md":         researchText,
		"workflows/code-review-issue-based.md":       reviewText,
		"docs/specs/security-requirements.md":        securityText,
	}
}

// scenarioTasks are the three tasks of the protocol's first scenario.
func scenarioTasks() []taskdoc.NewTask {
	return []taskdoc.NewTask{
		{Title: "Research authentication approaches", Content: "- Status: pending\n- Main-Workflow: tdd-incremental-orchestration\n- Workflow: multi-option-tradeoff\n\nCompare JWT vs session-based auth\n\n@/specs/security-requirements.md"},
		{Title: "Implement chosen auth system", Content: "- Status: pending\n\nBuild authentication system based on research"},
		{Title: "Write integration tests", Content: "- Status: pending\n- Workflow: code-review-issue-based\n\nEnsure auth system works end-to-end"},
	}
}

const (
	slug1 = "research-authentication-approaches"
	slug2 = "implement-chosen-auth-system"
	slug3 = "write-integration-tests"
	note1 = "Decided on JWT with refresh tokens. Created spec document."
	note2 = "Auth system implemented with all tests passing"
	note3 = "Integration tests complete. Feature ready for review."
)

// TestScenarioCoordinator walks the protocol's first scenario step by step and
// checks the files on disk after each step.
func TestScenarioCoordinator(t *testing.T) {
	list, _, root := openList(t, scenarioFiles())
	steps := []struct {
		name string
		run  func(t *testing.T, list *coordinator.List, root string)
	}{
		{"create", scenarioCreate},
		{"start", scenarioStart},
		{"resume", scenarioResume},
		{"complete first", scenarioCompleteFirst},
		{"complete second", scenarioCompleteSecond},
		{"complete last", scenarioCompleteLast},
		{"next list", scenarioNextList},
	}
	for _, step := range steps {
		if !t.Run(step.name, func(t *testing.T) { step.run(t, list, root) }) {
			return // later steps build on this one
		}
	}
}

// scenarioCreate: active.md appears with its head and three pending tasks.
func scenarioCreate(t *testing.T, list *coordinator.List, root string) {
	created, err := list.Create(bg, scenarioTasks()...)
	require.NoError(t, err)
	assert.Equal(t, []string{slug1, slug2, slug3}, slugsOf(created))
	text := mustRead(t, root, activeFile)
	assert.True(t, strings.HasPrefix(text, "# Coordinator Tasks\n\nSequential coordinator task list. Auto-archives when all tasks complete.\n\n## Tasks\n"), text)
	assert.Equal(t, map[string]taskdoc.Status{slug1: "pending", slug2: "pending", slug3: "pending"}, statuses(t, root, activeFile))
}

// scenarioStart: the first task, in progress, with Main-Workflow, its
// Workflow and its reference.
func scenarioStart(t *testing.T, list *coordinator.List, root string) {
	st, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	assert.Equal(t, slug1, st.Task.Slug)
	assert.Equal(t, taskdoc.StatusInProgress, st.Task.Status)
	require.NotNil(t, st.MainWorkflow, "first start carries Main-Workflow")
	assert.Equal(t, "tdd-incremental-orchestration", st.MainWorkflow.Name)
	assert.Equal(t, mainWorkflowText, st.MainWorkflow.Content)
	require.NotNil(t, st.Workflow)
	assert.Equal(t, researchText, st.Workflow.Content)
	require.Len(t, st.References, 1)
	assert.Equal(t, "/specs/security-requirements.md", st.References[0].Path)
	assert.Contains(t, st.References[0].Content, "15 minutes")
	assert.Empty(t, st.Missing)
	assert.Equal(t, map[string]taskdoc.Status{slug1: "in_progress", slug2: "pending", slug3: "pending"}, statuses(t, root, activeFile))
}

// scenarioResume: starting again returns the same task; Main-Workflow only
// with FullContext (after a compression). Nothing is written.
func scenarioResume(t *testing.T, list *coordinator.List, root string) {
	before := mustRead(t, root, activeFile)
	again, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	assert.Equal(t, slug1, again.Task.Slug)
	assert.Nil(t, again.MainWorkflow)

	resumed, err := list.Start(bg, coordinator.StartOptions{FullContext: true})
	require.NoError(t, err)
	assert.Equal(t, slug1, resumed.Task.Slug)
	require.NotNil(t, resumed.MainWorkflow)
	assert.Equal(t, mainWorkflowText, resumed.MainWorkflow.Content)
	require.NotNil(t, resumed.Workflow)
	assert.Equal(t, before, mustRead(t, root, activeFile), "resuming writes nothing")
}

// scenarioCompleteFirst: the first task gets its note, the second comes back
// in progress, without Main-Workflow.
func scenarioCompleteFirst(t *testing.T, list *coordinator.List, root string) {
	done, err := list.Complete(bg, note1, coordinator.CompleteOptions{})
	require.NoError(t, err)
	assert.Equal(t, slug1, done.Task.Slug)
	assert.Equal(t, taskdoc.StatusCompleted, done.Task.Status)
	assert.Equal(t, note1, done.Note)
	assert.Equal(t, "2026-11-22", done.Date)
	assert.Empty(t, done.ArchivedTo)
	require.NotNil(t, done.Next)
	assert.Equal(t, slug2, done.Next.Task.Slug)
	assert.Equal(t, taskdoc.StatusInProgress, done.Next.Task.Status)
	assert.Nil(t, done.Next.MainWorkflow)
	doc := parseFile(t, root, activeFile)
	assert.Equal(t, note1, field(t, doc.Tasks[0], "Note"))
	assert.Equal(t, "2026-11-22", field(t, doc.Tasks[0], "Completed"))
	assert.Equal(t, map[string]taskdoc.Status{slug1: "completed", slug2: "in_progress", slug3: "pending"}, statuses(t, root, activeFile))
}

// scenarioCompleteSecond: the third task comes back, with its Workflow
// because the caller asks for it.
func scenarioCompleteSecond(t *testing.T, list *coordinator.List, root string) {
	done, err := list.Complete(bg, note2, coordinator.CompleteOptions{IncludeFullWorkflow: true})
	require.NoError(t, err)
	require.NotNil(t, done.Next)
	assert.Equal(t, slug3, done.Next.Task.Slug)
	assert.Nil(t, done.Next.MainWorkflow)
	require.NotNil(t, done.Next.Workflow)
	assert.Equal(t, reviewText, done.Next.Workflow.Content)
	assert.Equal(t, map[string]taskdoc.Status{slug1: "completed", slug2: "completed", slug3: "in_progress"}, statuses(t, root, activeFile))
}

// scenarioCompleteLast: the list is archived with every note, and
// active.md is gone.
func scenarioCompleteLast(t *testing.T, list *coordinator.List, root string) {
	done, err := list.Complete(bg, note3, coordinator.CompleteOptions{})
	require.NoError(t, err)
	assert.Nil(t, done.Next)
	assert.Equal(t, "archived/coordinator/active-2026-11-22-093000.md", done.ArchivedTo)
	_, exists := readFile(t, root, activeFile)
	assert.False(t, exists, "active.md is gone")
	assert.Equal(t, []string{done.ArchivedTo}, archives(t, root))
	archived := parseFile(t, root, done.ArchivedTo)
	require.Len(t, archived.Tasks, 3)
	for i, note := range []string{note1, note2, note3} {
		assert.Equal(t, taskdoc.StatusCompleted, archived.Tasks[i].Status)
		assert.Equal(t, note, field(t, archived.Tasks[i], "Note"))
	}
}

// scenarioNextList: nothing to start, and the next create starts afresh,
// with the first-task rule and a first start of its own.
func scenarioNextList(t *testing.T, list *coordinator.List, root string) {
	_, err := list.Start(bg, coordinator.StartOptions{})
	requireCode(t, err, taskdoc.CodeNoAvailableTasks)
	_, err = list.Create(bg, plain("Next feature"))
	requireCode(t, err, taskdoc.CodeMainWorkflowRequired)
	_, err = list.Create(bg, first("Next feature"))
	require.NoError(t, err)
	assert.Equal(t, map[string]taskdoc.Status{"next-feature": "pending"}, statuses(t, root, activeFile))
	st, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	assert.NotNil(t, st.MainWorkflow, "a fresh list has a first start again")
}

// TestArchivedGolden runs a hand-written list (bullets of three kinds, a
// lower-case key, a code fence with a '#' line, a level-4 heading inside a
// task, a section after Tasks, a task already in progress) through to its
// archive. testdata/archived.golden is written by hand: every byte outside
// the status, Completed and Note lines is the input's.
func TestArchivedGolden(t *testing.T) {
	input, err := os.ReadFile(filepath.Join("testdata", "active.md"))
	require.NoError(t, err)
	list, _, root := openList(t, map[string]string{activeFile: string(input)})

	st, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	assert.Equal(t, slug3, st.Task.Slug, "the task in progress comes first")
	assert.Nil(t, st.MainWorkflow, "a task was in progress: not the first start")
	var archivedTo string
	for _, note := range []string{"Integration tests complete.", "Decided on JWT with refresh tokens.", "Auth system implemented."} {
		done, err := list.Complete(bg, note, coordinator.CompleteOptions{})
		require.NoError(t, err)
		archivedTo = done.ArchivedTo
	}
	require.Equal(t, "archived/coordinator/active-2026-11-22-093000.md", archivedTo)
	checkGolden(t, "archived.golden", mustRead(t, root, archivedTo))
}

// checkGolden compares got with testdata/name; -update rewrites the file,
// which must then be reviewed by hand.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(p, []byte(got), 0o644))
	}
	want, err := os.ReadFile(p)
	require.NoError(t, err, "run go test -update once and review the file")
	assert.Equal(t, string(want), got)
}
