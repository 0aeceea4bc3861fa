package taskflow_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

const plan = "# Plan\n\n## Tasks\n\n### Pending\n\n- Status: pending\n\n### Going\n\n- Status: in_progress\n\n" +
	"### Stuck\n\n- Status: blocked\n\n### Done\n\n- Status: completed\n- Completed: 2026-01-01\n- Note: first\n\n" +
	"### Odd\n\n- Status: someday\n"

func parse(t *testing.T) *taskdoc.Document {
	t.Helper()
	doc, err := taskdoc.Parse([]byte(plan))
	require.NoError(t, err)
	return doc
}

var flow = taskflow.Flow{Path: "/plan.md", File: "docs/plan.md"}

// Each operation keeps to the status machine and names the address.
func TestFlowMoves(t *testing.T) {
	day := time.Date(2026, 11, 23, 23, 30, 0, 0, time.FixedZone("x", -3600))
	tests := []struct {
		name string
		run  func(*taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error)
		code taskdoc.Code
		want taskdoc.Status
	}{
		{"start pending", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return flow.Start(d, "pending") }, "", taskdoc.StatusInProgress},
		{"resume", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return flow.Start(d, "going") }, "", taskdoc.StatusInProgress},
		{"start blocked", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return flow.Start(d, "stuck") }, taskdoc.CodeInvalidTransition, ""},
		{"start completed", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return flow.Start(d, "done") }, taskdoc.CodeInvalidTransition, ""},
		{"start unknown status", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return flow.Start(d, "odd") }, taskdoc.CodeUnknownStatus, ""},
		{"complete blocked", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Complete(d, "stuck", "freed", day)
		}, "", taskdoc.StatusCompleted},
		{"complete twice", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Complete(d, "done", "again", day)
		}, taskdoc.CodeInvalidTransition, ""},
		{"complete without note", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Complete(d, "pending", " \n", day)
		}, taskdoc.CodeNoteRequired, ""},
		{"edit completes", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "pending", taskdoc.Edit{Content: "- Status: completed"})
		}, taskdoc.CodeInvalidTransition, ""},
		{"edit reopens", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "done", taskdoc.Edit{Content: "- Status: pending", Reopen: true})
		}, "", taskdoc.StatusPending},
		{"stale edit of a completed task", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "done", taskdoc.Edit{Content: "- Status: pending"})
		}, taskdoc.CodeInvalidTransition, ""},
		{"edit drops the note", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "done", taskdoc.Edit{Content: "- Status: completed\n- Completed: 2026-01-01"})
		}, taskdoc.CodeInvalidTransition, ""},
		{"edit of a completed task's body", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "done", taskdoc.Edit{Content: "- Status: completed\n- Completed: 2026-01-01\n- Note: first\n\nMore words."})
		}, "", taskdoc.StatusCompleted},
		{"edit renames a completed task", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "done", taskdoc.Edit{Title: "Done well"})
		}, "", taskdoc.StatusCompleted},
		{"edit repairs an unknown status", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "odd", taskdoc.Edit{Content: "- Status: blocked"})
		}, "", taskdoc.StatusBlocked},
		{"edit to an unknown status", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "pending", taskdoc.Edit{Content: "- Status: later"})
		}, taskdoc.CodeUnknownStatus, ""},
		{"empty edit", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return flow.Edit(d, "pending", taskdoc.Edit{})
		}, taskdoc.CodeInvalidTask, ""},
		{"missing task", func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return flow.Start(d, "nope") }, taskdoc.CodeTaskNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parse(t)
			nd, task, err := tt.run(doc)
			if tt.code != "" {
				var e *taskdoc.Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, tt.code, e.Code)
				assert.Equal(t, "/plan.md", e.Path)
				assert.Nil(t, nd)
				assert.Equal(t, plan, string(doc.Source), "a refused move changed the document")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, task.Status)
			again, err := nd.Task(task.Slug)
			require.NoError(t, err)
			assert.Equal(t, task, again, "the task returned is the one in the new document")
		})
	}
}

// Complete dates in UTC: 23:30 one hour west of UTC is the next day.
func TestCompleteDatesInUTC(t *testing.T) {
	day := time.Date(2026, 11, 23, 23, 30, 0, 0, time.FixedZone("x", -3600))
	_, task, err := flow.Complete(parse(t), "pending", "done", day)
	require.NoError(t, err)
	note, date := taskflow.CompletedFields(task, "", day)
	assert.Equal(t, "done", note)
	assert.Equal(t, "2026-11-24", date)
}

