package coordinator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// Create appends tasks to the list (each after NewTask.After when set) in
// one locked update, creating coordinator/active.md when there is none, and
// returns the created tasks as they are in the file. The first task of a
// list must carry Main-Workflow (MAIN_WORKFLOW_REQUIRED); a Status that is
// not a known status is UNKNOWN_STATUS; a task may not be created completed
// (INVALID_TASK), since completing records a note. On any error nothing is
// written.
//
// Main-Workflow is enforced on every change that would take it from a valid
// list. A list whose first task lost it by hand is not blocked: Create and
// Edit still work on it, and an Edit of its first task can put it back.
func (c *List) Create(ctx context.Context, tasks ...taskdoc.NewTask) ([]taskdoc.Task, error) {
	if err := c.flow.CheckCreate(tasks); err != nil {
		return nil, err
	}
	var created []taskdoc.Task
	err := c.withList(ctx, listCall{}, func(s *state) error {
		doc := s.doc
		if doc == nil {
			var err error
			if doc, err = taskdoc.Parse(newList()); err != nil {
				return err
			}
		}
		wasValid := checkMainWorkflow(doc) == nil
		nd, added, err := c.flow.Create(doc, tasks)
		if err != nil {
			return err
		}
		r := c.flow.Resolver(ctx, c.ws)
		if err := r.CheckLinks(nd, added); err != nil {
			return err
		}
		for i, t := range added {
			if err := c.flow.CheckRecords(nil, t, false); err != nil {
				return err
			}
			if nd, err = r.CheckWritten(nd, t, taskdoc.StatusPending, false); err != nil {
				return err
			}
			if added[i], err = nd.Task(t.Slug); err != nil {
				return err
			}
		}
		if wasValid {
			if err := checkMainWorkflow(nd); err != nil {
				return err
			}
		}
		created = make([]taskdoc.Task, len(added))
		for i, t := range added {
			created[i] = *t
		}
		return s.writeDoc(nd)
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// Edit changes the title and/or content of the task with the plain slug
// (an address with '#' is COORDINATOR_NO_SLUG_ALLOWED) and returns it as it is
// in the file. The first task must keep its Main-Workflow
// (MAIN_WORKFLOW_REQUIRED), a rename of a task that tasks of other
// documents depend on is INVALID_TASK naming them, and an edit cannot
// complete a task (INVALID_TRANSITION): Complete does that and records the
// note.
func (c *List) Edit(ctx context.Context, slug string, e taskdoc.Edit) (taskdoc.Task, error) {
	if err := checkSlug(slug); err != nil {
		return taskdoc.Task{}, err
	}
	var edited taskdoc.Task
	err := c.withList(ctx, listCall{}, func(s *state) error {
		if s.doc == nil {
			return noList(slug)
		}
		before, err := s.doc.Task(slug)
		if err != nil {
			return c.flow.At(err, slug)
		}
		nd, after, err := c.flow.Edit(s.doc, slug, e)
		if err != nil {
			return err
		}
		if err := c.flow.CheckRecords(before, after, false); err != nil {
			return err
		}
		r := c.flow.Resolver(ctx, c.ws)
		if err := r.CheckLinks(nd, []*taskdoc.Task{after}); err != nil {
			return err
		}
		if err := c.flow.CheckRename(ctx, c.ws, slug, after); err != nil {
			return err
		}
		if nd, err = r.CheckWritten(nd, after, before.Status, false); err != nil {
			return err
		}
		if after, err = nd.Task(after.Slug); err != nil {
			return err
		}
		// An edit changes one task, so the list's first task changes only
		// when it is the one edited; a list broken by hand stays editable.
		if slug == s.doc.Tasks[0].Slug && checkMainWorkflow(s.doc) == nil {
			if err := checkMainWorkflow(nd); err != nil {
				return err
			}
		}
		edited = *after
		return s.writeDoc(nd)
	})
	return edited, err
}

// List returns the list's tasks in order, only those with one of statuses
// when any are given (read with taskdoc.ParseStatus, so " In_Progress " is
// in_progress and an unknown one is UNKNOWN_STATUS). No list is an empty
// list.
func (c *List) List(ctx context.Context, statuses ...taskdoc.Status) ([]taskdoc.Task, error) {
	want, err := c.flow.StatusSet(statuses)
	if err != nil {
		return nil, err
	}
	var tasks []taskdoc.Task
	err = c.withList(ctx, listCall{keepFinished: true}, func(s *state) error {
		var all []taskdoc.Task
		if s.doc != nil {
			all = s.doc.Tasks
		}
		tasks = taskflow.Filter(all, want)
		return nil
	})
	return tasks, err
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
	err := c.withList(ctx, listCall{keepFinished: true}, func(s *state) error {
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
				return err
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
// The removals are a chain of edits of one parsed list: one parse in all.
func (c *List) Clear(ctx context.Context) (int, error) {
	removed := 0
	err := c.withList(ctx, listCall{}, func(s *state) error {
		if s.doc == nil {
			return nil
		}
		doc, err := keepMainWorkflow(s.doc)
		if err != nil {
			return err
		}
		for _, slug := range completedSlugs(doc) {
			if doc, err = doc.RemoveTask(slug); err != nil {
				return err
			}
			removed++
		}
		return s.writeDoc(doc)
	})
	return removed, err
}

// keepMainWorkflow copies a completed first task's Main-Workflow to the
// first task that is not completed, if that one has none.
func keepMainWorkflow(doc *taskdoc.Document) (*taskdoc.Document, error) {
	if len(doc.Tasks) == 0 || doc.Tasks[0].Status != taskdoc.StatusCompleted {
		return doc, nil
	}
	main := mainWorkflowName(doc)
	if main == "" {
		return doc, nil
	}
	for _, t := range doc.Tasks {
		if t.Status == taskdoc.StatusCompleted {
			continue
		}
		if v, ok := t.Field(taskdoc.KeyMainWorkflow); ok && strings.TrimSpace(v) != "" {
			return doc, nil
		}
		nd, _, err := doc.SetField(t.Slug, taskdoc.KeyMainWorkflow, main)
		return nd, err
	}
	return doc, nil
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

// checkSlug accepts a plain task slug only. An empty slug names no task:
// it is INVALID_ADDRESS, not TASK_NOT_FOUND, which would read as a task
// that was there and is gone (a removal already done).
func checkSlug(slug string) error {
	if strings.TrimSpace(slug) == "" {
		return &taskdoc.Error{
			Code: taskdoc.CodeInvalidAddress,
			Path: Address,
			Msg:  "no task slug: name a coordinator task by its slug",
		}
	}
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

// checkMainWorkflow enforces that the list's first task carries
// Main-Workflow.
func checkMainWorkflow(doc *taskdoc.Document) error {
	if len(doc.Tasks) == 0 || mainWorkflowName(doc) != "" {
		return nil
	}
	first := doc.Tasks[0]
	return &taskdoc.Error{
		Code: taskdoc.CodeMainWorkflowRequired, Path: Address, Slug: first.Slug,
		Msg: fmt.Sprintf("the first task of %s, %q, must carry a %s field (like \"- %s: tdd-incremental-orchestration\")",
			Address, first.Slug, taskdoc.KeyMainWorkflow, taskdoc.KeyMainWorkflow),
	}
}

// mainWorkflowName is the first task's Main-Workflow, or "".
func mainWorkflowName(doc *taskdoc.Document) string {
	if len(doc.Tasks) == 0 {
		return ""
	}
	v, _ := doc.Tasks[0].Field(taskdoc.KeyMainWorkflow)
	return strings.TrimSpace(v)
}

// noList is the error for naming a task when there is no list.
func noList(slug string) error {
	return &taskdoc.Error{
		Code: taskdoc.CodeTaskNotFound, Path: Address, Slug: slug,
		Msg: fmt.Sprintf("task %q not found: there is no coordinator list (%s); create tasks first", slug, Address),
	}
}

func isNotExist(err error) bool {
	return errors.Is(err, taskdoc.ErrDocumentNotFound) || errors.Is(err, fs.ErrNotExist)
}
