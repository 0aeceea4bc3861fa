package budget

import (
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

// Checkpoint is what Budgeted reads of a checkpoint of the task's journal.
// Its caller copies its journal.Entry values into these, so that the rules
// of the budget do not depend on how a journal is kept.
type Checkpoint struct {
	Sequence     int       `json:"sequence"`
	Type         string    `json:"type"` // "plan", "progress", "decision", "error", "recovery", "complete"
	Time         time.Time `json:"time"`
	Agent        string    `json:"agent,omitempty"`
	Summary      string    `json:"summary"`
	FilesChanged []string  `json:"files_changed,omitempty"`
	Detail       string    `json:"detail,omitempty"`
}

// Outcome is the recorded outcome of another task.
type Outcome struct {
	Task string `json:"task"` // the task's address: "/api/auth.md#setup-oauth"
	Text string `json:"text"`
}

// Material is what Budgeted adds to a loaded taskcontext.Context.
type Material struct {
	Task        *taskdoc.Task // the task itself; nil adds none
	Address     string        // the task's address, its Part's Name
	PlanSummary string        // what the plan is for; "" adds none
	// Checkpoints are the task's checkpoints, newest first, as
	// journal.Journal.List returns them.
	Checkpoints []Checkpoint
	// Dependencies are the outcomes of the tasks this one depends on;
	// Prior the outcomes of tasks completed earlier, newest first.
	Dependencies []Outcome
	Prior        []Outcome
}

// Budgeted turns a loaded Context (nil for none) and m into parts and
// fits them to budget under estimate (see Fit). The parts are, in this
// order: the task (its title, then its fields and body as Task.Content
// gives them), the plan summary, the Main-Workflow, the Workflow, the
// references depth first as loaded (ranked by depth), the dependency
// outcomes, the prior outcomes (ranked by age), and each checkpoint
// followed by its detail (ranked by age). Workflows, references, outcomes
// and details may be shortened; a checkpoint's summary line is kept or
// dropped whole.
func Budgeted(c *taskcontext.Context, m Material, budget int, estimate taskcontext.Estimator) (kept []Part, cut []taskcontext.Cut) {
	var parts []Part
	if m.Task != nil {
		parts = append(parts, Part{Kind: KindTask, Name: m.Address, Text: taskText(m.Task)})
	}
	if m.PlanSummary != "" {
		parts = append(parts, Part{Kind: KindPlanSummary, Name: "plan", Text: m.PlanSummary, Shorten: true})
	}
	if c != nil {
		for _, wf := range []struct {
			kind Kind
			wf   *taskcontext.Workflow
		}{{KindMainWorkflow, c.MainWorkflow}, {KindWorkflow, c.Workflow}} {
			if wf.wf != nil {
				parts = append(parts, Part{Kind: wf.kind, Name: wf.wf.Name, Text: wf.wf.Content, Shorten: true})
			}
		}
		parts = appendReferences(parts, c.References)
	}
	for _, o := range m.Dependencies {
		parts = append(parts, Part{Kind: KindDependencyOutcome, Name: o.Task, Text: o.Text, Shorten: true})
	}
	for age, o := range m.Prior {
		parts = append(parts, Part{Kind: KindPriorOutcome, Name: o.Task, Text: o.Text, Rank: age, Shorten: true})
	}
	for age, cp := range m.Checkpoints {
		name := strconv.Itoa(cp.Sequence)
		parts = append(parts, Part{Kind: KindCheckpoint, Name: name, Text: checkpointText(cp), Rank: age})
		if cp.Detail != "" {
			parts = append(parts, Part{Kind: KindCheckpointDetail, Name: name, Text: cp.Detail, Rank: age, Shorten: true})
		}
	}
	return Fit(parts, budget, estimate)
}

func appendReferences(parts []Part, docs []taskcontext.LoadedDocument) []Part {
	for _, d := range docs {
		parts = append(parts, Part{Kind: KindReference, Name: d.Path, Text: d.Content, Rank: d.Depth, Shorten: true})
		parts = appendReferences(parts, d.Children)
	}
	return parts
}

func taskText(t *taskdoc.Task) string {
	if content := t.Content(); content != "" {
		return t.Title + "\n\n" + content
	}
	return t.Title
}

// checkpointText is a checkpoint as its journal heads it, then its summary
// and files: "3 · decision · 2026-11-23T10:00:00Z · worker-1".
func checkpointText(cp Checkpoint) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(cp.Sequence) + " · " + cp.Type)
	if !cp.Time.IsZero() {
		b.WriteString(" · " + cp.Time.UTC().Format(time.RFC3339))
	}
	if cp.Agent != "" {
		b.WriteString(" · " + cp.Agent)
	}
	b.WriteString("\n" + cp.Summary)
	if len(cp.FilesChanged) > 0 {
		b.WriteString("\nFiles: " + strings.Join(cp.FilesChanged, ", "))
	}
	return b.String()
}
