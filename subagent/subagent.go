package subagent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Field names the subagent system reads.
const (
	StatusField   = "Status"
	WorkflowField = "Workflow"
)

// DefaultReferenceDepth is how many levels of @/ references Start loads
// unless WithReferenceDepth says otherwise.
const DefaultReferenceDepth = 3

// Tasks gives access to the subagent tasks of one workspace. It keeps no
// state of its own: every call reads the document it names (and changes it
// under that file's lock), so any number of Tasks values, goroutines and
// processes can work on one workspace at once.
type Tasks struct {
	ws    *workspace.Workspace
	now   func() time.Time
	depth int
}

// Option configures Tasks.
type Option func(*config)

type config struct {
	now   func() time.Time
	depth int
}

// WithClock sets the clock that dates completions (in UTC). The default is
// time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.now = now
		}
	}
}

// WithReferenceDepth sets how many levels of @/ references Start loads: 1
// loads the task's own references only, 0 or less loads none. The default
// is DefaultReferenceDepth.
func WithReferenceDepth(n int) Option {
	return func(c *config) { c.depth = max(n, 0) }
}

// New returns the subagent tasks of ws.
func New(ws *workspace.Workspace, opts ...Option) *Tasks {
	cfg := config{now: time.Now, depth: DefaultReferenceDepth}
	for _, opt := range opts {
		opt(&cfg)
	}
	return &Tasks{ws: ws, now: cfg.now, depth: cfg.depth}
}

// Create adds tasks to document ("/api/auth.md"), each after NewTask.After
// when set and at the end of the Tasks section otherwise, and returns them
// as they are in the file. It creates the document (titled from its file
// name) and its Tasks section when they are missing. All tasks are added in
// one locked update: either every task is written or, on any error, none.
//
// A title whose slug a task of the document already has, or one created
// before it in the same call, is DUPLICATE_TASK; a Status that is not a
// known status is UNKNOWN_STATUS; a task cannot be created completed
// (INVALID_TASK), since Complete is what records the note.
func (s *Tasks) Create(ctx context.Context, document string, tasks ...taskdoc.NewTask) ([]taskdoc.Task, error) {
	t, err := documentTarget(document)
	if err != nil {
		return nil, err
	}
	if len(tasks) == 0 {
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: t.path,
			Msg: fmt.Sprintf("no tasks to create in %s", t.path)}
	}
	var created []taskdoc.Task
	_, err = s.ws.Update(ctx, t.name, func(current []byte, exists bool) ([]byte, error) {
		src := current
		if !exists {
			src = taskdoc.NewDocument(taskdoc.TitleFromPath(t.path))
		}
		doc, err := taskdoc.Parse(src)
		if err != nil {
			return nil, err
		}
		// One AddTasks call and one parse: a parse per task would make
		// creating a plan in a large document quadratic.
		if src, err = doc.AddTasks(tasks); err != nil {
			return nil, err
		}
		if doc, err = taskdoc.Parse(src); err != nil {
			return nil, err
		}
		created, err = createdTasks(doc, tasks)
		return src, err
	})
	if err != nil {
		return nil, at(err, t.path, "")
	}
	return created, nil
}

// createdTasks looks the new tasks up in doc and checks their status.
func createdTasks(doc *taskdoc.Document, tasks []taskdoc.NewTask) ([]taskdoc.Task, error) {
	created := make([]taskdoc.Task, 0, len(tasks))
	for _, nt := range tasks {
		task, err := doc.Task(taskdoc.Slug(strings.TrimSpace(nt.Title)))
		if err != nil {
			return nil, err
		}
		if err := checkStatus(task); err != nil {
			return nil, err
		}
		if task.Status == taskdoc.StatusCompleted {
			return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Slug: task.Slug,
				Msg: fmt.Sprintf("task %q cannot be created completed: create it pending, then complete it with a note", task.Slug)}
		}
		created = append(created, *task)
	}
	return created, nil
}

// checkStatus refuses a Status field that is not a known status: the
// parser reads it leniently, but a write must not leave a value that the
// status rules cannot reason about.
func checkStatus(task *taskdoc.Task) error {
	v, ok := task.Field(StatusField)
	if !ok {
		return nil
	}
	if _, err := taskdoc.ParseStatus(v); err != nil {
		return at(err, "", task.Slug)
	}
	return nil
}

