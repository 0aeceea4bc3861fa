package worker

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// Paused is a paused task waiting to be resumed, with the checkpoint its
// Checkpoint field points at.
type Paused struct {
	Task  string `json:"task_id"` // the task's address
	Title string `json:"title"`
	// CheckpointPath is the task's Checkpoint field, "" when it has none.
	CheckpointPath string `json:"checkpoint_path,omitempty"`
	// Checkpoint is the checkpoint, nil when there is none or it does not
	// read (Problem says why).
	Checkpoint *checkpoint.Checkpoint `json:"checkpoint,omitempty"`
	Problem    string                 `json:"problem,omitempty"`
}

// ResumeQueue lists the paused tasks of every plan under docs/ with their
// checkpoints, oldest checkpoint first (tasks without one first, in path
// order): the work waiting for a worker. Documents that do not read are
// skipped. It takes no lock.
func (p *Pivots) ResumeQueue(ctx context.Context) ([]Paused, error) {
	var out []Paused
	err := p.ws.Walk(ctx, taskdoc.FolderDocs, func(name string, doc *taskdoc.Document, err error) error {
		if err != nil || doc == nil {
			return nil
		}
		path := "/" + strings.TrimPrefix(name, taskdoc.FolderDocs+"/")
		for i := range doc.Tasks {
			tk := &doc.Tasks[i]
			if tk.Status != taskdoc.StatusPaused {
				continue
			}
			item := Paused{Task: path + "#" + tk.Slug, Title: tk.Title}
			item.CheckpointPath, _ = tk.Field(taskdoc.KeyCheckpoint)
			if item.CheckpointPath != "" {
				cp, err := p.checkpointAt(ctx, item.CheckpointPath)
				if err != nil {
					item.Problem = err.Error()
				} else {
					item.Checkpoint = &cp
				}
			}
			out = append(out, item)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b Paused) int { return pausedAt(a).Compare(pausedAt(b)) })
	if out == nil {
		out = []Paused{}
	}
	return out, nil
}

func pausedAt(p Paused) time.Time {
	if p.Checkpoint == nil {
		return time.Time{}
	}
	return p.Checkpoint.Time
}

// checkpointAt reads the worker checkpoint at path, a Checkpoint field.
func (p *Pivots) checkpointAt(ctx context.Context, path string) (checkpoint.Checkpoint, error) {
	return checkpointAt(ctx, p.workers, path)
}

// checkpointAt reads the worker checkpoint at path, the root-relative path
// WorkerFile writes: any other path is INVALID_ARGUMENTS, a checkpoint
// that does not exist DOCUMENT_NOT_FOUND.
func checkpointAt(ctx context.Context, workers *checkpoint.Store, path string) (checkpoint.Checkpoint, error) {
	worker, seq, ok := checkpoint.ParseWorkerFile(path)
	if !ok {
		return checkpoint.Checkpoint{}, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("%q is not the path of a worker checkpoint (checkpoints/workers/<worker>/000001.md, from the workspace's root)", path)}
	}
	return workers.Get(ctx, worker, seq)
}

// Brief renders the resume brief of task (the pivot protocol's "spawn from
// checkpoint"): Markdown a new worker is started with, holding the
// original task, where the work stands (completed, in progress, remaining,
// blocked), the files changed, the decisions, the notes and resumption
// instructions of the checkpoint the task's Checkpoint field points at,
// then the task's context from its plan (plan.Plans.LoadContext under
// maxTokens, 0 for its default). A task without a checkpoint gets the
// context alone.
func (p *Pivots) Brief(ctx context.Context, task string, maxTokens int) (string, error) {
	tc, err := p.plans.LoadContext(ctx, task, plan.ContextOptions{MaxTokens: maxTokens})
	if err != nil {
		return "", err
	}
	var cp *checkpoint.Checkpoint
	if path := tc.CurrentTask.Checkpoint; path != "" {
		got, err := p.checkpointAt(ctx, path)
		if err != nil {
			return "", err
		}
		cp = &got
	}
	return renderBrief(tc, cp), nil
}

