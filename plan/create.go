package plan

import (
	"context"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
)

// NewPlan is a plan to create (the agent protocol's workflow_create).
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
// Create writes nothing); with another title, or a document there without
// a Tasks section, it is CONFLICT. The name is checked as every new
// document's title is (taskdoc.DocumentTitle): its line breaks become
// spaces, and an empty one is INVALID_ARGUMENTS, a control character in
// it or the summary CONTROL_CHARACTER, invalid UTF-8 INVALID_UTF8. A
// summary with a heading that would open a Tasks section of its own is
// INVALID_ARGUMENTS. Nothing is written when the call is refused.
func (p *Plans) Create(ctx context.Context, np NewPlan) (Summary, error) {
	name, err := taskdoc.DocumentTitle(np.Name)
	if err != nil {
		return Summary{}, err
	}
	if err := taskdoc.CheckText("summary", np.Summary); err != nil {
		return Summary{}, err
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
	if doc.TasksHeading == nil || len(doc.Tasks) != 0 || doc.Title() != name || doc.TasksHeading.Span.End != len(src) {
		return Summary{}, invalid("the summary of a plan is text under its title: it must not hold headings that open a Tasks section or tasks")
	}
	var out Summary
	err = p.ws.UpdateDocument(ctx, t.File, func(old *taskdoc.Document) (*taskdoc.Document, error) {
		if old == nil {
			out = summarise(t.Path, doc)
			return doc, nil
		}
		if old.TasksHeading == nil {
			return nil, &taskdoc.Error{Code: taskdoc.CodeConflict, Path: t.Path,
				Msg: fmt.Sprintf("%s exists already and is not a plan (it has no Tasks section): choose another path for plan %q", t.Path, name)}
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

// PlannedTask is one task of SetPlan (the agent protocol's workflow_set_plan).
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
	// Fields are more metadata written after those, in order, such as
	// {Key: "Complexity", Value: "low"}: each key at most 64 of letters,
	// digits, '-', '_' and inner spaces, none twice and none a field the task
	// systems keep (Status, Assignee, Depends-On, ...), each value one
	// line; optional.
	Fields []taskdoc.Field
}

// SetPlan adds tasks to plan, in order, at the end of its Tasks section, in
// one locked update: either all are written or none (the agent protocol's
// workflow_set_plan). Each is written pending, with its Depends-On and
// Workflow fields and its description as body. A plan that does not exist
// is created, titled from its file name. A dependency that names no task of
// the plan is TASK_NOT_FOUND and one that closes a cycle DEPENDENCY_CYCLE
// naming it; a title a task of the plan has already is DUPLICATE_TASK,
// unless every task of the call is in the plan with the title, Depends-On,
// Workflow and body the call would write: then the call is taken for a
// retry and the tasks are returned as they are now (claimed, started or
// done since), with nothing written.
func (p *Plans) SetPlan(ctx context.Context, plan string, tasks []PlannedTask) ([]taskdoc.Task, error) {
	t, err := planTarget(plan)
	if err != nil {
		return nil, err
	}
	news := make([]taskdoc.NewTask, len(tasks))
	planned := make([]written, len(tasks))
	for i, pt := range tasks {
		if planned[i], news[i], err = pt.newTask(); err != nil {
			return nil, t.Flow().At(err, "")
		}
	}
	if err := t.Flow().CheckCreate(news); err != nil {
		return nil, err
	}
	var out []taskdoc.Task
	err = p.ws.UpdateDocument(ctx, t.File, func(doc *taskdoc.Document) (*taskdoc.Document, error) {
		if doc == nil {
			var err error
			if doc, err = p.ws.Parse(t.File, taskdoc.NewDocument(taskdoc.TitleFromPath(t.Path))); err != nil {
				return nil, err
			}
		}
		if out = replayed(doc, planned); out != nil {
			return nil, nil
		}
		nd, added, err := t.Flow().Create(doc, news)
		if err != nil {
			return nil, err
		}
		if err := readBack(added, planned); err != nil {
			return nil, err
		}
		if err := t.Flow().Resolver(ctx, p.ws).CheckLinks(nd, added); err != nil {
			return nil, err
		}
		out = make([]taskdoc.Task, len(added))
		for i, a := range added {
			out[i] = *a
		}
		return nd, nil
	})
	if err != nil {
		return nil, t.Flow().At(err, "")
	}
	return out, nil
}

// replayed returns the tasks of doc that planned would write when every
// one of them is there as planned would write it (title, Depends-On,
// Workflow, Fields and body; Status, Assignee, Plan and the rest may have moved
// on since), nil otherwise.
func replayed(doc *taskdoc.Document, planned []written) []taskdoc.Task {
	out := make([]taskdoc.Task, len(planned))
	for i, w := range planned {
		tk, err := doc.Task(taskdoc.Slug(w.title))
		if err != nil || tk.Title != w.title || tk.Body != w.body {
			return nil
		}
		deps, _ := tk.Field(taskdoc.KeyDependsOn)
		wf, _ := tk.Field(taskdoc.KeyWorkflow)
		if deps != w.dependsOn || wf != w.workflow {
			return nil
		}
		if !readsBack(tk, w.fields) {
			return nil
		}
		out[i] = *tk
	}
	return out
}

// readBack refuses a planned task whose Fields do not read back as the
// task's fields, as the parser reads them (a key too long to be a
// metadata key): its retry would not be taken for one.
func readBack(added []*taskdoc.Task, planned []written) error {
	for i, tk := range added {
		if !readsBack(tk, planned[i].fields) {
			return invalid(fmt.Sprintf("task %q: its fields do not read back as written: use keys of at most 64 letters, digits, '-', '_' and inner spaces, and one-line values", planned[i].title))
		}
	}
	return nil
}

// readsBack reports whether task tk has each of fields as written.
func readsBack(tk *taskdoc.Task, fields []taskdoc.Field) bool {
	for _, f := range fields {
		if v, ok := tk.Field(f.Key); !ok || v != f.Value {
			return false
		}
	}
	return true
}

// written is what SetPlan writes of a PlannedTask.
type written struct {
	title, dependsOn, workflow, body string
	fields                           []taskdoc.Field
}

// newTask is the task pt writes.
func (pt PlannedTask) newTask() (written, taskdoc.NewTask, error) {
	w := written{title: plaintext.FoldLine(pt.Title), workflow: plaintext.FoldLine(pt.Workflow)}
	if w.title == "" {
		return w, taskdoc.NewTask{}, invalid("every task of a plan needs a title")
	}
	var deps []string
	for _, d := range pt.DependsOn {
		d = plaintext.FoldLine(d)
		switch {
		case d == "":
			return w, taskdoc.NewTask{}, invalid(fmt.Sprintf("task %q has an empty dependency", w.title))
		case strings.HasPrefix(d, "#") || strings.HasPrefix(d, "/"):
			deps = append(deps, d)
		default:
			deps = append(deps, "#"+taskdoc.Slug(d))
		}
	}
	w.dependsOn = strings.Join(deps, ", ")
	w.body = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(pt.Description, "\r\n", "\n"), "\r", "\n"))
	var b strings.Builder
	b.WriteString("- " + taskdoc.KeyStatus + ": " + string(taskdoc.StatusPending) + "\n")
	if w.dependsOn != "" {
		b.WriteString("- " + taskdoc.KeyDependsOn + ": " + w.dependsOn + "\n")
	}
	if w.workflow != "" {
		b.WriteString("- " + taskdoc.KeyWorkflow + ": " + w.workflow + "\n")
	}
	for _, f := range pt.Fields {
		key, value := strings.TrimSpace(f.Key), plaintext.FoldLine(f.Value)
		if err := checkFieldKey(w.title, key, w.fields); err != nil {
			return w, taskdoc.NewTask{}, err
		}
		if value == "" {
			return w, taskdoc.NewTask{}, invalid(fmt.Sprintf("task %q: field %q has no value", w.title, key))
		}
		w.fields = append(w.fields, taskdoc.Field{Key: key, Value: value})
		b.WriteString("- " + key + ": " + value + "\n")
	}
	if w.body != "" {
		b.WriteString("\n" + w.body + "\n")
	}
	return w, taskdoc.NewTask{Title: w.title, Content: b.String()}, nil
}

// keptKeys are the fields the task systems keep themselves: a plan's
// task cannot be given them as Fields.
var keptKeys = []string{taskdoc.KeyStatus, taskdoc.KeyWorkflow, taskdoc.KeyMainWorkflow, taskdoc.KeyCompleted,
	taskdoc.KeyNote, taskdoc.KeyRequest, taskdoc.KeyError, taskdoc.KeyDependsOn, taskdoc.KeyAssignee,
	taskdoc.KeyApproach, taskdoc.KeyCheckpoint, taskdoc.KeyOverride, taskdoc.KeyForced, taskdoc.KeyBlocked}

// checkFieldKey refuses a key of a planned task's Fields that is not one
// a metadata list reads back, that the task systems keep, or that an
// earlier field of the task has.
func checkFieldKey(title, key string, earlier []taskdoc.Field) error {
	if !taskdoc.IsFieldKey(key) {
		return invalid(fmt.Sprintf("task %q: field key %q: use at most 64 letters, digits, '-', '_' and inner spaces", title, key))
	}
	for _, k := range keptKeys {
		if strings.EqualFold(k, key) {
			return invalid(fmt.Sprintf("task %q: field %q is the task systems' own: set it with its own operation", title, key))
		}
	}
	for _, f := range earlier {
		if strings.EqualFold(f.Key, key) {
			return invalid(fmt.Sprintf("task %q: field %q given twice", title, key))
		}
	}
	return nil
}
