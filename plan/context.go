package plan

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/budget"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

// Include selects what LoadContext gathers, with the protocol's switches.
type Include struct {
	PlanSummary        bool `json:"workflow_plan"`       // the plan's summary (its text under the title)
	PriorTaskOutcomes  bool `json:"prior_task_outcomes"` // the outcomes of the plan's other completed tasks
	DependencyOutcomes bool `json:"dependency_outcomes"` // the outcomes of the tasks this one depends on
	RecentCheckpoints  int  `json:"recent_checkpoints"`  // the newest N checkpoints of the task's journal
	AllCheckpoints     bool `json:"all_checkpoints"`     // every checkpoint, for recovery (RecentCheckpoints is then ignored)
	WorkflowPrompt     bool `json:"workflow_prompt"`     // the workflow prompt the task's Workflow field names
	References         bool `json:"references"`          // the documents the task's @/ references name
}

// DefaultInclude is what LoadContext gathers without an Include: everything,
// with the 5 newest checkpoints.
func DefaultInclude() Include {
	return Include{PlanSummary: true, PriorTaskOutcomes: true, DependencyOutcomes: true,
		RecentCheckpoints: 5, WorkflowPrompt: true, References: true}
}

// minMaxTokens is the smallest budget LoadContext takes: enough for a
// task's title and the start of its text, with the truncation mark.
const minMaxTokens = 100

// ContextOptions configures LoadContext.
type ContextOptions struct {
	Include   *Include              // nil is DefaultInclude
	MaxTokens int                   // 0 is taskcontext.DefaultBudget; the result never exceeds it under Estimate
	Estimate  taskcontext.Estimator // nil is taskcontext.DefaultEstimator (about 4 bytes a token)
}

// Text is a named piece of context: an outcome, a reference, a prompt.
type Text struct {
	ID   string `json:"id"` // a task's address, a reference's path, a workflow's name
	Text string `json:"text"`
}

// ContextCheckpoint is a checkpoint as the context holds it: its Detail
// is "" when the budget cut it, or ends with taskcontext.TruncationMark
// when shortened.
type ContextCheckpoint struct {
	Sequence     int       `json:"sequence"`
	Type         string    `json:"type"`
	Time         time.Time `json:"time"`
	Agent        string    `json:"agent,omitempty"`
	Summary      string    `json:"summary"`
	FilesChanged []string  `json:"files_changed,omitempty"`
	Detail       string    `json:"detail,omitempty"`
}

// PlanContext is the plan a task belongs to.
type PlanContext struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Summary string `json:"summary,omitempty"` // cut or shortened by the budget
}

// CurrentTask is the task LoadContext loads.
type CurrentTask struct {
	ID       string         `json:"id"`
	Title    string         `json:"title"`
	Status   taskdoc.Status `json:"status"`
	Assignee string         `json:"assignee,omitempty"` // the agent holding its claim, as its Assignee field says
	Approach string         `json:"plan,omitempty"`     // its Plan field (task_set_plan)
	// Checkpoint is its Checkpoint field: the worker checkpoint a paused
	// task was left with, to resume it from.
	Checkpoint string `json:"checkpoint,omitempty"`
	// Text is the task as the budget kept it: its title, fields and body
	// (shortened, ending with taskcontext.TruncationMark, when the budget
	// is smaller than the task).
	Text        string              `json:"text"`
	Checkpoints []ContextCheckpoint `json:"checkpoints"` // newest first
}

// TaskContext is the context of a task under a token budget (the agent protocol's
// task_load_context), with the protocol's field names.
type TaskContext struct {
	Plan               PlanContext `json:"workflow"` // the protocol calls a plan a workflow
	CurrentTask        CurrentTask `json:"current_task"`
	PriorTasks         []Text      `json:"prior_tasks"`         // newest first
	DependencyOutcomes []Text      `json:"dependency_outcomes"` // in Depends-On order
	WorkflowPrompt     *Text       `json:"workflow_prompt,omitempty"`
	References         []Text      `json:"references"`
	// Missing names what the task asks for that is not there: a workflow
	// prompt, a reference, a dependency no task has.
	Missing   []string `json:"missing,omitempty"`
	Tokens    int      `json:"tokens"`     // the estimate of this answer as JSON, all of it: at most MaxTokens
	MaxTokens int      `json:"max_tokens"` // the budget
	// Cut lists what the budget dropped or shortened, in the order it did.
	Cut []taskcontext.Cut `json:"cut"`
}

