package coordinator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Field names the coordinator reads.
const (
	MainWorkflowField = "Main-Workflow"
	WorkflowField     = "Workflow"
)

// Address is the list's address, as errors name it.
const Address = "/coordinator/active.md"

// The head of a new list, written when Create finds no coordinator/active.md.
const (
	listTitle    = "Coordinator Tasks"
	listOverview = "Sequential coordinator task list. Auto-archives when all tasks complete."
)

// DefaultReferenceDepth is how deep Start follows @references by default.
const DefaultReferenceDepth = 3

// List is the sequential coordinator task list of one workspace. It holds
// no state of its own: every call reads coordinator/active.md under the
// file's lock, so any number of List values, goroutines and processes can
// share a workspace.
type List struct {
	ws    *workspace.Workspace
	now   func() time.Time
	depth int
}

// Option configures a List.
type Option func(*config)

type config struct {
	now   func() time.Time
	depth int
}

// WithClock sets the clock used for Completed dates and archive names
// (both in UTC). The default is time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.now = now }
}

// WithReferenceDepth sets how many levels of @references Start loads (1: the
// task's own references only; 0 or less: none). The default is
// DefaultReferenceDepth.
func WithReferenceDepth(n int) Option {
	return func(c *config) { c.depth = max(n, 0) }
}

// New returns the coordinator list of ws.
func New(ws *workspace.Workspace, opts ...Option) *List {
	cfg := config{now: time.Now, depth: DefaultReferenceDepth}
	for _, opt := range opts {
		opt(&cfg)
	}
	return &List{ws: ws, now: cfg.now, depth: cfg.depth}
}

// newList is the text of a list before its first task.
func newList() []byte {
	return []byte("# " + listTitle + "\n\n" + listOverview + "\n\n## Tasks\n")
}

