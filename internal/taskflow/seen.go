package taskflow

import (
	"context"
	"fmt"

	"github.com/taskmd/taskmd/taskdoc"
)

type seenKey struct{}

// seen is what WithSeen puts in a context.
type seen struct {
	slug   string
	status taskdoc.Status
}

// WithSeen returns ctx whose writes on a task are refused with CONFLICT,
// under the lock of the task's document, when the task is no longer in
// status: a person who acts on what a page showed never overwrites a
// newer state that the page did not show. slug, when not "", is the task
// the person acted on: a write that would land on another task (the
// coordinator list's next task is another by then) is CONFLICT too.
// CheckSeen is the check; the writes that make it are claims.Make (a
// document's tasks) and the coordinator list's Start, Complete and
// SetStatus.
func WithSeen(ctx context.Context, slug string, status taskdoc.Status) context.Context {
	return context.WithValue(ctx, seenKey{}, seen{slug, status})
}

// CheckSeen is WithSeen's check of task, of the document at path (its
// address, "/api/auth.md"), read under the document's lock. A ctx without
// WithSeen passes.
func CheckSeen(ctx context.Context, path string, task *taskdoc.Task) error {
	s, ok := ctx.Value(seenKey{}).(seen)
	if !ok {
		return nil
	}
	if s.slug != "" && s.slug != task.Slug {
		return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: path, Slug: s.slug,
			Msg: fmt.Sprintf("this would act on task %s#%s, not %s#%s as you saw it: look again and act on what it is now", path, task.Slug, path, s.slug)}
	}
	if task.Status == s.status {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: path, Slug: task.Slug,
		Msg: fmt.Sprintf("task %s#%s is %s now, not %s as you saw it: look again and act on what it is now", path, task.Slug, task.Status, s.status)}
}
