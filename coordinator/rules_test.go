package coordinator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestCreateRefusals checks that every refused Create leaves the disk as it
// was, whether or not a list existed.
func TestCreateRefusals(t *testing.T) {
	tests := []struct {
		name     string
		existing []taskdoc.NewTask // created first, when any
		create   []taskdoc.NewTask
		code     taskdoc.Code
	}{
		{"first task without Main-Workflow", nil, []taskdoc.NewTask{plain("a")}, taskdoc.CodeMainWorkflowRequired},
		{"first task with an empty Main-Workflow", nil,
			[]taskdoc.NewTask{{Title: "a", Content: "- Status: pending\n- Main-Workflow:\n\nx"}}, taskdoc.CodeMainWorkflowRequired},
		{"Main-Workflow only on the second task", nil, []taskdoc.NewTask{plain("a"), first("b")}, taskdoc.CodeMainWorkflowRequired},
		{"no tasks", nil, nil, taskdoc.CodeInvalidTask},
		{"empty title", nil, []taskdoc.NewTask{{Title: "", Content: "- Main-Workflow: x"}}, taskdoc.CodeInvalidTask},
		{"created completed", nil, []taskdoc.NewTask{first("a"), withStatus("b", taskdoc.StatusCompleted)}, taskdoc.CodeInvalidTask},
		{"duplicate within the batch", nil, []taskdoc.NewTask{first("a"), plain("b"), plain("b")}, taskdoc.CodeDuplicateTask},
		{"duplicate of an existing task", []taskdoc.NewTask{first("a")}, []taskdoc.NewTask{plain("c"), plain("a")}, taskdoc.CodeDuplicateTask},
		{"after an unknown task", []taskdoc.NewTask{first("a")}, []taskdoc.NewTask{{Title: "c", After: "nope"}}, taskdoc.CodeTaskNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, _, root := openList(t, nil)
			if tt.existing != nil {
				_, err := list.Create(bg, tt.existing...)
				require.NoError(t, err)
			}
			before, existed := readFile(t, root, activeFile)
			_, err := list.Create(bg, tt.create...)
			requireCode(t, err, tt.code)
			after, exists := readFile(t, root, activeFile)
			assert.Equal(t, existed, exists)
			assert.Equal(t, before, after, "nothing written")
		})
	}
}

func TestCreateAppendsAndInserts(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("a"), plain("c"))
	require.NoError(t, err)
	created, err := list.Create(bg, plain("d"), taskdoc.NewTask{Title: "b", Content: "- Status: pending", After: "a"})
	require.NoError(t, err)
	assert.Equal(t, []string{"d", "b"}, slugsOf(created))
	assert.Equal(t, []string{"a", "b", "c", "d"}, slugsOf(parseFile(t, root, activeFile).Tasks))
}

