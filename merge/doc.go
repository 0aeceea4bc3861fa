// Package merge is the task-aware three-way merge of taskmd documents:
// task by task and field by field, so that two branches that changed
// different tasks of one document, or different fields of one task, meet
// without a conflict and the result still parses.
package merge