// Edit changes the title and/or the content (metadata and body) of the task
// at address ("/api/auth.md#add-token-validation") and returns it as it is
// in the file. A new title must not collide with another task
// (DUPLICATE_TASK). An edit cannot complete a task (INVALID_TRANSITION):
// Complete does that and records the note.
func (s *Tasks) Edit(ctx context.Context, address string, e taskdoc.Edit) (taskdoc.Task, error) {
	t, err := taskTarget(address)
	if err != nil {
		return taskdoc.Task{}, err
	}
	if e.Title == "" && e.Content == "" {
		return taskdoc.Task{}, &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: t.path, Slug: t.slug,
			Msg: fmt.Sprintf("edit of task %q in %s changes nothing: give a title, content or both", t.slug, t.path)}
	}
	var edited taskdoc.Task
	_, err = s.ws.Update(ctx, t.name, func(current []byte, exists bool) ([]byte, error) {
		doc, before, err := parseTask(t, current, exists, t.slug)
		if err != nil {
			return nil, err
		}
		src, err := doc.EditTask(t.slug, e)
		if err != nil {
			return nil, err
		}
		slug := t.slug
		if e.Title != "" {
			slug = taskdoc.Slug(strings.TrimSpace(e.Title))
		}
		after, err := doc.TaskAfter(src, slug)
		if err != nil {
			return nil, err
		}
		if err := checkStatus(after); err != nil {
			return nil, err
		}
		if after.Status == taskdoc.StatusCompleted && before.Status != taskdoc.StatusCompleted {
			return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition,
				Msg: fmt.Sprintf("task %q in %s cannot be completed by an edit: complete it with a note instead", t.slug, t.path)}
		}
		edited = *after
		return src, nil
	})
	if err != nil {
		return taskdoc.Task{}, at(err, t.path, t.slug)
	}
	return edited, nil
}

// List returns the tasks of document in order; only those with one of
// statuses when any are given (statuses are read with taskdoc.ParseStatus,
// so "In_Progress" is in_progress and an unknown one is UNKNOWN_STATUS).
func (s *Tasks) List(ctx context.Context, document string, statuses ...taskdoc.Status) ([]taskdoc.Task, error) {
	t, err := documentTarget(document)
	if err != nil {
		return nil, err
	}
	want := make(map[taskdoc.Status]bool, len(statuses))
	for _, st := range statuses {
		parsed, err := taskdoc.ParseStatus(string(st))
		if err != nil {
			return nil, at(err, t.path, "")
		}
		want[parsed] = true
	}
	doc, err := s.read(ctx, t)
	if err != nil {
		return nil, err
	}
	tasks := []taskdoc.Task{}
	for _, task := range doc.Tasks {
		if len(want) == 0 || want[task.Status] {
			tasks = append(tasks, task)
		}
	}
	return tasks, nil
}

// View returns the tasks of document with the given slugs, in the order
// asked, or every task when no slug is given. A slug may keep the '#' of
// its address ("#add-token-validation"). An unknown slug is TASK_NOT_FOUND
// listing the slugs that exist.
func (s *Tasks) View(ctx context.Context, document string, slugs ...string) ([]taskdoc.Task, error) {
	t, err := documentTarget(document)
	if err != nil {
		return nil, err
	}
	doc, err := s.read(ctx, t)
	if err != nil {
		return nil, err
	}
	if len(slugs) == 0 {
		return doc.Tasks, nil
	}
	tasks := make([]taskdoc.Task, 0, len(slugs))
	for _, slug := range slugs {
		task, err := doc.Task(strings.TrimPrefix(slug, "#"))
		if err != nil {
			return nil, at(err, t.path, slug)
		}
		tasks = append(tasks, *task)
	}
	return tasks, nil
}

// read parses the document at t without a lock: the workspace replaces
// files atomically, so a read sees one whole version.
func (s *Tasks) read(ctx context.Context, t target) (*taskdoc.Document, error) {
	src, _, err := s.ws.Read(ctx, t.name)
	if err != nil {
		return nil, at(err, t.path, t.slug)
	}
	doc, err := taskdoc.Parse(src)
	if err != nil {
		return nil, at(err, t.path, t.slug)
	}
	return doc, nil
}

// parseTask parses the document at t, as Update passes it, and finds the
// task slug in it.
func parseTask(t target, src []byte, exists bool, slug string) (*taskdoc.Document, *taskdoc.Task, error) {
	if !exists {
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound,
			Msg: fmt.Sprintf("document %s not found (no %s)", t.path, t.name)}
	}
	doc, err := taskdoc.Parse(src)
	if err != nil {
		return nil, nil, err
	}
	task, err := doc.Task(slug)
	if err != nil {
		return nil, nil, err
	}
	return doc, task, nil
}