// LoadContext gathers the context of task under a token budget: the task,
// its plan's summary, its workflow prompt, the documents it references,
// the outcomes of its dependencies and of the plan's other completed
// tasks, and its checkpoints, as opts.Include selects. The result, as JSON
// (every field, the Cut list included), never exceeds opts.MaxTokens under
// opts.Estimate, and Tokens is its estimate: parts are dropped in the
// order the taskcontext package documents (checkpoint details, oldest
// first, then checkpoints, prior outcomes, references deepest first, dependency
// outcomes, the workflow prompt, the plan summary; the task itself is
// never dropped, only shortened), and Cut says what went.
//
// Everything is read without locks and nothing is written. A task that
// does not exist is TASK_NOT_FOUND (DOCUMENT_NOT_FOUND for its plan); a
// budget below 100, or below the smallest answer for the task (a
// long title), or a negative checkpoint count is INVALID_ARGUMENTS.
func (p *Plans) LoadContext(ctx context.Context, task string, opts ContextOptions) (*TaskContext, error) {
	t, err := taskTarget(task)
	if err != nil {
		return nil, err
	}
	inc := DefaultInclude()
	if opts.Include != nil {
		inc = *opts.Include
	}
	maxTokens := cmp.Or(opts.MaxTokens, taskcontext.DefaultBudget)
	if maxTokens < minMaxTokens || inc.RecentCheckpoints < 0 {
		return nil, invalid(fmt.Sprintf("max_tokens %d must be at least %d (0 is %d) and recent_checkpoints %d must not be negative",
			opts.MaxTokens, minMaxTokens, taskcontext.DefaultBudget, inc.RecentCheckpoints))
	}
	doc, err := p.readPlan(ctx, t) // the claims are not part of a context: not read
	if err != nil {
		return nil, err
	}
	tk, err := doc.Task(t.Slug)
	if err != nil {
		return nil, t.Flow().At(err, t.Slug)
	}
	m := budget.Material{Task: tk, Address: t.Address()}
	out := &TaskContext{
		Plan:               PlanContext{ID: t.Path, Title: doc.Title()},
		CurrentTask:        CurrentTask{ID: t.Address(), Title: tk.Title, Status: tk.Status, Checkpoints: []ContextCheckpoint{}},
		PriorTasks:         []Text{},
		DependencyOutcomes: []Text{},
		References:         []Text{},
		MaxTokens:          maxTokens,
		Cut:                []taskcontext.Cut{},
	}
	out.CurrentTask.Assignee, _ = tk.Field(taskdoc.KeyAssignee)
	out.CurrentTask.Approach, _ = tk.Field(taskdoc.KeyApproach)
	out.CurrentTask.Checkpoint, _ = tk.Field(taskdoc.KeyCheckpoint)
	if inc.PlanSummary {
		m.PlanSummary = planSummary(doc)
	}
	deps := map[string]bool{}
	if inc.DependencyOutcomes {
		resolved, err := t.Flow().Resolver(ctx, p.ws).Of(doc, tk)
		if err != nil {
			return nil, err
		}
		for _, d := range resolved {
			deps[d.Address] = true
			switch {
			case d.Task == nil:
				out.Missing = append(out.Missing, d.Address)
			case d.Task.Status == taskdoc.StatusCompleted:
				m.Dependencies = append(m.Dependencies, budget.Outcome{Task: d.Address, Text: outcome(d.Task)})
			}
		}
	}
	if inc.PriorTaskOutcomes {
		m.Prior = priorOutcomes(t.Path, doc, tk.Slug, deps)
	}
	var entries []journal.Entry
	if inc.AllCheckpoints || inc.RecentCheckpoints > 0 {
		q := journal.Query{Limit: inc.RecentCheckpoints}
		if inc.AllCheckpoints {
			q.Limit = 0
		}
		if entries, err = p.journal.List(ctx, t.Address(), q); err != nil {
			return nil, err
		}
		for _, e := range entries {
			m.Checkpoints = append(m.Checkpoints, budget.Checkpoint{Sequence: e.Sequence, Type: string(e.Type),
				Time: e.Time, Agent: e.Agent, Summary: e.Summary, FilesChanged: e.FilesChanged, Detail: e.Detail})
		}
	}
	var loaded *taskcontext.Context
	if inc.WorkflowPrompt || inc.References {
		req := taskcontext.Request{Task: tk, Depth: p.cfg.Depth}
		if !inc.References {
			req.Depth = 0
		}
		probe := *tk
		if !inc.WorkflowPrompt {
			probe.Fields = slices.DeleteFunc(slices.Clone(tk.Fields), func(f taskdoc.Field) bool {
				return strings.EqualFold(f.Key, taskdoc.KeyWorkflow)
			})
			req.Task = &probe
		}
		if loaded, err = taskcontext.Load(ctx, p.ws, req); err != nil {
			return nil, t.Flow().At(err, t.Slug)
		}
		out.Missing = append(out.Missing, loaded.Missing...)
	}
	estimate := opts.Estimate
	if estimate == nil {
		estimate = taskcontext.DefaultEstimator
	}
	return fitAnswer(out, loaded, m, entries, maxTokens, estimate)
}

