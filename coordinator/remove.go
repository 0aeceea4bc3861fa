package coordinator

import (
	"context"
	"strings"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// Remove deletes the task with the plain slug from the list and returns it
// as it was; every other byte of the list stays as it was, but for one
// case: when the task removed is the first and carries the list's
// Main-Workflow, that field moves to the new first task (unless it has its
// own), so the list stays valid, as Clear does.
//
// The rules are those of subagent.Tasks.Remove: TASK_NOT_FOUND (also the
// answer to a retry of a removal that succeeded), CONFLICT with
// r.IfVersion, INVALID_TASK when other tasks of the list depend on it,
// and, unless r.Force, INVALID_TASK when tasks of documents under docs/
// depend on it ("Depends-On: /coordinator/active.md#slug") and
// INVALID_TRANSITION for a task someone may be working on (in progress,
// planning or paused, or held by an agent and not finished). The documents
// under docs/ are read without their locks: a dependency written there
// while Remove runs can slip through.
// Nothing is written when it is refused. A list left without tasks stays,
// empty; a list left with only finished tasks is archived by the next
// operation of the List, as a finished list always is.
func (c *List) Remove(ctx context.Context, slug string, r taskdoc.Removal) (taskdoc.Task, error) {
	if err := checkSlug(slug); err != nil {
		return taskdoc.Task{}, err
	}
	var removed taskdoc.Task
	err := c.withList(ctx, listCall{}, func(s *state) error {
		if s.doc == nil {
			return noList(slug)
		}
		main := ""
		if len(s.doc.Tasks) > 0 && s.doc.Tasks[0].Slug == slug {
			main = mainWorkflowName(s.doc)
		}
		nd, task, err := c.flow.Remove(s.doc, slug, r, func() ([]string, error) {
			return taskflow.Dependents(ctx, c.ws, taskdoc.Address{Path: Address, Slug: slug})
		})
		if err != nil {
			return err
		}
		if nd, err = passMainWorkflow(nd, main); err != nil {
			return c.flow.At(err, slug)
		}
		removed = *task
		return s.writeDoc(nd)
	})
	return removed, err
}

// passMainWorkflow gives the list's new first task the Main-Workflow main
// of the first task removed, unless it has its own.
func passMainWorkflow(doc *taskdoc.Document, main string) (*taskdoc.Document, error) {
	if main == "" || len(doc.Tasks) == 0 {
		return doc, nil
	}
	first := doc.Tasks[0]
	if v, ok := first.Field(taskdoc.KeyMainWorkflow); ok && strings.TrimSpace(v) != "" {
		return doc, nil
	}
	nd, _, err := doc.SetField(first.Slug, taskdoc.KeyMainWorkflow, main)
	return nd, err
}
