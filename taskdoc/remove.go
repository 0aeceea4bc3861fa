package taskdoc

// Removal says how the task systems remove a task (Document.RemoveTask
// removes it whatever it holds; these are the systems' guards).
type Removal struct {
	// Force removes a task someone may be working on: one in progress,
	// planning or paused, or one whose Assignee names a holder while it is
	// not finished. Without it such a task is refused (INVALID_TRANSITION),
	// so that a script cleaning up cannot pull a task from under its agent.
	Force bool
	// IfVersion, when set, is the Task.Version the caller read; a task that
	// has changed since is CONFLICT and stays.
	IfVersion string
}

// KeyBlocked holds why a blocked task waits, as the task systems'
// SetStatus records it; a move out of blocked removes it.
const KeyBlocked = "Blocked"