func TestEdit(t *testing.T) {
	tests := []struct {
		name string
		slug string
		edit taskdoc.Edit
		code taskdoc.Code // "" for success
		want string       // slug after the edit
	}{
		{"retitle", "b", taskdoc.Edit{Title: "Bee"}, "", "bee"},
		{"new content", "b", taskdoc.Edit{Content: "- Status: blocked\n\nWaiting for keys."}, "", "b"},
		{"first task keeps Main-Workflow", "a", taskdoc.Edit{Content: "- Status: pending\n- Main-Workflow: manual-verification-orchestration"}, "", "a"},
		{"slug with #", "#b", taskdoc.Edit{Title: "x"}, taskdoc.CodeNoSlugAllowed, ""},
		{"address", "/coordinator/active.md#b", taskdoc.Edit{Title: "x"}, taskdoc.CodeNoSlugAllowed, ""},
		{"unknown slug", "zzz", taskdoc.Edit{Title: "x"}, taskdoc.CodeTaskNotFound, ""},
		{"first task loses Main-Workflow", "a", taskdoc.Edit{Content: "- Status: pending\n\nNo method."}, taskdoc.CodeMainWorkflowRequired, ""},
		{"first task retitled keeps Main-Workflow", "a", taskdoc.Edit{Title: "Alpha"}, "", "alpha"},
		{"first task retitled, loses Main-Workflow", "a", taskdoc.Edit{Title: "Alpha", Content: "- Status: pending"}, taskdoc.CodeMainWorkflowRequired, ""},
		{"first task's Main-Workflow blanked", "a", taskdoc.Edit{Content: "- Status: pending\n- Main-Workflow:  "}, taskdoc.CodeMainWorkflowRequired, ""},
		{"second task without Main-Workflow", "b", taskdoc.Edit{Content: "- Status: pending\n\nPlain."}, "", "b"},
		{"completing by edit", "b", taskdoc.Edit{Content: "- Status: completed"}, taskdoc.CodeInvalidTransition, ""},
		{"duplicate title", "b", taskdoc.Edit{Title: "a"}, taskdoc.CodeDuplicateTask, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, _, root := openList(t, nil)
			_, err := list.Create(bg, first("a"), plain("b"))
			require.NoError(t, err)
			before := mustRead(t, root, activeFile)
			task, err := list.Edit(bg, tt.slug, tt.edit)
			if tt.code != "" {
				e := requireCode(t, err, tt.code)
				if tt.code == taskdoc.CodeTaskNotFound {
					assert.Equal(t, []string{"a", "b"}, e.Available)
				}
				assert.Equal(t, before, mustRead(t, root, activeFile), "nothing written")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, task.Slug)
			onDisk, err := parseFile(t, root, activeFile).Task(tt.want)
			require.NoError(t, err)
			assert.Equal(t, onDisk.Content(), task.Content())
		})
	}
}

func TestEditWithoutList(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Edit(bg, "a", taskdoc.Edit{Title: "b"})
	requireCode(t, err, taskdoc.CodeTaskNotFound)
	_, exists := readFile(t, root, activeFile)
	assert.False(t, exists)
}

func TestListAndView(t *testing.T) {
	list, _, _ := openList(t, nil)
	empty, err := list.List(bg)
	require.NoError(t, err)
	assert.Empty(t, empty, "no list is an empty list")

	_, err = list.Create(bg, first("a"), plain("b"), withStatus("c", taskdoc.StatusBlocked), plain("d"))
	require.NoError(t, err)
	_, err = list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)

	tests := []struct {
		statuses []taskdoc.Status
		want     []string
	}{
		{nil, []string{"a", "b", "c", "d"}},
		{[]taskdoc.Status{taskdoc.StatusPending}, []string{"b", "d"}},
		{[]taskdoc.Status{taskdoc.StatusInProgress, taskdoc.StatusBlocked}, []string{"a", "c"}},
		{[]taskdoc.Status{taskdoc.StatusCompleted}, []string{}},
	}
	for _, tt := range tests {
		got, err := list.List(bg, tt.statuses...)
		require.NoError(t, err)
		assert.Equal(t, tt.want, append([]string{}, slugsOf(got)...), "statuses %v", tt.statuses)
	}
	_, err = list.List(bg, "finished")
	requireCode(t, err, taskdoc.CodeUnknownStatus)

	viewed, err := list.View(bg, "d", "a")
	require.NoError(t, err)
	assert.Equal(t, []string{"d", "a"}, slugsOf(viewed))
	assert.Contains(t, viewed[0].Body, "Do d.")
	all, err := list.View(bg)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c", "d"}, slugsOf(all))
	_, err = list.View(bg, "a#b")
	requireCode(t, err, taskdoc.CodeNoSlugAllowed)
	e := requireCode(t, func() error { _, err := list.View(bg, "zzz"); return err }(), taskdoc.CodeTaskNotFound)
	assert.Equal(t, []string{"a", "b", "c", "d"}, e.Available)
}

