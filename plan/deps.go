package plan

import (
	"context"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// allDone reports whether every dependency is completed or skipped.
func allDone(deps []taskflow.Dependency) bool {
	for _, d := range deps {
		if !d.Done() {
			return false
		}
	}
	return true
}

// checkClaimable refuses the claim of tk, a pending task of doc, while its
// dependencies are not done (TASK_BLOCKED; see taskflow.Resolver.CheckReady):
// the start it leads to would be refused. A task that was started (in
// progress, planning, paused) may be claimed whatever its dependencies,
// since NextTasks offers it when it is stranded.
func (p *Plans) checkClaimable(ctx context.Context, t taskflow.Target, doc *taskdoc.Document, tk *taskdoc.Task) error {
	if tk.Status != taskdoc.StatusPending {
		return nil
	}
	_, err := t.Flow().Resolver(ctx, p.ws).CheckReady(doc, t.Slug, taskdoc.MoveStart, "", false)
	return err
}

// checkMove is doc with the dependencies of task t checked for the move
// of an UpdateStatus to status (see taskflow.Resolver.CheckReady): as it
// is, with the override recorded when force is set, or TASK_BLOCKED.
func (p *Plans) checkMove(ctx context.Context, t taskflow.Target, doc *taskdoc.Document, status taskdoc.Status, force bool) (*taskdoc.Document, error) {
	move := taskdoc.MoveUpdate
	if status == taskdoc.StatusCompleted {
		move = taskdoc.MoveComplete
	}
	return t.Flow().Resolver(ctx, p.ws).CheckReady(doc, t.Slug, move, status, force)
}

// checkPlanning is checkMove for SetApproach, which moves a pending task
// to planning and leaves any other where it is.
func (p *Plans) checkPlanning(ctx context.Context, t taskflow.Target, doc *taskdoc.Document, tk *taskdoc.Task) (*taskdoc.Document, error) {
	if tk.Status != taskdoc.StatusPending {
		return doc, nil
	}
	return p.checkMove(ctx, t, doc, taskdoc.StatusPlanning, false)
}