func renderBrief(tc *plan.TaskContext, cp *checkpoint.Checkpoint) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Resume: %s\n\nTask: %s (%s)\n", tc.CurrentTask.Title, tc.CurrentTask.ID, tc.CurrentTask.Status)
	if cp != nil {
		fmt.Fprintf(&b, "Checkpoint: %s, saved %s by %s", checkpoint.WorkerFile(cp.Worker, cp.Sequence), cp.Time.Format(time.RFC3339), cp.Worker)
		if cp.PivotReason != "" {
			fmt.Fprintf(&b, " (pivoted: %s)", cp.PivotReason)
		}
		b.WriteString("\n")
		text := func(title, body string) {
			if body = strings.TrimSpace(body); body != "" {
				fmt.Fprintf(&b, "\n## %s\n\n%s\n", title, body)
			}
		}
		list := func(title, mark string, items []string) {
			if len(items) == 0 {
				return
			}
			fmt.Fprintf(&b, "\n## %s\n\n", title)
			for _, it := range items {
				fmt.Fprintf(&b, "- %s%s\n", mark, it)
			}
		}
		text("Original Task", cp.OriginalTask)
		list("Completed", "[x] ", cp.Completed)
		list("In Progress", "[ ] ", cp.InProgress)
		list("Remaining", "[ ] ", cp.Remaining)
		list("Blocked", "", cp.Blocked)
		files := make([]string, len(cp.FilesChanged))
		for i, f := range cp.FilesChanged {
			files[i] = "`" + f.Path + "`"
			if f.Note != "" {
				files[i] += " (" + f.Note + ")"
			}
		}
		list("Files Changed", "", files)
		list("Decisions", "", cp.Decisions)
		text("Notes", cp.Notes)
		text("Resumption Instructions", cp.Resumption)
	}
	b.WriteString("\n## Context\n\n")
	b.WriteString(tc.CurrentTask.Text + "\n")
	if tc.Plan.Summary != "" {
		fmt.Fprintf(&b, "\nPlan %s: %s\n", tc.Plan.ID, tc.Plan.Summary)
	}
	for _, o := range tc.DependencyOutcomes {
		fmt.Fprintf(&b, "\nDone before it, %s: %s\n", o.ID, o.Text)
	}
	for _, c := range tc.CurrentTask.Checkpoints {
		fmt.Fprintf(&b, "\nJournal %d (%s): %s\n", c.Sequence, c.Type, c.Summary)
	}
	return b.String()
}

// Resumed is the answer of Resume.
type Resumed struct {
	Claim plan.ClaimResult `json:"claim"`
	Task  taskdoc.Task     `json:"task"`
	Brief string           `json:"brief"`
}

// Resume hands paused task to worker: it claims the task for it, moves it
// back to in progress and returns the claim and the resume brief (see
// Brief). When another online agent holds the task, the claim result says
// who and nothing else is done. A retried Resume by the same worker
// answers the same way without writing.
func (p *Pivots) Resume(ctx context.Context, task, worker string, maxTokens int) (Resumed, error) {
	// The brief is rendered once before anything is written, so that a
	// checkpoint that does not read fails the call with the task left in
	// the queue.
	if _, err := p.Brief(ctx, task, maxTokens); err != nil {
		return Resumed{}, err
	}
	res, err := p.plans.Claim(ctx, task, worker)
	if err != nil || !res.Success {
		return Resumed{Claim: res}, err
	}
	by := plan.Claimant{Agent: worker, Token: res.Claim.Token}
	tk, err := p.plans.UpdateStatus(ctx, task, by, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	if err != nil {
		return Resumed{}, err
	}
	brief, err := p.Brief(ctx, task, maxTokens)
	if err != nil {
		return Resumed{}, err
	}
	return Resumed{Claim: res, Task: tk, Brief: brief}, nil
}
