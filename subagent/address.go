package subagent

import (
	"fmt"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// target is a parsed caller address: what errors report, and the file.
type target struct {
	path string // "/api/auth.md", as the caller wrote it
	slug string // "" for a document address
	name string // "docs/api/auth.md"
}

func (t target) flow() taskflow.Flow { return taskflow.Flow{Path: t.path, File: t.name} }

// taskTarget parses "/doc.md#slug", the address of one task.
func taskTarget(address string) (target, error) {
	t, err := parseTarget(address)
	if err != nil {
		return t, err
	}
	if t.slug == "" {
		return t, &taskdoc.Error{Code: taskdoc.CodeSubagentRequiresSlug, Path: t.path,
			Msg: fmt.Sprintf("%q names a document, not a task: subagent tasks are started and completed ad hoc, by address with #slug (like %s#implement-jwt-signing); use the coordinator for sequential work", address, t.path)}
	}
	return t, nil
}

// documentTarget parses "/doc.md", the address of a document.
func documentTarget(document string) (target, error) {
	t, err := parseTarget(document)
	if err != nil {
		return t, err
	}
	if t.slug != "" {
		return t, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: t.path, Slug: t.slug,
			Msg: fmt.Sprintf("%q names a task: give the document, %s, and the slug separately", document, t.path)}
	}
	return t, nil
}

// parseTarget parses an address under docs/ (taskflow.ParseDocs).
func parseTarget(address string) (target, error) {
	t, err := taskflow.ParseDocs(address)
	return target{path: t.Path, slug: t.Slug, name: t.File}, err
}
