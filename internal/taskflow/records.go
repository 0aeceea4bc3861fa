package taskflow

import (
	"fmt"

	"github.com/taskmd/taskmd/taskdoc"
)

// records are the fields the library writes as a record of a rule: the
// holder of a claim (Assignee, written by a claim, a release or an
// override), and a person's override (the Forced field of dependencies,
// the Override field of claims), which it trusts afterwards.
var records = []string{taskdoc.KeyAssignee, taskdoc.KeyForced, taskdoc.KeyOverride}

// CheckRecords refuses a create or an edit that adds or changes a record
// (records) in task after (before is the task as it was, nil for a new
// task), unless person is set (a person's override): such a field is
// written by the rule it records, never by the content a caller sends
// (INVALID_TASK naming it), so that nobody can skip a rule by writing
// "Forced:" into a task or hold one by writing "Assignee:". Dropping one
// is the content's to do (a person removing an Assignee lets the claim
// go).
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
			Msg: fmt.Sprintf("task %q in %s: its %s field is a record the library writes (a claim, a release, a person's override with --force), not a task's content; leave it out or as it was", after.Slug, f.Path, key)}
	}
	return nil
}
