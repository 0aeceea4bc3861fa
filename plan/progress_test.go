package plan_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// counts is a Counts map with every status, zero unless given.
func counts(kv map[taskdoc.Status]int) map[taskdoc.Status]int {
	out := map[taskdoc.Status]int{
		taskdoc.StatusPending: 0, taskdoc.StatusPlanning: 0, taskdoc.StatusInProgress: 0, taskdoc.StatusPaused: 0,
		taskdoc.StatusBlocked: 0, taskdoc.StatusCompleted: 0, taskdoc.StatusFailed: 0, taskdoc.StatusSkipped: 0,
	}
	for k, v := range kv {
		out[k] = v
	}
	return out
}

// tasksDoc is a plan titled title with one task per status given, in order.
func tasksDoc(title string, statuses ...taskdoc.Status) string {
	s := "# " + title + "\n\n## Tasks\n"
	for i, st := range statuses {
		s += "\n### Task " + string(rune('a'+i)) + "\n- Status: " + string(st) + "\n"
		switch st {
		case taskdoc.StatusCompleted:
			s += "- Completed: 2026-11-20\n- Note: done\n"
		case taskdoc.StatusFailed:
			s += "- Error: broke\n"
		}
	}
	return s
}

// TestProgress: counts per status, the share done rounded down, and the
// tasks under way with their holders, online or not.
func TestProgress(t *testing.T) {
	c := newClock()
	doc := tasksDoc("Mixed",
		taskdoc.StatusPending,    // a
		taskdoc.StatusCompleted,  // b
		taskdoc.StatusInProgress, // c: held by on
		taskdoc.StatusPlanning,   // d: held by off
		taskdoc.StatusPaused,     // e
		taskdoc.StatusBlocked,    // f
		taskdoc.StatusFailed,     // g
		taskdoc.StatusSkipped,    // h
		taskdoc.StatusCompleted,  // i
		taskdoc.StatusPending,    // j
		taskdoc.StatusPending,    // k: held by on, not started
	)
	p, _ := setup(t, c, map[string]string{"docs/mixed.md": doc})
	on := register(t, p, "on")
	off := register(t, p, "off")
	for slug, who := range map[string]string{"task-c": on, "task-d": off, "task-k": on} {
		res, err := p.Claim(ctx, "/mixed.md#"+slug, who)
		require.NoError(t, err)
		require.True(t, res.Success)
	}
	c.Add(90 * time.Second)
	_, err := p.Agents().Heartbeat(ctx, on, agentInfo())
	require.NoError(t, err)

	got, err := p.Progress(ctx, "/mixed.md")
	require.NoError(t, err)
	assert.Equal(t, plan.Progress{
		Plan:   "/mixed.md",
		Title:  "Mixed",
		Status: taskdoc.StatusInProgress,
		Total:  11,
		Counts: counts(map[taskdoc.Status]int{taskdoc.StatusPending: 3, taskdoc.StatusCompleted: 2, taskdoc.StatusInProgress: 1,
			taskdoc.StatusPlanning: 1, taskdoc.StatusPaused: 1, taskdoc.StatusBlocked: 1, taskdoc.StatusFailed: 1, taskdoc.StatusSkipped: 1}),
		Percent: 27, // 3 of 11 done: 27.27 rounded down
		Current: []plan.TaskState{
			{ID: "/mixed.md#task-c", Title: "Task c", Status: taskdoc.StatusInProgress, Holder: on, HolderOnline: true},
			{ID: "/mixed.md#task-d", Title: "Task d", Status: taskdoc.StatusPlanning, Holder: off},
			{ID: "/mixed.md#task-e", Title: "Task e", Status: taskdoc.StatusPaused},
			{ID: "/mixed.md#task-f", Title: "Task f", Status: taskdoc.StatusBlocked},
			{ID: "/mixed.md#task-g", Title: "Task g", Status: taskdoc.StatusFailed},
		},
	}, got)

	// Percent rounds down: 2 of 3 is 66.
	p2, _ := setup(t, c, map[string]string{"docs/p.md": tasksDoc("P", taskdoc.StatusCompleted, taskdoc.StatusSkipped, taskdoc.StatusPending)})
	got, err = p2.Progress(ctx, "/p.md")
	require.NoError(t, err)
	assert.Equal(t, 66, got.Percent)
	assert.Equal(t, taskdoc.StatusInProgress, got.Status)
	assert.Equal(t, []plan.TaskState{}, got.Current)

	_, err = p.Progress(ctx, "/nope.md")
	requireCode(t, err, taskdoc.CodeDocumentNotFound)
	_, err = p.Progress(ctx, "/mixed.md#task-a")
	requireCode(t, err, taskdoc.CodeInvalidAddress)
}

