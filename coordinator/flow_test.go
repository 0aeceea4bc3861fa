package coordinator_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Create returns the tasks as they read in the file: a title with leading
// space or Markdown has the slug of the heading written.
func TestCreateReadsBackTitles(t *testing.T) {
	list, _, _ := openList(t, nil)
	created, err := list.Create(bg,
		taskdoc.NewTask{Title: " Lead", Content: "- Main-Workflow: tdd"},
		taskdoc.NewTask{Title: "Fix [bug](https://x.y/1)"})
	require.NoError(t, err)
	assert.Equal(t, []string{"lead", "fix-bug"}, slugsOf(created))
}

// A status filter is read as subagent reads it: space and case do not
// matter.
func TestListTrimsStatuses(t *testing.T) {
	list, _, _ := openList(t, nil)
	_, err := list.Create(bg, first("Lead"), plain("Next"))
	require.NoError(t, err)
	_, err = list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	got, err := list.List(bg, " In_Progress ")
	require.NoError(t, err)
	assert.Equal(t, []string{"lead"}, slugsOf(got))
	_, err = list.List(bg, "someday")
	requireCode(t, err, taskdoc.CodeUnknownStatus)
}

// A Status that is not a known status is refused on create, as subagent
// refuses it, and nothing is written.
func TestCreateRefusesUnknownStatus(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, taskdoc.NewTask{Title: "Lead", Content: "- Status: someday\n- Main-Workflow: tdd"})
	requireCode(t, err, taskdoc.CodeUnknownStatus)
	_, ok := readFile(t, root, activeFile)
	assert.False(t, ok, "a refused create wrote the list")
}

// A workflow that is a symbolic link is an error, as it is for subagent and
// for references, and the list stays as it was.
func TestSymlinkedWorkflowRefused(t *testing.T) {
	list, _, root := openList(t, map[string]string{"workflows/real.md": "# Real\n"})
	require.NoError(t, os.Symlink("real.md", filepath.Join(root, "workflows", "tdd-incremental-orchestration.md")))
	_, err := list.Create(bg, first("Lead"))
	require.NoError(t, err)
	before := mustRead(t, root, activeFile)
	_, err = list.Start(bg, coordinator.StartOptions{})
	requireCode(t, err, taskdoc.CodeSymlink)
	assert.Equal(t, before, mustRead(t, root, activeFile))
}

// A failure to load the next task's context leaves the list as it was, so
// the natural retry completes the same task, once.
func TestCompleteLoadFailureChangesNothing(t *testing.T) {
	list, _, root := openList(t, map[string]string{"docs/elsewhere.md": "# Elsewhere\n"})
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	require.NoError(t, os.Symlink("elsewhere.md", filepath.Join(root, "docs", "spec.md")))
	_, err := list.Create(bg, first("Lead"), taskdoc.NewTask{Title: "Next", Content: "Read @/spec.md first."}, plain("Last"))
	require.NoError(t, err)
	_, err = list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	before := mustRead(t, root, activeFile)

	_, err = list.Complete(bg, "led", coordinator.CompleteOptions{IncludeFullWorkflow: true})
	requireCode(t, err, taskdoc.CodeSymlink)
	assert.Equal(t, before, mustRead(t, root, activeFile), "a failed complete changed the list")

	require.NoError(t, os.Remove(filepath.Join(root, "docs", "spec.md")))
	done, err := list.Complete(bg, "led", coordinator.CompleteOptions{IncludeFullWorkflow: true})
	require.NoError(t, err)
	assert.Equal(t, "lead", done.Task.Slug)
	require.NotNil(t, done.Next)
	assert.Equal(t, "next", done.Next.Task.Slug)
	assert.Equal(t, []string{"@/spec.md"}, done.Next.Missing)
	assert.Equal(t, taskdoc.StatusPending, statuses(t, root, activeFile)["last"])
}

// The zero Option and a nil clock are ignored, as in package subagent.
func TestNilOptionsIgnored(t *testing.T) {
	_, ws, _ := openList(t, nil)
	list := coordinator.New(ws, coordinator.Option{}, coordinator.WithClock(nil))
	_, err := list.Create(bg, first("Lead"), plain("Next"))
	require.NoError(t, err)
	before := time.Now().UTC().Format(time.DateOnly)
	done, err := list.Complete(bg, "led", coordinator.CompleteOptions{})
	require.NoError(t, err)
	assert.Contains(t, []string{before, time.Now().UTC().Format(time.DateOnly)}, done.Date)
}

