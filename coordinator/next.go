package coordinator

import "github.com/taskmd/taskmd/taskdoc"

// Next is the task Start would take in the list doc: the task in
// progress, else the first pending one. When there is none it is
// NO_AVAILABLE_TASKS naming the tasks that wait (blocked, paused, ...).
// An editor offers "start" for this task only, as the list is sequential.
func Next(doc *taskdoc.Document) (*taskdoc.Task, error) { return next(doc) }

// CheckMainWorkflow is MAIN_WORKFLOW_REQUIRED when the first task of the
// list doc has no Main-Workflow field, the rule Create and Edit enforce
// on every change that would take it from a valid list.
func CheckMainWorkflow(doc *taskdoc.Document) error { return checkMainWorkflow(doc) }