func TestCompleteNoteRequired(t *testing.T) {
	for _, note := range []string{"", "   ", "\n\t\n"} {
		list, _, root := openList(t, nil)
		_, err := list.Create(bg, first("a"))
		require.NoError(t, err)
		before := mustRead(t, root, activeFile)
		_, err = list.Complete(bg, note, coordinator.CompleteOptions{})
		requireCode(t, err, taskdoc.CodeNoteRequired)
		assert.Equal(t, taskdoc.CodeNoteRequired, taskdoc.CodeOf(err))
		assert.Equal(t, before, mustRead(t, root, activeFile))
	}
}

func TestNothingToDo(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Start(bg, coordinator.StartOptions{})
	requireCode(t, err, taskdoc.CodeNoAvailableTasks)
	_, err = list.Complete(bg, "done", coordinator.CompleteOptions{})
	requireCode(t, err, taskdoc.CodeNoAvailableTasks)
	removed, err := list.Clear(bg)
	require.NoError(t, err)
	assert.Zero(t, removed)
	_, exists := readFile(t, root, activeFile)
	assert.False(t, exists, "reading operations never create the list")
}

// TestBlockedTasksAreSkipped: start and complete pass over blocked tasks and
// name them when nothing else is left.
func TestBlockedTasksAreSkipped(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("a"), withStatus("b", taskdoc.StatusBlocked), plain("c"), withStatus("d", taskdoc.StatusBlocked))
	require.NoError(t, err)

	st, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	assert.Equal(t, "a", st.Task.Slug)
	done, err := list.Complete(bg, "a done", coordinator.CompleteOptions{})
	require.NoError(t, err)
	require.NotNil(t, done.Next)
	assert.Equal(t, "c", done.Next.Task.Slug, "b is blocked")

	done, err = list.Complete(bg, "c done", coordinator.CompleteOptions{})
	require.NoError(t, err)
	assert.Nil(t, done.Next)
	assert.Empty(t, done.ArchivedTo, "blocked tasks keep the list alive")
	assert.Equal(t, []string{"b", "d"}, done.Blocked)
	assert.Equal(t, map[string]taskdoc.Status{"a": "completed", "b": "blocked", "c": "completed", "d": "blocked"}, statuses(t, root, activeFile))

	before := mustRead(t, root, activeFile)
	_, err = list.Start(bg, coordinator.StartOptions{})
	e := requireCode(t, err, taskdoc.CodeNoAvailableTasks)
	assert.Equal(t, []string{"b", "d"}, e.Available)
	assert.Contains(t, e.Error(), `"b"`)
	assert.Contains(t, e.Error(), `"d"`)
	_, err = list.Complete(bg, "more", coordinator.CompleteOptions{})
	requireCode(t, err, taskdoc.CodeNoAvailableTasks)
	assert.Equal(t, before, mustRead(t, root, activeFile))

	// Unblocking by edit makes the task available again.
	_, err = list.Edit(bg, "d", taskdoc.Edit{Content: "- Status: pending\n\nDo d."})
	require.NoError(t, err)
	st, err = list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err)
	assert.Equal(t, "d", st.Task.Slug)
	assert.Nil(t, st.MainWorkflow, "not the list's first start")
}

// TestCompleteWithoutStart completes the task Start would have returned.
func TestCompleteWithoutStart(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("a"), plain("b"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "did it", coordinator.CompleteOptions{})
	require.NoError(t, err)
	assert.Equal(t, "a", done.Task.Slug)
	require.NotNil(t, done.Next)
	assert.Equal(t, "b", done.Next.Task.Slug)
	assert.Equal(t, map[string]taskdoc.Status{"a": "completed", "b": "in_progress"}, statuses(t, root, activeFile))
}

