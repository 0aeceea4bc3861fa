package claims

import (
	"context"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// WithSeen returns ctx whose writes on task slug are refused with
// CONFLICT, under the document's lock, when the task is no longer in
// status, or when the write would land on another task: a person who acts
// on what a page showed never overwrites a newer state that the page did
// not show. Make checks it for a document's tasks and the coordinator
// list's Start, Complete and SetStatus for its own (taskflow.CheckSeen, the
// one check).
func WithSeen(ctx context.Context, slug string, status taskdoc.Status) context.Context {
	return taskflow.WithSeen(ctx, slug, status)
}
