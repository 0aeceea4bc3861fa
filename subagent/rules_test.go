package subagent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestStartResumesInProgressTask(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": authDoc})
	before := filetest.Snapshot(t, root)
	started, err := tasks.Start(context.Background(), "/api/auth.md#running")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusInProgress, started.Task.Status)
	assert.Equal(t, "Busy.", started.Task.Body)
	assert.Equal(t, before, filetest.Snapshot(t, root), "a resume writes nothing")
}

func TestStartChangesOnlyTheStatus(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": authDoc})
	_, err := tasks.Start(context.Background(), "/api/auth.md#pending-one")
	require.NoError(t, err)
	want := strings.Replace(authDoc, "### Pending one\n\n- Status: pending", "### Pending one\n\n- Status: in_progress", 1)
	assert.Equal(t, want, filetest.Read(t, root, "docs/api/auth.md"))
}

// Start never hands a subagent the Main-Workflow, even when the task has
// one: it loads the task's Workflow only.
func TestStartNeverLoadsMainWorkflow(t *testing.T) {
	tasks, _ := setup(t, map[string]string{
		"docs/plan.md":               "# Plan\n\n## Tasks\n\n### Build it\n\n- Status: pending\n- Main-Workflow: orchestration\n- Workflow: spec-first\n\nGo.\n\n### Only main\n\n- Main-Workflow: orchestration\n",
		"workflows/orchestration.md": "# Orchestration\n",
		"workflows/spec-first.md":    "# Spec first\n",
	})
	ctx := context.Background()
	started, err := tasks.Start(ctx, "/plan.md#build-it")
	require.NoError(t, err)
	require.NotNil(t, started.Workflow)
	assert.Equal(t, "spec-first", started.Workflow.Name)
	assert.Empty(t, started.Missing)

	started, err = tasks.Start(ctx, "/plan.md#only-main")
	require.NoError(t, err)
	assert.Nil(t, started.Workflow)
	assert.Empty(t, started.Missing)
	assert.Empty(t, started.References)
}

func TestStartReportsMissingWorkflowAndReferences(t *testing.T) {
	tasks, root := setup(t, map[string]string{
		"docs/plan.md":   "# Plan\n\n## Tasks\n\n### Build it\n\n- Workflow: nowhere\n\nSee @/specs/gone.md, @/here.md#no-such-section and @/here.md.\n",
		"docs/here.md":   "# Here\n\nSee @/gone-too.md\n",
		"workflows/x.md": "# X\n",
	})
	started, err := tasks.Start(context.Background(), "/plan.md#build-it")
	require.NoError(t, err, "missing context does not fail a start")
	assert.Nil(t, started.Workflow)
	assert.Equal(t, []string{"nowhere", "@/specs/gone.md", "@/here.md#no-such-section", "@/gone-too.md"}, started.Missing)
	require.Len(t, started.References, 1)
	assert.Equal(t, "/here.md", started.References[0].Path)
	assert.Contains(t, filetest.Read(t, root, "docs/plan.md"), "### Build it\n\n- Status: in_progress\n- Workflow: nowhere\n")
}

// A Workflow value that cannot name a file in workflows/ is reported like a
// missing one and never read.
func TestStartWorkflowNameCannotLeaveWorkflows(t *testing.T) {
	tasks, _ := setup(t, map[string]string{
		"docs/plan.md": "# Plan\n\n## Tasks\n\n### Escape\n\n- Workflow: ../docs/plan\n",
	})
	started, err := tasks.Start(context.Background(), "/plan.md#escape")
	require.NoError(t, err)
	assert.Nil(t, started.Workflow)
	assert.Equal(t, []string{"../docs/plan"}, started.Missing)
}

func TestReferenceDepth(t *testing.T) {
	files := map[string]string{
		"docs/plan.md": "# Plan\n\n## Tasks\n\n### Go\n\n@/a.md\n",
		"docs/a.md":    "# A\n\n@/b.md\n",
		"docs/b.md":    "# B\n\n@/c.md\n",
		"docs/c.md":    "# C\n\n@/d.md\n",
		"docs/d.md":    "# D\n",
	}
	for _, tt := range []struct {
		name  string
		opts  []subagent.Option
		paths []string
	}{
		{"default 3", nil, []string{"/a.md", "/b.md", "/c.md"}},
		{"1", []subagent.Option{subagent.WithReferenceDepth(1)}, []string{"/a.md"}},
		{"0", []subagent.Option{subagent.WithReferenceDepth(0)}, nil},
		{"negative", []subagent.Option{subagent.WithReferenceDepth(-2)}, nil},
		{"10", []subagent.Option{subagent.WithReferenceDepth(10)}, []string{"/a.md", "/b.md", "/c.md", "/d.md"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tasks, _ := setup(t, files, tt.opts...)
			started, err := tasks.Start(context.Background(), "/plan.md#go")
			require.NoError(t, err)
			var got []string
			for level := started.References; len(level) > 0; level = level[0].Children {
				got = append(got, level[0].Path)
				assert.Len(t, level, 1)
			}
			assert.Equal(t, tt.paths, got)
		})
	}
}