func TestMissingWorkflowsAndReferences(t *testing.T) {
	list, _, root := openList(t, map[string]string{"docs/there.md": "# There\n\nok\n"})
	_, err := list.Create(bg, taskdoc.NewTask{Title: "a", Content: "- Status: pending\n- Main-Workflow: gone-main\n- Workflow: gone\n\n@/missing.md and @/there.md"})
	require.NoError(t, err)
	st, err := list.Start(bg, coordinator.StartOptions{})
	require.NoError(t, err, "missing context does not stop a start")
	assert.Nil(t, st.MainWorkflow)
	assert.Nil(t, st.Workflow)
	assert.ElementsMatch(t, []string{"gone-main", "gone", "@/missing.md"}, st.Missing)
	require.Len(t, st.References, 1)
	assert.Equal(t, "/there.md", st.References[0].Path)
	assert.Equal(t, taskdoc.StatusInProgress, statuses(t, root, activeFile)["a"])
}

func TestReferenceDepth(t *testing.T) {
	files := map[string]string{
		"docs/one.md": "# One\n\nsee @/two.md\n",
		"docs/two.md": "# Two\n\nend\n",
	}
	for _, tt := range []struct {
		depth, refs, children int
	}{{0, 0, 0}, {1, 1, 0}, {3, 1, 1}} {
		_, ws, _ := openList(t, files)
		list := coordinator.New(ws, coordinator.WithReferenceDepth(tt.depth))
		_, err := list.Create(bg, taskdoc.NewTask{Title: "a", Content: "- Main-Workflow: m\n\n@/one.md"})
		require.NoError(t, err)
		st, err := list.Start(bg, coordinator.StartOptions{})
		require.NoError(t, err)
		require.Len(t, st.References, tt.refs, "depth %d", tt.depth)
		if tt.refs > 0 {
			assert.Len(t, st.References[0].Children, tt.children, "depth %d", tt.depth)
		}
	}
}

// TestClear removes completed tasks and moves Main-Workflow off a removed
// first task.
func TestClear(t *testing.T) {
	list, _, root := openList(t, map[string]string{"workflows/tdd-incremental-orchestration.md": mainWorkflowText})
	_, err := list.Create(bg, first("a"), plain("b"), plain("c"), plain("d"))
	require.NoError(t, err)
	for _, note := range []string{"a done", "b done"} {
		_, err = list.Complete(bg, note, coordinator.CompleteOptions{})
		require.NoError(t, err)
	}
	removed, err := list.Clear(bg)
	require.NoError(t, err)
	assert.Equal(t, 2, removed)
	doc := parseFile(t, root, activeFile)
	assert.Equal(t, []string{"c", "d"}, slugsOf(doc.Tasks))
	assert.Equal(t, "tdd-incremental-orchestration", field(t, doc.Tasks[0], taskdoc.KeyMainWorkflow))
	assert.Equal(t, taskdoc.StatusInProgress, doc.Tasks[0].Status)

	before := mustRead(t, root, activeFile)
	removed, err = list.Clear(bg)
	require.NoError(t, err)
	assert.Zero(t, removed)
	assert.Equal(t, before, mustRead(t, root, activeFile), "nothing to clear writes nothing")

	st, err := list.Start(bg, coordinator.StartOptions{FullContext: true})
	require.NoError(t, err)
	require.NotNil(t, st.MainWorkflow, "the moved Main-Workflow is still found")
}

func TestClearKeepsOwnMainWorkflow(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("a"), taskdoc.NewTask{Title: "b", Content: "- Status: pending\n- Main-Workflow: other"})
	require.NoError(t, err)
	_, err = list.Complete(bg, "a done", coordinator.CompleteOptions{})
	require.NoError(t, err)
	_, err = list.Clear(bg)
	require.NoError(t, err)
	doc := parseFile(t, root, activeFile)
	require.Len(t, doc.Tasks, 1)
	assert.Equal(t, "other", field(t, doc.Tasks[0], taskdoc.KeyMainWorkflow))
}

func TestCheckSequential(t *testing.T) {
	for _, tt := range []struct {
		address string
		ok      bool
	}{
		{"", true},
		{"/coordinator/active.md", true},
		{"/coordinator/active.md#a", false},
		{"#a", false},
	} {
		err := coordinator.CheckSequential(tt.address)
		if tt.ok {
			assert.NoError(t, err, tt.address)
			continue
		}
		requireCode(t, err, taskdoc.CodeNoSlugAllowed)
		assert.Equal(t, taskdoc.CodeNoSlugAllowed, taskdoc.CodeOf(err))
	}
}