// Create reads its tasks back: unknown and completed statuses are refused.
func TestFlowCreate(t *testing.T) {
	_, _, err := flow.Create(parse(t), []taskdoc.NewTask{{Title: "New", Content: "- Status: completed"}})
	assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	_, _, err = flow.Create(parse(t), []taskdoc.NewTask{{Title: "New", Content: "- Status: soon"}})
	assert.Equal(t, taskdoc.CodeUnknownStatus, taskdoc.CodeOf(err))
	_, _, err = flow.Create(parse(t), nil)
	assert.Equal(t, taskdoc.CodeInvalidTask, taskdoc.CodeOf(err))
	nd, added, err := flow.Create(parse(t), []taskdoc.NewTask{{Title: "Fix [it](x)"}, {Title: "B"}})
	require.NoError(t, err)
	require.Len(t, added, 2)
	assert.Equal(t, "fix-it", added[0].Slug)
	assert.Len(t, nd.Tasks, 7)
}

// The status filter reads statuses leniently and refuses unknown ones.
func TestFilter(t *testing.T) {
	doc := parse(t)
	want, err := flow.StatusSet([]taskdoc.Status{" In_Progress ", "BLOCKED"})
	require.NoError(t, err)
	assert.Len(t, taskflow.Filter(doc.Tasks, want), 2)
	all, err := flow.StatusSet(nil)
	require.NoError(t, err)
	assert.NotNil(t, taskflow.Filter(nil, all))
	_, err = flow.StatusSet([]taskdoc.Status{"someday"})
	assert.Equal(t, taskdoc.CodeUnknownStatus, taskdoc.CodeOf(err))
}

// Nil options and a nil clock leave the defaults.
func TestNewConfig(t *testing.T) {
	c := taskflow.NewConfig([]taskflow.Option{nil, taskflow.WithClock(nil), taskflow.WithReferenceDepth(-2)})
	assert.NotNil(t, c.Now)
	assert.Equal(t, 0, c.Depth)
	fixed := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	c = taskflow.NewConfig([]taskflow.Option{taskflow.WithClock(func() time.Time { return fixed })})
	assert.Equal(t, fixed, c.Today())
	assert.Equal(t, taskflow.DefaultReferenceDepth, c.Depth)
}

// A version the caller read that no longer matches the task is CONFLICT.
func TestEditIfVersionConflict(t *testing.T) {
	doc := parse(t)
	task, err := doc.Task("pending")
	require.NoError(t, err)
	_, _, err = flow.Edit(doc, "pending", taskdoc.Edit{Content: "- Status: blocked", IfVersion: task.Version})
	require.NoError(t, err)
	_, _, err = flow.Edit(doc, "pending", taskdoc.Edit{Content: "- Status: blocked", IfVersion: "0000000000000000"})
	assert.ErrorIs(t, err, taskdoc.ErrConflict)
}

// An agent's status report moves through the status machine; failed needs
// and records an error text, completed is Complete's, final statuses stay.
func TestUpdateStatus(t *testing.T) {
	tests := []struct {
		slug, text string
		to         taskdoc.Status
		code       taskdoc.Code
		field      string // the Error field afterwards
	}{
		{slug: "pending", to: taskdoc.StatusPlanning},
		{slug: "going", to: taskdoc.StatusPaused},
		{slug: "going", to: taskdoc.StatusFailed, text: "the key\nvault is down", field: "the key vault is down"},
		{slug: "going", to: taskdoc.StatusFailed, text: "  ", code: taskdoc.CodeNoteRequired},
		{slug: "stuck", to: taskdoc.StatusSkipped},
		{slug: "pending", to: taskdoc.StatusFailed, text: "x", code: taskdoc.CodeInvalidTransition},
		{slug: "going", to: taskdoc.StatusCompleted, code: taskdoc.CodeInvalidTransition},
		{slug: "done", to: taskdoc.StatusPending, code: taskdoc.CodeInvalidTransition},
		{slug: "going", to: "someday", code: taskdoc.CodeUnknownStatus},
		{slug: "odd", to: taskdoc.StatusPending, code: taskdoc.CodeUnknownStatus},
	}
	for _, tt := range tests {
		t.Run(tt.slug+" to "+string(tt.to), func(t *testing.T) {
			doc := parse(t)
			nd, task, err := flow.UpdateStatus(doc, tt.slug, tt.to, tt.text)
			if tt.code != "" {
				var e *taskdoc.Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, tt.code, e.Code)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.to, task.Status)
			got, _ := task.Field(taskdoc.KeyError)
			assert.Equal(t, tt.field, got)
			again, err := nd.Task(tt.slug)
			require.NoError(t, err)
			assert.Equal(t, task, again)
		})
	}
}

// An edit of a task that is not completed may add or change Note and
// Completed fields: only a completed task's outcome is guarded.
func TestEditOfOpenTaskMayWriteANote(t *testing.T) {
	_, task, err := flow.Edit(parse(t), "pending", taskdoc.Edit{Content: "- Status: pending\n- Note: remember the keys"})
	require.NoError(t, err)
	note, _ := task.Field(taskdoc.KeyNote)
	assert.Equal(t, "remember the keys", note)
	_, _, err = flow.Edit(parse(t), "pending", taskdoc.Edit{Content: "- Status: failed"})
	assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition, "failing needs an error text")
}
