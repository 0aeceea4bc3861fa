package plan

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// TaskState is a task of a plan with its holder.
type TaskState struct {
	ID     string         `json:"id"` // the task's address
	Title  string         `json:"title"`
	Status taskdoc.Status `json:"status"`
	Holder string         `json:"holder,omitempty"` // the agent holding its claim, "" for none
	// HolderOnline is whether the holder is online now: a holder that is
	// not has lost the task to the next agent that claims it.
	HolderOnline bool `json:"holder_online,omitempty"`
}

// Progress is where a plan stands (the agent protocol's workflow_progress).
type Progress struct {
	Plan   string         `json:"workflow_id"` // the plan's address, "/api/auth.md"
	Title  string         `json:"title"`
	Status taskdoc.Status `json:"status"` // the plan's status (see Summary)
	Total  int            `json:"total"`
	// Counts has one entry per status, zero included.
	Counts map[taskdoc.Status]int `json:"counts"`
	// Percent is the share of tasks completed or skipped, rounded down.
	Percent int `json:"percent_complete"`
	// Current lists the tasks under way or needing attention (planning, in
	// progress, paused, blocked, failed), in document order, with holders.
	Current []TaskState `json:"current_tasks"`
}

// Summary is one plan of List (the agent protocol's workflow_list).
type Summary struct {
	ID     string                 `json:"id"` // the plan's address
	Title  string                 `json:"title"`
	Status taskdoc.Status         `json:"status"`
	Total  int                    `json:"total"`
	Counts map[taskdoc.Status]int `json:"counts"`
}

// Progress reads where plan stands, without locks: counts per status, the
// share done, and the tasks under way with their holders. A plan that
// does not exist is DOCUMENT_NOT_FOUND.
func (p *Plans) Progress(ctx context.Context, plan string) (Progress, error) {
	t, err := planTarget(plan)
	if err != nil {
		return Progress{}, err
	}
	v, err := p.view(ctx, t)
	if err != nil {
		return Progress{}, err
	}
	counts := countStatuses(v.doc.Tasks)
	out := Progress{Plan: t.Path, Title: v.doc.Title(), Status: planStatus(counts, len(v.doc.Tasks)),
		Total: len(v.doc.Tasks), Counts: counts, Current: []TaskState{}}
	if out.Total > 0 {
		out.Percent = 100 * (counts[taskdoc.StatusCompleted] + counts[taskdoc.StatusSkipped]) / out.Total
	}
	for i := range v.doc.Tasks {
		tk := &v.doc.Tasks[i]
		if _, err := taskdoc.ParseStatus(string(tk.Status)); err != nil || tk.Status == taskdoc.StatusPending || tk.Status.Final() {
			continue
		}
		s := TaskState{ID: t.Path + "#" + tk.Slug, Title: tk.Title, Status: tk.Status}
		s.Holder, s.HolderOnline = v.holder(tk)
		out.Current = append(out.Current, s)
	}
	return out, nil
}

// List returns the plans of the workspace (the agent protocol's workflow_list): every
// document under docs/ that has a Tasks section, in path order, with its
// status and counts, keeping those whose status is one of statuses (none
// keeps all; an unknown status is UNKNOWN_STATUS). The status of a plan is
// derived from its tasks:
//
//   - planning: no tasks yet;
//   - completed: every task completed or skipped;
//   - in_progress: a task is planning, in progress or paused;
//   - failed: otherwise, a task failed;
//   - blocked: otherwise, every task not done is blocked;
//   - pending: otherwise, no task has started;
//   - in_progress: otherwise (some tasks done, others pending).
//
// A document that does not read is skipped: List is for finding work, and
// the document's own calls report what is wrong with it.
func (p *Plans) List(ctx context.Context, statuses ...taskdoc.Status) ([]Summary, error) {
	want, err := taskflow.Flow{Path: "/"}.StatusSet(statuses)
	if err != nil {
		return nil, err
	}
	out := []Summary{}
	err = p.ws.Walk(ctx, taskdoc.FolderDocs, func(name string, doc *taskdoc.Document, err error) error {
		if err != nil || doc == nil || doc.TasksHeading == nil {
			return nil
		}
		s := summarise("/"+strings.TrimPrefix(name, taskdoc.FolderDocs+"/"), doc)
		if want == nil || want[s.Status] {
			out = append(out, s)
		}
		return nil
	})
	if errors.Is(err, fs.SkipAll) {
		err = nil
	}
	return out, err
}

// countStatuses counts tasks per status, every status listed.
func countStatuses(tasks []taskdoc.Task) map[taskdoc.Status]int {
	counts := make(map[taskdoc.Status]int, len(taskdoc.Statuses))
	for _, s := range taskdoc.Statuses {
		counts[s] = 0
	}
	for i := range tasks {
		s := tasks[i].Status
		if _, known := counts[s]; !known {
			s = taskdoc.StatusPending // a status written by hand that the machine does not know, as an edit reads it
		}
		counts[s]++
	}
	return counts
}

// planStatus derives a plan's status from its counts (see List).
func planStatus(counts map[taskdoc.Status]int, total int) taskdoc.Status {
	n := func(ss ...taskdoc.Status) int {
		sum := 0
		for _, s := range ss {
			sum += counts[s]
		}
		return sum
	}
	done := n(taskdoc.StatusCompleted, taskdoc.StatusSkipped)
	switch {
	case total == 0:
		return taskdoc.StatusPlanning
	case done == total:
		return taskdoc.StatusCompleted
	case n(taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusPaused) > 0:
		return taskdoc.StatusInProgress
	case counts[taskdoc.StatusFailed] > 0:
		return taskdoc.StatusFailed
	case counts[taskdoc.StatusBlocked] == total-done:
		return taskdoc.StatusBlocked
	case counts[taskdoc.StatusPending] == total:
		return taskdoc.StatusPending
	}
	return taskdoc.StatusInProgress
}