// TestRecoverBeforeEachOperation: a list left with every task completed (a
// crash before its archive) is archived by the next operation, once.
func TestRecoverBeforeEachOperation(t *testing.T) {
	finished := "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: completed\n- Main-Workflow: m\n- Completed: 2026-11-21\n- Note: done\n"
	t.Run("no archive yet", func(t *testing.T) {
		list, _, root := openList(t, map[string]string{activeFile: finished})
		tasks, err := list.List(bg)
		require.NoError(t, err)
		assert.Empty(t, tasks)
		_, exists := readFile(t, root, activeFile)
		assert.False(t, exists)
		names := archives(t, root)
		require.Equal(t, []string{"archived/coordinator/active-2026-11-22-093000.md"}, names)
		assert.Equal(t, finished, mustRead(t, root, names[0]))
	})
	t.Run("archive copy already made", func(t *testing.T) {
		copyName := "archived/coordinator/active-2026-11-21-170000.md"
		list, _, root := openList(t, map[string]string{activeFile: finished, copyName: finished})
		_, err := list.Create(bg, first("fresh"))
		require.NoError(t, err)
		assert.Equal(t, []string{copyName}, archives(t, root), "no second copy")
		assert.Equal(t, []string{"fresh"}, slugsOf(parseFile(t, root, activeFile).Tasks))
	})
}

func TestCanceledContext(t *testing.T) {
	list, _, root := openList(t, nil)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := list.Create(ctx, first("a"))
	require.Error(t, err)
	_, exists := readFile(t, root, activeFile)
	assert.False(t, exists)
}

// TestListBrokenByHand: a list whose first task lost Main-Workflow outside
// the library can still be changed and repaired.
func TestListBrokenByHand(t *testing.T) {
	broken := "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: pending\n\n### b\n\n- Status: pending\n"
	list, _, root := openList(t, map[string]string{activeFile: broken})
	_, err := list.Create(bg, plain("c"))
	require.NoError(t, err)
	_, err = list.Edit(bg, "b", taskdoc.Edit{Title: "Bee"})
	require.NoError(t, err)
	_, err = list.Edit(bg, "a", taskdoc.Edit{Content: "- Status: pending\n- Main-Workflow: tdd-incremental-orchestration"})
	require.NoError(t, err)
	assert.Equal(t, "tdd-incremental-orchestration", field(t, parseFile(t, root, activeFile).Tasks[0], taskdoc.KeyMainWorkflow))
	_, err = list.Edit(bg, "a", taskdoc.Edit{Content: "- Status: pending"})
	requireCode(t, err, taskdoc.CodeMainWorkflowRequired)
}

// TestCompleteReportsTheStoredNote: the note is stored on one line, and
// Completed reports it as stored.
func TestCompleteReportsTheStoredNote(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("a"), plain("b"))
	require.NoError(t, err)
	done, err := list.Complete(bg, "  first line\nsecond line  ", coordinator.CompleteOptions{})
	require.NoError(t, err)
	assert.Equal(t, "first line second line", done.Note)
	assert.Equal(t, done.Note, field(t, parseFile(t, root, activeFile).Tasks[0], "Note"))
	assert.Equal(t, "2026-11-22", done.Date)
}

// A coordinator error names the list once (not "/coordinator/active.md:
// coordinator/active.md: ..."), and its cause stays reachable.
func TestCoordinatorErrorNamesTheListOnce(t *testing.T) {
	list, _, _ := openList(t, nil)
	_, err := list.Create(bg, first("Only"), plain("Two"))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err = list.Start(ctx, coordinator.StartOptions{})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, strings.Count(err.Error(), "coordinator/active.md"), "message: %q", err.Error())
}