// Recovery names a new archive by the caller's clock, not the wall clock.
func TestRecoverUsesTheClock(t *testing.T) {
	finished := "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: completed\n- Main-Workflow: tdd\n"
	_, ws, root := openList(t, map[string]string{activeFile: finished})
	when := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	require.NoError(t, coordinator.New(ws, coordinator.WithClock(func() time.Time { return when })).Recover(bg))
	assert.Equal(t, []string{archiveDir + "/active-2030-05-06-070809.md"}, archives(t, root))
}

// Each operation parses the list once at most, however many tasks it
// changes: a clear of N tasks is a chain of edits of one parsed list, and
// complete starts the next task on the document its own edit returned.
// With the workspace's document cache (the default) an operation on a list
// the workspace wrote parses nothing; one written outside it, once.
func TestOneParsePerOperation(t *testing.T) {
	batch := []taskdoc.NewTask{{Title: "New one"}, {Title: "New two", Content: "- Status: pending\n\nBody."}}
	for _, cache := range []bool{false, true} {
		root := t.TempDir()
		filetest.Write(t, root, "workflows/tdd-incremental-orchestration.md", "# TDD\n")
		var opts []workspace.Option
		if !cache {
			opts = append(opts, workspace.WithDocumentCache(0))
		}
		ws, err := workspace.Open(root, opts...)
		require.NoError(t, err)
		defer ws.Close()
		list := coordinator.New(ws, coordinator.WithClock(func() time.Time { return fixedNow }))
		ops := []struct {
			name      string
			op        func() error
			cold, hot int64
		}{
			{"create", func() error { _, err := list.Create(bg, batch...); return err }, 1, 1}, // written outside
			{"start", func() error { _, err := list.Start(bg, coordinator.StartOptions{}); return err }, 1, 0},
			{"complete", func() error { _, err := list.Complete(bg, "done", coordinator.CompleteOptions{}); return err }, 1, 0},
			{"complete with context", func() error {
				_, err := list.Complete(bg, "done", coordinator.CompleteOptions{IncludeFullWorkflow: true})
				return err
			}, 1, 0},
			{"clear", func() error { _, err := list.Clear(bg); return err }, 1, 0},
		}
		filetest.Write(t, root, activeFile, opsList(60, false))
		for _, op := range ops {
			var err error
			docs, _ := parsecount.During(func() { err = op.op() })
			require.NoError(t, err, op.name)
			want := op.cold
			if cache {
				want = op.hot
			}
			assert.Equal(t, want, docs, "%s (cache %v): full parses of the list", op.name, cache)
		}
		tasks, err := list.List(bg, taskdoc.StatusCompleted)
		require.NoError(t, err)
		assert.Empty(t, tasks, "clear removed every completed task")
	}
}

// The coordinator takes the task in progress, else the first pending one:
// a planning, paused, blocked or failed task waits for whoever put it
// there, and a list whose tasks are all completed or skipped is finished.
func TestNextWithEveryStatus(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("Lead"), withStatus("Paused", taskdoc.StatusPaused),
		withStatus("Planning", taskdoc.StatusPlanning), withStatus("Failed", taskdoc.StatusFailed), plain("Open"))
	require.NoError(t, err)
	started, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	assert.Equal(t, "lead", started.Task.Slug)
	done, err := list.Complete(bg, "led", coordinator.CompleteOptions{})
	require.NoError(t, err)
	require.NotNil(t, done.Next)
	assert.Equal(t, "open", done.Next.Task.Slug)
	done, err = list.Complete(bg, "opened", coordinator.CompleteOptions{})
	require.NoError(t, err)
	assert.Nil(t, done.Next)
	assert.Equal(t, []string{"paused", "planning", "failed"}, done.Blocked)

	filetest.Write(t, root, activeFile, "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: completed\n- Main-Workflow: tdd\n\n### B\n\n- Status: skipped\n")
	tasks, err := list.List(bg)
	require.NoError(t, err)
	assert.Empty(t, tasks, "a list of completed and skipped tasks is finished, and archived")
	assert.Len(t, archives(t, root), 1)
}

// A hand-written "- Status:" with no value reads as pending, for List and
// for Start and Complete alike: it does not block the list.
func TestStartBlankStatusReadsAsPending(t *testing.T) {
	list, _, root := openList(t, map[string]string{
		activeFile: "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status:\n- Main-Workflow: tdd\n\nDo a.\n\n### B\n\n- Status: pending\n\nDo b.\n",
	})
	tasks, err := list.List(bg, taskdoc.StatusPending)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, slugsOf(tasks), "List reads a blank Status as pending")

	started, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err, "the first pending task, as List reports it, must start")
	require.Equal(t, "a", started.Task.Slug)
	require.Equal(t, taskdoc.StatusInProgress, statuses(t, root, activeFile)["a"])

	done, err := list.Complete(bg, "did a", coordinator.CompleteOptions{})
	require.NoError(t, err)
	require.Equal(t, "a", done.Task.Slug)
}
