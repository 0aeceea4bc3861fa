package claims

import (
	"context"
	"fmt"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

type seenKey struct{}

// WithSeen returns ctx whose writes on a task through Make are refused
// with CONFLICT, under the document's lock, when the task's status is no
// longer seen: a person who acts on what a page showed never overwrites
// a newer state that the page did not show.
func WithSeen(ctx context.Context, seen taskdoc.Status) context.Context {
	return context.WithValue(ctx, seenKey{}, seen)
}

// checkSeen is WithSeen's check of task, found at t.
func checkSeen(ctx context.Context, t taskflow.Target, task *taskdoc.Task) error {
	seen, ok := ctx.Value(seenKey{}).(taskdoc.Status)
	if !ok || task.Status == seen {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: t.Path, Slug: t.Slug,
		Msg: fmt.Sprintf("task %s is %s now, not %s as you saw it: look again and act on what it is now", t.Address(), task.Status, seen)}
}
