package taskflow

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// Remove removes task slug from doc and returns the new document and the
// task as it was. Every byte outside the task's span stays as it was
// (taskdoc.Document.RemoveTask).
//
// The rules, checked in this order, each refusing with nothing removed:
//   - a task that does not exist is TASK_NOT_FOUND: a retry of a removal
//     that succeeded gets it, and changes nothing;
//   - with r.IfVersion, a task that changed since is CONFLICT;
//   - a task other tasks of the document depend on (Depends-On "#slug" or
//     an address of the document) is INVALID_TASK naming them: removing it
//     would leave them waiting for nothing, and their next edit refused
//     (CheckDependencies), so their Depends-On changes first, even with
//     r.Force. A Depends-On with an entry that is no task address still
//     names the tasks its other entries name (see DependsOn);
//   - unless r.Force, a task that tasks of other documents depend on (by
//     its full address) is INVALID_TASK naming them; elsewhere, called
//     only when the checks before it passed, finds them (see Dependents).
//     A dangling dependency on another document blocks none of its edits,
//     so forcing is the caller's choice to leave it;
//   - unless r.Force, a task someone may be working on is
//     INVALID_TRANSITION: in progress, planning or paused, or held (an
//     Assignee) while not completed, skipped or failed. Set its status
//     first (pending, skipped), or force.
func (f Flow) Remove(doc *taskdoc.Document, slug string, r taskdoc.Removal, elsewhere func() ([]string, error)) (*taskdoc.Document, *taskdoc.Task, error) {
	task, err := doc.Task(slug)
	if err != nil {
		return nil, nil, f.At(err, slug)
	}
	if err := task.CheckVersion(f.Path, r.IfVersion); err != nil {
		return nil, nil, err
	}
	if deps := f.dependents(doc, slug); len(deps) > 0 {
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s cannot be removed: %s depend on it; change their %s first",
				slug, f.Path, strings.Join(deps, ", "), taskdoc.KeyDependsOn)}
	}
	if elsewhere != nil && !r.Force {
		deps, err := elsewhere()
		if err != nil {
			return nil, nil, f.At(err, slug)
		}
		if len(deps) > 0 {
			return nil, nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: f.Path, Slug: slug,
				Msg: fmt.Sprintf("task %q in %s cannot be removed: %s in other documents depend on it; change their %s first, or force the removal",
					slug, f.Path, strings.Join(deps, ", "), taskdoc.KeyDependsOn)}
		}
	}
	if why := busy(task); why != "" && !r.Force {
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: f.Path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s %s: someone may be working on it; set its status first, or force the removal", slug, f.Path, why)}
	}
	removed := *task
	nd, err := doc.RemoveTask(slug)
	if err != nil {
		return nil, nil, f.At(err, slug)
	}
	return nd, &removed, nil
}

// busy says why someone may be working on task, or "".
func busy(task *taskdoc.Task) string {
	switch task.Status {
	case taskdoc.StatusInProgress, taskdoc.StatusPlanning, taskdoc.StatusPaused:
		return "is " + string(task.Status)
	case taskdoc.StatusCompleted, taskdoc.StatusSkipped, taskdoc.StatusFailed:
		return ""
	}
	if who, _ := task.Field(taskdoc.KeyAssignee); strings.TrimSpace(who) != "" {
		return "is held by " + strings.TrimSpace(who)
	}
	return ""
}

// dependents lists, as "#slug", the other tasks of doc whose Depends-On
// names slug in f's document.
func (f Flow) dependents(doc *taskdoc.Document, slug string) []string {
	var out []string
	self := taskdoc.Address{Path: f.Path, Slug: slug}
	for i := range doc.Tasks {
		t := &doc.Tasks[i]
		if t.Slug != slug && DependsOn(t, self.File(), self) {
			out = append(out, "#"+t.Slug)
		}
	}
	return out
}