func TestCompleteRecordsDateAndNote(t *testing.T) {
	// 23:30 in New York on the 14th is the 15th in UTC.
	newYork := time.FixedZone("EDT", -4*3600)
	late := func() time.Time { return time.Date(2025, 10, 14, 23, 30, 0, 0, newYork) }
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": authDoc}, subagent.WithClock(late))

	done, err := tasks.Complete(context.Background(), "/api/auth.md#running", "  Tokens validated in middleware.\n")
	require.NoError(t, err)
	assert.Equal(t, &subagent.Completed{Document: "/api/auth.md", Task: done.Task, Note: "Tokens validated in middleware.", Date: "2025-10-15"}, done)
	assert.Equal(t, "running", done.Task.Slug)
	assert.Equal(t, taskdoc.StatusCompleted, done.Task.Status)
	want := strings.Replace(authDoc, "- Status: in_progress\n\nBusy.",
		"- Status: completed\n- Completed: 2025-10-15\n- Note: Tokens validated in middleware.\n\nBusy.", 1)
	assert.Equal(t, want, filetest.Read(t, root, "docs/api/auth.md"))
}

// A note is one metadata line: line breaks in it are joined, and the
// confirmation reports the note as recorded.
func TestCompleteJoinsNoteLines(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": authDoc})
	done, err := tasks.Complete(context.Background(), "/api/auth.md#running", "Validated tokens.\nAdded tests.\r\n")
	require.NoError(t, err)
	assert.Equal(t, "Validated tokens. Added tests.", done.Note)
	assert.Contains(t, filetest.Read(t, root, "docs/api/auth.md"), "- Note: Validated tokens. Added tests.\n\nBusy.")
}

// Ad hoc means any order: a pending task can be completed without a start,
// and so can a blocked one that was resolved some other way.
func TestCompleteFromAnyOpenStatus(t *testing.T) {
	tasks, _ := setup(t, map[string]string{"docs/api/auth.md": authDoc})
	ctx := context.Background()
	for _, slug := range []string{"pending-one", "stuck", "running"} {
		done, err := tasks.Complete(ctx, "/api/auth.md#"+slug, "done by hand")
		require.NoError(t, err, slug)
		assert.Equal(t, taskdoc.StatusCompleted, done.Task.Status)
	}
	open, err := tasks.List(ctx, "/api/auth.md", taskdoc.StatusPending, taskdoc.StatusInProgress, taskdoc.StatusBlocked)
	require.NoError(t, err)
	assert.Equal(t, []string{"linked"}, slugs(open))
}

