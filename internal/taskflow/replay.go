package taskflow

import (
	"strings"

	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
)

// Replays reports whether completing task with note again is a retry of the
// call that completed it: the task is completed and holds that note (as
// Complete records it, on one line). Such a call is answered with the
// earlier result, so an agent whose answer was lost can send the call again
// without an error and without completing anything twice.
func Replays(task *taskdoc.Task, note string) bool {
	if task.Status != taskdoc.StatusCompleted {
		return false
	}
	recorded, ok := task.Field(taskdoc.KeyNote)
	return ok && SameNote(recorded, note)
}

// SameNote reports whether recorded, a completion's Note field, is note
// as a completion records it (on one line): whether a call with note
// repeats that completion.
func SameNote(recorded, note string) bool {
	return recorded == plaintext.FoldLine(note)
}

// CheckRequestKey refuses a request key that cannot be written as one
// metadata value: empty after trimming is no key; a key holds no line
// break or control character and at most 128 bytes.
func (f Flow) CheckRequestKey(key string) error {
	if len(key) <= 128 && !strings.ContainsFunc(key, plaintext.IsControl) {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: f.Path,
		Msg: "a request key is one line of at most 128 bytes without control characters"}
}

// Requested returns the task of doc that records request key (whatever its
// status now: a task reopened since keeps the key), or nil.
func Requested(doc *taskdoc.Document, key string) *taskdoc.Task {
	if doc == nil || key == "" {
		return nil
	}
	for i := range doc.Tasks {
		if v, ok := doc.Tasks[i].Field(taskdoc.KeyRequest); ok && v == key {
			return &doc.Tasks[i]
		}
	}
	return nil
}
