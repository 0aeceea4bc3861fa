package plan

import (
	"context"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// NewPlan is a plan to create (seed 002's workflow_create).
type NewPlan struct {
	// Path is the plan's address ("/api/auth.md"); "" derives it from the
	// name: "/" + taskdoc.Slug(Name) + ".md".
	Path    string
	Name    string // the plan's title; required, one line
	Summary string // what the plan is for: a paragraph under the title; optional
}

// Create writes a new plan document: the name as its title, the summary,
// and an empty Tasks section, and returns it with status planning. A plan
// that exists already with the same title is returned as it is (a retried
// Create writes nothing); with another title it is CONFLICT. An empty name,
// and a summary with a heading that would open a Tasks section of its own,
// are INVALID_ARGUMENTS.
func (p *Plans) Create(ctx context.Context, np NewPlan) (Summary, error) {
	name := taskdoc.FoldLine(np.Name)
	if name == "" {
		return Summary{}, invalid("a plan needs a name")
	}
	path := np.Path
	if path == "" {
		slug := taskdoc.Slug(name)
		if slug == "" {
			return Summary{}, invalid(fmt.Sprintf("the name %q gives no file name: give the plan's path", np.Name))
		}
		path = "/" + slug + ".md"
	}
	t, err := planTarget(path)
	if err != nil {
		return Summary{}, err
	}
	src := newPlanSource(name, np.Summary)
	doc, err := taskdoc.Parse(src)
	if err != nil {
		return Summary{}, t.Flow().At(err, "")
	}
	if doc.TasksHeading == nil || len(doc.Tasks) != 0 || doc.Title() != name || doc.TasksHeading.Line != strings.Count(string(src), "\n") {
		return Summary{}, invalid("the summary of a plan is text under its title: it must not hold headings that open a Tasks section or tasks")
	}
	var out Summary
	_, err = p.ws.Update(ctx, t.File, func(current []byte, exists bool) ([]byte, error) {
		if !exists {
			out = summarise(t.Path, doc)
			return src, nil
		}
		old, err := taskdoc.Parse(current)
		if err != nil {
			return nil, err
		}
		if old.Title() != name {
			return nil, &taskdoc.Error{Code: taskdoc.CodeConflict, Path: t.Path,
				Msg: fmt.Sprintf("%s exists already, titled %q: choose another path for plan %q", t.Path, old.Title(), name)}
		}
		out = summarise(t.Path, old)
		return nil, nil
	})
	return out, t.Flow().At(err, "")
}

// newPlanSource is the text of a new plan.
func newPlanSource(name, summary string) []byte {
	summary = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(summary, "\r\n", "\n"), "\r", "\n"))
	var b strings.Builder
	b.WriteString("# " + name + "\n\n")
	if summary != "" {
		b.WriteString(summary + "\n\n")
	}
	b.WriteString("## Tasks\n")
	return []byte(b.String())
}

// summarise is the Summary of doc, the plan at path.
func summarise(path string, doc *taskdoc.Document) Summary {
	counts := countStatuses(doc.Tasks)
	return Summary{ID: path, Title: doc.Title(), Status: planStatus(counts, len(doc.Tasks)),
		Total: len(doc.Tasks), Counts: counts}
}

// PlannedTask is one task of SetPlan (seed 002's workflow_set_plan).
type PlannedTask struct {
	Title       string // required, one line; its slug is the task's address in the plan
	Description string // the task's body: what to do; optional
	// DependsOn names the tasks this one waits for: "#slug" or a title of
	// a task of the plan (this call's or one already there), or
	// "/other.md#slug" in another plan.
	DependsOn []string
	// Workflow names a workflow prompt (workflows/<name>.md) the agent
	// follows for this task; optional.
	Workflow string
}

// SetPlan adds tasks to plan, in order, at the end of its Tasks section, in
// one locked update: either all are written or none (seed 002's
// workflow_set_plan). Each is written pending, with its Depends-On and
// Workflow fields and its description as body. A plan that does not exist
// is created, titled from its file name. A dependency that names no task of
// the plan is TASK_NOT_FOUND and one that closes a cycle DEPENDENCY_CYCLE
// naming it; a title a task of the plan has already is DUPLICATE_TASK,
// unless every task of the call is in the plan as the call would write it:
// then the call is taken for a retry and the tasks are returned as they
// are, with nothing written.
func (p *Plans) SetPlan(ctx context.Context, plan string, tasks []PlannedTask) ([]taskdoc.Task, error) {
	t, err := planTarget(plan)
	if err != nil {
		return nil, err
	}
	news := make([]taskdoc.NewTask, len(tasks))
	for i, pt := range tasks {
		if news[i], err = pt.newTask(); err != nil {
			return nil, t.Flow().At(err, "")
		}
	}
	if err := t.Flow().CheckCreate(news); err != nil {
		return nil, err
	}
	var out []taskdoc.Task
	_, err = p.ws.Update(ctx, t.File, func(current []byte, exists bool) ([]byte, error) {
		if !exists {
			current = taskdoc.NewDocument(taskdoc.TitleFromPath(t.Path))
		}
		doc, err := taskdoc.Parse(current)
		if err != nil {
			return nil, err
		}
		if out = replayed(doc, news); out != nil {
			return nil, nil
		}
		nd, added, err := t.Flow().Create(doc, news)
		if err != nil {
			return nil, err
		}
		out = make([]taskdoc.Task, len(added))
		for i, a := range added {
			out[i] = *a
		}
		return nd.Source, nil
	})
	if err != nil {
		return nil, t.Flow().At(err, "")
	}
	return out, nil
}

// replayed returns the tasks of doc that news would write when every one
// of them is there as news would write it, nil otherwise.
func replayed(doc *taskdoc.Document, news []taskdoc.NewTask) []taskdoc.Task {
	out := make([]taskdoc.Task, len(news))
	for i, n := range news {
		tk, err := doc.Task(taskdoc.Slug(n.Title))
		if err != nil || tk.Title != taskdoc.FoldLine(n.Title) || strings.TrimSpace(tk.Content()) != strings.TrimSpace(n.Content) {
			return nil
		}
		out[i] = *tk
	}
	return out
}

// newTask is the task pt writes.
func (pt PlannedTask) newTask() (taskdoc.NewTask, error) {
	title := taskdoc.FoldLine(pt.Title)
	if title == "" {
		return taskdoc.NewTask{}, invalid("every task of a plan needs a title")
	}
	var b strings.Builder
	b.WriteString("- " + taskdoc.KeyStatus + ": " + string(taskdoc.StatusPending) + "\n")
	if len(pt.DependsOn) > 0 {
		deps := make([]string, 0, len(pt.DependsOn))
		for _, d := range pt.DependsOn {
			d = taskdoc.FoldLine(d)
			switch {
			case d == "":
				return taskdoc.NewTask{}, invalid(fmt.Sprintf("task %q has an empty dependency", title))
			case strings.HasPrefix(d, "#") || strings.HasPrefix(d, "/"):
				deps = append(deps, d)
			default:
				deps = append(deps, "#"+taskdoc.Slug(d))
			}
		}
		b.WriteString("- " + taskdoc.KeyDependsOn + ": " + strings.Join(deps, ", ") + "\n")
	}
	if w := taskdoc.FoldLine(pt.Workflow); w != "" {
		b.WriteString("- " + taskdoc.KeyWorkflow + ": " + w + "\n")
	}
	if body := strings.TrimSpace(pt.Description); body != "" {
		b.WriteString("\n" + body + "\n")
	}
	return taskdoc.NewTask{Title: title, Content: b.String()}, nil
}