// fitAnswer fills base with as much of the context as maxTokens holds,
// counting the answer as it goes out, its JSON, fields and Cut included:
// the parts are fitted to a smaller budget until the whole answer fits,
// and when the Cut list alone would break it, its runs of one kind share
// an entry (budget.MergeCuts). A budget that not even the smallest
// answer fits (the task's id, title and status with nothing else) is
// INVALID_ARGUMENTS naming the smallest budget that does.
func fitAnswer(base *TaskContext, loaded *taskcontext.Context, m budget.Material, entries []journal.Entry,
	maxTokens int, estimate taskcontext.Estimator) (*TaskContext, error) {
	parts := maxTokens
	for round := 0; ; round++ {
		kept, cut := budget.Budgeted(loaded, m, parts, estimate)
		out := *base
		out.Cut = append(out.Cut, cut...)
		fill(&out, kept, entries)
		size := measure(&out, estimate)
		if size > maxTokens {
			out.Cut = budget.MergeCuts(out.Cut)
			size = measure(&out, estimate)
		}
		if size <= maxTokens {
			return &out, nil
		}
		if parts == 1 {
			return nil, invalid(fmt.Sprintf("max_tokens %d is smaller than the smallest context of %s (its id, title and status, and what was cut), %d tokens: give at least %d",
				maxTokens, out.CurrentTask.ID, size, size))
		}
		// The parts kept must lose what the answer is over by; should
		// that not converge, halve. budget.Fit's least budget is 1 (0 is its
		// default).
		kepts := 0
		for _, part := range kept {
			if part.Text != "" {
				kepts += max(estimate(part.Text), 0)
			}
		}
		next := min(kepts, parts) - (size - maxTokens)
		if round >= 8 {
			next = min(next, parts/2)
		}
		parts = max(next, 1)
	}
}

// measure sets out.Tokens to the estimate of out's JSON, Tokens included,
// and returns it.
func measure(out *TaskContext, estimate taskcontext.Estimator) int {
	out.Tokens = 0
	for range 8 {
		data, err := json.Marshal(out)
		if err != nil {
			panic(err) // plain data: marshals
		}
		n := max(estimate(string(data)), 0)
		if n <= out.Tokens {
			break
		}
		out.Tokens = n
	}
	return out.Tokens
}

// fill sets the fields of out from the parts the budget kept.
func fill(out *TaskContext, kept []budget.Part, entries []journal.Entry) {
	details := map[string]string{}
	shown := map[string]bool{}
	for _, part := range kept {
		text := Text{ID: part.Name, Text: part.Text}
		switch part.Kind {
		case budget.KindTask:
			out.CurrentTask.Text = part.Text
		case budget.KindPlanSummary:
			out.Plan.Summary = part.Text
		case budget.KindWorkflow:
			out.WorkflowPrompt = &text
		case budget.KindReference:
			out.References = append(out.References, text)
		case budget.KindDependencyOutcome:
			out.DependencyOutcomes = append(out.DependencyOutcomes, text)
		case budget.KindPriorOutcome:
			out.PriorTasks = append(out.PriorTasks, text)
		case budget.KindCheckpoint:
			shown[part.Name] = true
		case budget.KindCheckpointDetail:
			details[part.Name] = part.Text
		}
	}
	for _, e := range entries {
		seq := strconv.Itoa(e.Sequence)
		if !shown[seq] {
			continue
		}
		out.CurrentTask.Checkpoints = append(out.CurrentTask.Checkpoints, ContextCheckpoint{Sequence: e.Sequence,
			Type: string(e.Type), Time: e.Time, Agent: e.Agent, Summary: e.Summary, FilesChanged: e.FilesChanged,
			Detail: details[seq]})
	}
}

// outcome is what a completed task records of its work: its Note.
func outcome(t *taskdoc.Task) string {
	note, _ := t.Field(taskdoc.KeyNote)
	return note
}

// priorOutcomes are the outcomes of the completed tasks of doc other than
// slug and its dependencies, newest completion first (ties: later in the
// document first).
func priorOutcomes(path string, doc *taskdoc.Document, slug string, deps map[string]bool) []budget.Outcome {
	type done struct {
		date string
		pos  int
		o    budget.Outcome
	}
	var all []done
	for i := range doc.Tasks {
		tk := &doc.Tasks[i]
		addr := path + "#" + tk.Slug
		if tk.Slug == slug || deps[addr] || tk.Status != taskdoc.StatusCompleted {
			continue
		}
		date, _ := tk.Field(taskdoc.KeyCompleted)
		all = append(all, done{date: date, pos: i, o: budget.Outcome{Task: addr, Text: outcome(tk)}})
	}
	slices.SortStableFunc(all, func(a, b done) int {
		return cmp.Or(strings.Compare(b.date, a.date), cmp.Compare(b.pos, a.pos))
	})
	out := make([]budget.Outcome, len(all))
	for i, d := range all {
		out[i] = d.o
	}
	return out
}

// planSummary is the plan's text between its title and its Tasks section
// (the whole text before the Tasks section when the title is not first),
// trimmed.
func planSummary(doc *taskdoc.Document) string {
	end := len(doc.Source)
	if doc.TasksHeading != nil {
		end = doc.TasksHeading.Span.Start
	}
	start := 0
	for _, h := range doc.Headings {
		if h.Level == 1 && h.Span.End <= end {
			start = h.Span.End
			break
		}
	}
	if start > end {
		return ""
	}
	text := string(doc.Source[start:end])
	if raw := doc.FrontMatter.Raw; start == 0 && len(raw) > 0 {
		text = strings.TrimPrefix(strings.TrimPrefix(text, "\ufeff"), string(raw))
	}
	return strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
}