// planStatuses has one plan per branch of the derivation of a plan's status
// (see List), named after it, and the status expected.
var planStatuses = []struct {
	file string
	doc  string
	want taskdoc.Status
}{
	{"docs/a-planning.md", "# A planning\n\nNothing yet.\n\n## Tasks\n", taskdoc.StatusPlanning},
	{"docs/b-completed.md", tasksDoc("B", taskdoc.StatusCompleted, taskdoc.StatusSkipped), taskdoc.StatusCompleted},
	{"docs/c-skipped.md", tasksDoc("C", taskdoc.StatusSkipped), taskdoc.StatusCompleted},
	{"docs/d-paused.md", tasksDoc("D", taskdoc.StatusFailed, taskdoc.StatusPaused, taskdoc.StatusBlocked), taskdoc.StatusInProgress},
	{"docs/e-planning-task.md", tasksDoc("E", taskdoc.StatusFailed, taskdoc.StatusPlanning), taskdoc.StatusInProgress},
	{"docs/f-failed.md", tasksDoc("F", taskdoc.StatusPending, taskdoc.StatusFailed, taskdoc.StatusBlocked, taskdoc.StatusCompleted), taskdoc.StatusFailed},
	{"docs/g-blocked.md", tasksDoc("G", taskdoc.StatusBlocked, taskdoc.StatusCompleted, taskdoc.StatusBlocked), taskdoc.StatusBlocked},
	{"docs/h-pending.md", tasksDoc("H", taskdoc.StatusPending, taskdoc.StatusPending), taskdoc.StatusPending},
	{"docs/i-some-done.md", tasksDoc("I", taskdoc.StatusCompleted, taskdoc.StatusPending), taskdoc.StatusInProgress},
	{"docs/j-blocked-and-pending.md", tasksDoc("J", taskdoc.StatusBlocked, taskdoc.StatusPending), taskdoc.StatusInProgress},
	{"docs/k/nested.md", tasksDoc("K", taskdoc.StatusInProgress), taskdoc.StatusInProgress},
}

// TestListStatuses: every plan with its derived status and counts, in
// path order; documents without a Tasks section, or that do not parse,
// are not plans; a status filter keeps the plans with one of its
// statuses; an unknown status is UNKNOWN_STATUS.
func TestListStatuses(t *testing.T) {
	c := newClock()
	files := map[string]string{
		"docs/notes.md":       "# Notes\n\nNo tasks here.\n",
		"docs/zz-broken.md":   "# Broken\n\n## Tasks\n\n### A \xff\n- Status: pending\n",
		"workflows/tdd.md":    "## Tasks\n\n### Not a plan\n",
		"docs/empty-title.md": "## Tasks\n\n### Only\n- Status: pending\n",
	}
	for _, ps := range planStatuses {
		files[ps.file] = ps.doc
	}
	p, root := setup(t, c, files)
	before := freeze(t, root)

	all, err := p.List(ctx)
	require.NoError(t, err)
	got := map[string]taskdoc.Status{}
	var order []string
	for _, s := range all {
		got[s.ID] = s.Status
		order = append(order, s.ID)
	}
	want := map[string]taskdoc.Status{"/empty-title.md": taskdoc.StatusPending}
	for _, ps := range planStatuses {
		want["/"+ps.file[len("docs/"):]] = ps.want
	}
	assert.Equal(t, want, got)
	assert.Equal(t, []string{"/a-planning.md", "/b-completed.md", "/c-skipped.md", "/d-paused.md", "/e-planning-task.md",
		"/empty-title.md", "/f-failed.md", "/g-blocked.md", "/h-pending.md", "/i-some-done.md", "/j-blocked-and-pending.md",
		"/k/nested.md"}, order, "path order")

	// One summary in full.
	for _, s := range all {
		if s.ID == "/f-failed.md" {
			assert.Equal(t, plan.Summary{ID: "/f-failed.md", Title: "F", Status: taskdoc.StatusFailed, Total: 4,
				Counts: counts(map[taskdoc.Status]int{taskdoc.StatusPending: 1, taskdoc.StatusFailed: 1, taskdoc.StatusBlocked: 1, taskdoc.StatusCompleted: 1})}, s)
		}
		if s.ID == "/a-planning.md" {
			assert.Equal(t, plan.Summary{ID: "/a-planning.md", Title: "A planning", Status: taskdoc.StatusPlanning, Counts: counts(nil)}, s)
		}
	}

	// Filters.
	listed := func(statuses ...taskdoc.Status) []string {
		t.Helper()
		out, err := p.List(ctx, statuses...)
		require.NoError(t, err)
		ids := []string{}
		for _, s := range out {
			ids = append(ids, s.ID)
		}
		return ids
	}
	assert.Equal(t, []string{"/d-paused.md", "/e-planning-task.md", "/i-some-done.md", "/j-blocked-and-pending.md", "/k/nested.md"}, listed(taskdoc.StatusInProgress))
	assert.Equal(t, []string{"/b-completed.md", "/c-skipped.md", "/f-failed.md"}, listed(taskdoc.StatusFailed, taskdoc.StatusCompleted))
	assert.Equal(t, []string{"/g-blocked.md"}, listed("  Blocked "), "statuses are read as people write them")
	assert.Equal(t, []string{"/a-planning.md"}, listed(taskdoc.StatusPlanning))
	assert.Equal(t, []string{}, listed(taskdoc.StatusPaused))

	_, err = p.List(ctx, taskdoc.StatusPending, "done")
	requireCode(t, err, taskdoc.CodeUnknownStatus)
	assert.Contains(t, err.Error(), `"done"`)
	requireUntouched(t, root, before, "List")

	// Progress derives the same status.
	for _, ps := range planStatuses {
		pr, err := p.Progress(ctx, "/"+ps.file[len("docs/"):])
		require.NoError(t, err)
		assert.Equal(t, ps.want, pr.Status, ps.file)
	}
}

// A status written by hand that the machine does not know counts as
// pending and is not a current task.
func TestUnknownStatusCountsAsPending(t *testing.T) {
	src := "# P\n\n## Tasks\n\n### A\n- Status: done-ish\n\n### B\n- Status: completed\n- Completed: 2026-01-01\n- Note: ok\n"
	p, _ := setup(t, newClock(), map[string]string{"docs/p.md": src})
	pr, err := p.Progress(ctx, "/p.md")
	require.NoError(t, err)
	assert.Len(t, pr.Counts, len(taskdoc.Statuses))
	assert.Equal(t, 1, pr.Counts[taskdoc.StatusPending])
	assert.Empty(t, pr.Current)
	assert.Equal(t, taskdoc.StatusInProgress, pr.Status)
}
