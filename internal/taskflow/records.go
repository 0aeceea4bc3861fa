package taskflow

import (
	"fmt"

	"github.com/taskmd/taskmd/taskdoc"
)

// records are the fields that record a person's override (the Forced field
// of dependencies, the Override field of claims): the library writes
// them, and trusts the Forced field afterwards.
var records = []string{taskdoc.KeyForced, taskdoc.KeyOverride}

// CheckRecords refuses a create or an edit that adds or changes an
// override's record in task after (before is the task as it was, nil for
// a new task), unless person is set (a person's override): such a field is
// written by the override itself, never by the content a caller sends
// (INVALID_TASK naming it), so that nobody can skip a rule by writing
// "Forced:" into a task.
func (f Flow) CheckRecords(before, after *taskdoc.Task, person bool) error {
	if person {
		return nil
	}
	for _, key := range records {
		v, ok := after.Field(key)
		if !ok {
			continue
		}
		if before != nil {
			if was, had := before.Field(key); had && was == v {
				continue
			}
		}
		return &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: f.Path, Slug: after.Slug,
			Msg: fmt.Sprintf("task %q in %s: its %s field records a person's override and is written by the override itself (taskmd --force), not by a task's content; leave it out or as it was", after.Slug, f.Path, key)}
	}
	return nil
}