func TestListFiltersByStatus(t *testing.T) {
	tasks, _ := setup(t, map[string]string{"docs/api/auth.md": authDoc})
	ctx := context.Background()
	for _, tt := range []struct {
		statuses []taskdoc.Status
		want     []string
	}{
		{nil, availableAuth},
		{[]taskdoc.Status{taskdoc.StatusPending}, []string{"pending-one", "linked"}},
		{[]taskdoc.Status{"In_Progress"}, []string{"running"}},
		{[]taskdoc.Status{" completed ", taskdoc.StatusBlocked}, []string{"done", "stuck"}},
	} {
		got, err := tasks.List(ctx, "/api/auth.md", tt.statuses...)
		require.NoError(t, err)
		assert.Equal(t, tt.want, slugs(got), "%v", tt.statuses)
	}

	tasks, _ = setup(t, map[string]string{"docs/empty.md": "# Empty\n\nNo tasks here.\n"})
	got, err := tasks.List(ctx, "/empty.md")
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestViewReturnsTasksInTheOrderAsked(t *testing.T) {
	tasks, _ := setup(t, map[string]string{"docs/api/auth.md": authDoc})
	ctx := context.Background()
	got, err := tasks.View(ctx, "/api/auth.md", "stuck", "pending-one")
	require.NoError(t, err)
	require.Equal(t, []string{"stuck", "pending-one"}, slugs(got))
	assert.Equal(t, "Needs a key.", got[0].Body)
	assert.Equal(t, "- Status: blocked\n\nNeeds a key.", got[0].Content())

	all, err := tasks.View(ctx, "/api/auth.md")
	require.NoError(t, err)
	assert.Equal(t, availableAuth, slugs(all))
}

func TestCreate(t *testing.T) {
	ctx := context.Background()
	t.Run("a new document in new folders", func(t *testing.T) {
		tasks, root := setup(t, nil)
		created, err := tasks.Create(ctx, "/api/v2/user-management.md", taskdoc.NewTask{Title: "List users"})
		require.NoError(t, err)
		assert.Equal(t, []string{"list-users"}, slugs(created))
		assert.Equal(t, taskdoc.StatusPending, created[0].Status)
		doc := filetest.Read(t, root, "docs/api/v2/user-management.md")
		assert.True(t, strings.HasPrefix(doc, "# User Management\n\n## Tasks\n\n### List users\n"), doc)
	})
	t.Run("a document without a Tasks section keeps its text", func(t *testing.T) {
		const text = "# Notes\n\nSome prose.\n\n## Links\n\n- one\n"
		tasks, root := setup(t, map[string]string{"docs/notes.md": text})
		_, err := tasks.Create(ctx, "/notes.md", taskdoc.NewTask{Title: "Tidy up", Content: "- Status: pending\n\nSoon."})
		require.NoError(t, err)
		doc := filetest.Read(t, root, "docs/notes.md")
		assert.True(t, strings.HasPrefix(doc, text), doc)
		assert.Contains(t, doc[len(text):], "## Tasks\n\n### Tidy up\n\n- Status: pending\n\nSoon.\n")
	})
	t.Run("after a given task", func(t *testing.T) {
		tasks, _ := setup(t, map[string]string{"docs/api/auth.md": authDoc})
		created, err := tasks.Create(ctx, "/api/auth.md",
			taskdoc.NewTask{Title: "First insert", After: "pending-one"},
			taskdoc.NewTask{Title: "Second insert", After: "first-insert"})
		require.NoError(t, err)
		assert.Equal(t, []string{"first-insert", "second-insert"}, slugs(created))
		all, err := tasks.List(ctx, "/api/auth.md")
		require.NoError(t, err)
		assert.Equal(t, []string{"pending-one", "first-insert", "second-insert", "running", "done", "stuck", "linked"}, slugs(all))
	})
}

func TestEdit(t *testing.T) {
	ctx := context.Background()
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": authDoc})

	edited, err := tasks.Edit(ctx, "/api/auth.md#pending-one", taskdoc.Edit{Title: "Rotate keys"})
	require.NoError(t, err)
	assert.Equal(t, "rotate-keys", edited.Slug)
	assert.Equal(t, "Waiting.", edited.Body)
	want := strings.Replace(authDoc, "### Pending one\n", "### Rotate keys\n", 1)
	assert.Equal(t, want, filetest.Read(t, root, "docs/api/auth.md"))

	edited, err = tasks.Edit(ctx, "/api/auth.md#rotate-keys", taskdoc.Edit{Content: "- Status: blocked\n- Workflow: spec-first\n\nWaiting for the vault."})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusBlocked, edited.Status)
	wf, _ := edited.Field("workflow")
	assert.Equal(t, "spec-first", wf)
	want = strings.Replace(want, "- Status: pending\n\nWaiting.", "- Status: blocked\n- Workflow: spec-first\n\nWaiting for the vault.", 1)
	assert.Equal(t, want, filetest.Read(t, root, "docs/api/auth.md"))

	// A completed task may be reopened by an edit that asks to; only
	// completing needs Complete. Without Reopen, an edit (a writer holding
	// content read before the completion) cannot undo it.
	_, err = tasks.Edit(ctx, "/api/auth.md#done", taskdoc.Edit{Content: "- Status: pending\n\nAgain."})
	require.ErrorIs(t, err, taskdoc.ErrInvalidTransition)
	edited, err = tasks.Edit(ctx, "/api/auth.md#done", taskdoc.Edit{Content: "- Status: pending\n\nAgain.", Reopen: true})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPending, edited.Status)
}

// Error values carry the caller's address, and their messages name it.
func TestErrorNamesTheAddress(t *testing.T) {
	tasks, _ := setup(t, map[string]string{"docs/api/auth.md": authDoc})
	_, err := tasks.Start(context.Background(), "/api/auth.md#nope")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/api/auth.md")
	assert.Contains(t, err.Error(), "nope")

	_, err = tasks.Start(context.Background(), "/api/missing.md#x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/api/missing.md")
}

// A person may write two tasks with the same title by hand. The other
// tasks keep working; the ambiguous slug is DUPLICATE_TASK and changes
// nothing.
func TestHandWrittenDuplicateTitles(t *testing.T) {
	const text = "# Dup\n\n## Tasks\n\n### Same\n\nOne.\n\n### Same\n\nTwo.\n\n### Other\n\nThree.\n"
	tasks, root := setup(t, map[string]string{"docs/dup.md": text})
	ctx := context.Background()

	_, err := tasks.Start(ctx, "/dup.md#same")
	assert.ErrorIs(t, err, taskdoc.ErrDuplicateTask)
	_, err = tasks.Complete(ctx, "/dup.md#same", "n")
	assert.ErrorIs(t, err, taskdoc.ErrDuplicateTask)
	assert.Equal(t, text, filetest.Read(t, root, "docs/dup.md"))

	_, err = tasks.Start(ctx, "/dup.md#other")
	require.NoError(t, err)
	all, err := tasks.List(ctx, "/dup.md")
	require.NoError(t, err)
	assert.Len(t, all, 3)
}
