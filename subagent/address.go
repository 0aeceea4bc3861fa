package subagent

import (
	"fmt"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// target is a parsed caller address: what errors report, and the file.
type target = taskflow.Target

// taskTarget parses "/doc.md#slug", the address of one task.
func taskTarget(address string) (target, error) {
	t, err := parseTarget(address)
	if err != nil {
		return t, err
	}
	if t.Slug == "" {
		return t, &taskdoc.Error{Code: taskdoc.CodeSubagentRequiresSlug, Path: t.Path,
			Msg: fmt.Sprintf("%q names a document, not a task: subagent tasks are started and completed ad hoc, by address with #slug (like %s#implement-jwt-signing); use the coordinator for sequential work", address, t.Path)}
	}
	return t, nil
}

// documentTarget parses "/doc.md", the address of a document.
func documentTarget(document string) (target, error) {
	t, err := parseTarget(document)
	if err != nil {
		return t, err
	}
	if t.Slug != "" {
		return t, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: t.Path, Slug: t.Slug,
			Msg: fmt.Sprintf("%q names a task: give the document, %s, and the slug separately", document, t.Path)}
	}
	return t, nil
}

// parseTarget parses an address under docs/ (taskflow.ParseDocs).
func parseTarget(address string) (target, error) { return taskflow.ParseDocs(address) }
