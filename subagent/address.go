package subagent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// docsDir is the workspace folder that document addresses are relative to:
// "/api/auth.md" is the file docs/api/auth.md.
const docsDir = "docs"

// Folders that other systems own. Their addresses would map into docs/, but
// a caller who writes them means the coordinator list or an archive, so
// they are refused rather than silently created as documents.
var foreignNamespaces = []string{"coordinator", "archived"}

// target is a parsed caller address: what errors report, and the file.
type target struct {
	path string // "/api/auth.md", as the caller wrote it
	slug string // "" for a document address
	name string // "docs/api/auth.md"
}

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

// parseTarget checks the namespace before anything else, so that a
// coordinator address gets the error that points to the right system
// whether or not it has a slug.
func parseTarget(address string) (target, error) {
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		path, slug, _ := strings.Cut(address, "#")
		return target{path: path, slug: slug}, at(err, path, slug)
	}
	t := target{path: a.Path, slug: a.Slug, name: docsDir + a.Path}
	first, _, _ := strings.Cut(strings.TrimPrefix(a.Path, "/"), "/")
	for _, ns := range foreignNamespaces {
		if strings.EqualFold(first, ns) {
			return t, &taskdoc.Error{Code: taskdoc.CodeInvalidNamespace, Path: a.Path, Slug: a.Slug,
				Msg: fmt.Sprintf("%s is in /%s/, which subagent tasks do not use: they live in documents under docs/ (use the coordinator for /coordinator/, the archive for /archived/)", a.Path, first)}
		}
	}
	return t, nil
}

// at returns err as a *taskdoc.Error that carries the caller's path, and
// slug when the caller named a task: the workspace reports root-relative
// names ("docs/api/auth.md"), a caller thinks in addresses. The code, the
// cause are kept, and the message names the path.
func at(err error, path, slug string) error {
	if err == nil {
		return nil
	}
	var e *taskdoc.Error
	if !errors.As(err, &e) {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Path: path, Slug: slug, Err: err,
			Msg: fmt.Sprintf("%s: %v", path, err)}
	}
	copied := *e
	copied.Path = path
	if copied.Msg != "" && !strings.Contains(copied.Msg, path) {
		copied.Msg = path + ": " + copied.Msg
	}
	if slug != "" {
		copied.Slug = slug
	}
	return &copied
}