// Create appends tasks to the list (each after NewTask.After when set) in
// one locked update, creating coordinator/active.md when there is none, and
// returns the created tasks as they are in the file. The first task of a
// list must carry Main-Workflow (MAIN_WORKFLOW_REQUIRED); a task may not be
// created completed (INVALID_TASK), since completing records a note. On any
// error nothing is written.
//
// Main-Workflow is enforced on every change that would take it from a valid
// list. A list whose first task lost it by hand is not blocked: Create and
// Edit still work on it, and an Edit of its first task can put it back.
func (c *List) Create(ctx context.Context, tasks ...taskdoc.NewTask) ([]taskdoc.Task, error) {
	if len(tasks) == 0 {
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: Address, Msg: "no tasks to create in " + Address}
	}
	var created []taskdoc.Task
	err := c.withList(ctx, func(s *state) error {
		src := s.source
		if src == nil {
			src = newList()
		}
		doc, err := parse(src)
		if err != nil {
			return err
		}
		wasValid := checkMainWorkflow(doc) == nil
		// One AddTasks call and one parse: a parse per task would make
		// creating a long list quadratic.
		if src, err = doc.AddTasks(tasks); err != nil {
			return inList(err)
		}
		if doc, err = parse(src); err != nil {
			return err
		}
		if created, err = createdTasks(doc, tasks); err != nil {
			return err
		}
		if err := keepsMainWorkflow(wasValid, doc); err != nil {
			return err
		}
		return s.write(src)
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// createdTasks looks the new tasks up in doc and refuses completed ones.
func createdTasks(doc *taskdoc.Document, tasks []taskdoc.NewTask) ([]taskdoc.Task, error) {
	created := make([]taskdoc.Task, 0, len(tasks))
	for _, t := range tasks {
		task, err := doc.Task(taskdoc.Slug(t.Title))
		if err != nil {
			return nil, inList(err)
		}
		if task.Status == taskdoc.StatusCompleted {
			return nil, &taskdoc.Error{
				Code: taskdoc.CodeInvalidTask, Path: Address, Slug: task.Slug,
				Msg: fmt.Sprintf("task %q in %s cannot be created completed: complete it with a note instead", task.Slug, Address),
			}
		}
		created = append(created, *task)
	}
	return created, nil
}

// Edit changes the title and/or content of the task with the plain slug
// (an address with '#' is COORDINATOR_NO_SLUG_ALLOWED) and returns it as it is
// in the file. The first task must keep its Main-Workflow
// (MAIN_WORKFLOW_REQUIRED), and an edit cannot complete a task
// (INVALID_TRANSITION): Complete does that and records the note.
func (c *List) Edit(ctx context.Context, slug string, e taskdoc.Edit) (taskdoc.Task, error) {
	if err := checkSlug(slug); err != nil {
		return taskdoc.Task{}, err
	}
	var edited taskdoc.Task
	err := c.withList(ctx, func(s *state) error {
		if s.doc == nil {
			return noList(slug)
		}
		before, err := s.doc.Task(slug)
		if err != nil {
			return inList(err)
		}
		src, err := s.doc.EditTask(slug, e)
		if err != nil {
			return inList(err)
		}
		newSlug := slug
		if e.Title != "" {
			newSlug = taskdoc.Slug(e.Title)
		}
		after, err := s.doc.TaskAfter(src, newSlug)
		if err != nil {
			return inList(err)
		}
		if after.Status == taskdoc.StatusCompleted && before.Status != taskdoc.StatusCompleted {
			return &taskdoc.Error{
				Code: taskdoc.CodeInvalidTransition, Path: Address, Slug: slug,
				Msg: fmt.Sprintf("task %q in %s cannot be completed by an edit: complete it with a note instead", slug, Address),
			}
		}
		if err := keepsFirstMainWorkflow(s.doc, before, after); err != nil {
			return err
		}
		edited = *after
		return s.write(src)
	})
	return edited, err
}

// List returns the list's tasks in order, only those with one of statuses
// when any are given. No list is an empty list.
func (c *List) List(ctx context.Context, statuses ...taskdoc.Status) ([]taskdoc.Task, error) {
	for _, st := range statuses {
		if _, err := taskdoc.ParseStatus(string(st)); err != nil {
			return nil, err
		}
	}
	var tasks []taskdoc.Task
	err := c.withList(ctx, func(s *state) error {
		if s.doc == nil {
			return nil
		}
		for _, t := range s.doc.Tasks {
			if len(statuses) == 0 || hasStatus(statuses, t.Status) {
				tasks = append(tasks, t)
			}
		}
		return nil
	})
	return tasks, err
}

func hasStatus(statuses []taskdoc.Status, s taskdoc.Status) bool {
	for _, want := range statuses {
		if strings.EqualFold(string(want), string(s)) {
			return true
		}
	}
	return false
}

// View returns the tasks with the given plain slugs, in the order asked, or
// every task when no slug is given. An unknown slug is TASK_NOT_FOUND with
// the available slugs.
func (c *List) View(ctx context.Context, slugs ...string) ([]taskdoc.Task, error) {
	for _, slug := range slugs {
		if err := checkSlug(slug); err != nil {
			return nil, err
		}
	}
	var tasks []taskdoc.Task
	err := c.withList(ctx, func(s *state) error {
		if s.doc == nil {
			if len(slugs) == 0 {
				return nil
			}
			return noList(slugs[0])
		}
		if len(slugs) == 0 {
			tasks = s.doc.Tasks
			return nil
		}
		for _, slug := range slugs {
			t, err := s.doc.Task(slug)
			if err != nil {
				return inList(err)
			}
			tasks = append(tasks, *t)
		}
		return nil
	})
	return tasks, err
}

// Clear removes the completed tasks from the list and returns how many it
// removed. When the first task is among them, its Main-Workflow moves to the
// new first task (unless that task has its own), so the list stays valid and
// the next task still knows its orchestration method. Clear never removes
// the whole list: a list whose tasks are all completed is archived instead.
func (c *List) Clear(ctx context.Context) (int, error) {
	removed := 0
	err := c.withList(ctx, func(s *state) error {
		if s.doc == nil {
			return nil
		}
		doc := s.doc
		src, doc, err := keepMainWorkflow(s.source, doc)
		if err != nil {
			return err
		}
		for _, slug := range completedSlugs(doc) {
			if src, err = doc.RemoveTask(slug); err != nil {
				return inList(err)
			}
			if doc, err = parse(src); err != nil {
				return err
			}
			removed++
		}
		return s.write(src)
	})
	return removed, err
}

// keepMainWorkflow copies a completed first task's Main-Workflow to the
// first task that is not completed, if that one has none.
func keepMainWorkflow(src []byte, doc *taskdoc.Document) ([]byte, *taskdoc.Document, error) {
	if len(doc.Tasks) == 0 || doc.Tasks[0].Status != taskdoc.StatusCompleted {
		return src, doc, nil
	}
	main, ok := doc.Tasks[0].Field(MainWorkflowField)
	if !ok || strings.TrimSpace(main) == "" {
		return src, doc, nil
	}
	for _, t := range doc.Tasks {
		if t.Status == taskdoc.StatusCompleted {
			continue
		}
		if v, ok := t.Field(MainWorkflowField); ok && strings.TrimSpace(v) != "" {
			return src, doc, nil
		}
		out, err := doc.SetField(t.Slug, MainWorkflowField, main)
		if err != nil {
			return nil, nil, inList(err)
		}
		newDoc, err := parse(out)
		return out, newDoc, err
	}
	return src, doc, nil
}

func completedSlugs(doc *taskdoc.Document) []string {
	var slugs []string
	for _, t := range doc.Tasks {
		if t.Status == taskdoc.StatusCompleted {
			slugs = append(slugs, t.Slug)
		}
	}
	return slugs
}

// CheckSequential refuses a task address: coordinator tasks are taken in
// order, so an address or slug with '#' is COORDINATOR_NO_SLUG_ALLOWED. Servers
// call it on the document argument of their start and complete tools.
func CheckSequential(address string) error {
	if !strings.Contains(address, "#") {
		return nil
	}
	return &taskdoc.Error{
		Code: taskdoc.CodeNoSlugAllowed,
		Path: address,
		Msg:  fmt.Sprintf("coordinator tasks are sequential: %q names a task; start and complete take the next task, without a #slug", address),
	}
}

// checkSlug accepts a plain task slug only.
func checkSlug(slug string) error {
	if strings.Contains(slug, "#") {
		return &taskdoc.Error{
			Code: taskdoc.CodeNoSlugAllowed,
			Path: Address,
			Slug: slug,
			Msg:  fmt.Sprintf("coordinator tasks are addressed by their plain slug, not %q: there is only one list, %s", slug, Address),
		}
	}
	return nil
}

// checkMainWorkflow enforces that the list's first task carries Main-Workflow.
func checkMainWorkflow(doc *taskdoc.Document) error {
	if len(doc.Tasks) == 0 {
		return nil
	}
	return checkFirst(&doc.Tasks[0])
}

// checkFirst enforces that first, the list's first task, carries
// Main-Workflow.
func checkFirst(first *taskdoc.Task) error {
	if v, ok := first.Field(MainWorkflowField); ok && strings.TrimSpace(v) != "" {
		return nil
	}
	return &taskdoc.Error{
		Code: taskdoc.CodeMainWorkflowRequired, Path: Address, Slug: first.Slug,
		Msg: fmt.Sprintf("the first task of %s, %q, must carry a %s field (like \"- %s: tdd-incremental-orchestration\")",
			Address, first.Slug, MainWorkflowField, MainWorkflowField),
	}
}

// keepsMainWorkflow refuses a change that leaves a valid list (a new list
// included) without Main-Workflow on its first task. A list broken by hand
// can still be changed, so that it can be repaired.
func keepsMainWorkflow(wasValid bool, doc *taskdoc.Document) error {
	if !wasValid {
		return nil
	}
	return checkMainWorkflow(doc)
}

// keepsFirstMainWorkflow is keepsMainWorkflow for an edit of the task
// before, which reads after once edited: an edit changes that task only, so
// the list's first task changes only when before is the first task.
func keepsFirstMainWorkflow(doc *taskdoc.Document, before, after *taskdoc.Task) error {
	if before.Slug != doc.Tasks[0].Slug || checkMainWorkflow(doc) != nil {
		return nil
	}
	return checkFirst(after)
}

// noList is the error for naming a task when there is no list.
func noList(slug string) error {
	return &taskdoc.Error{
		Code: taskdoc.CodeTaskNotFound, Path: Address, Slug: slug,
		Msg: fmt.Sprintf("task %q not found: there is no coordinator list (%s); create tasks first", slug, Address),
	}
}

// inList sets the list's address on a *taskdoc.Error that has no path.
func inList(err error) error {
	var e *taskdoc.Error
	if errors.As(err, &e) && e.Path == "" {
		copied := *e
		copied.Path = Address
		return &copied
	}
	return err
}

func parse(src []byte) (*taskdoc.Document, error) {
	doc, err := taskdoc.Parse(src)
	if err != nil {
		return nil, inList(err)
	}
	return doc, nil
}

func isNotExist(err error) bool {
	return errors.Is(err, taskdoc.ErrDocumentNotFound) || errors.Is(err, fs.ErrNotExist)
}
