package subagent

import (
	"fmt"
	"strings"

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

// parseTarget checks the folder before anything else, so that a
// coordinator address gets the error that points to the right system
// whether or not it has a slug. Addresses in /coordinator/ and /archived/
// belong to other systems: a caller who writes them means the coordinator
// list or an archive, so they are refused rather than read as documents.
func parseTarget(address string) (target, error) {
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		path, slug, _ := strings.Cut(address, "#")
		return target{path: path, slug: slug}, taskflow.At(err, path, slug)
	}
	t := target{path: a.Path, slug: a.Slug, name: a.File()}
	if folder := a.Folder(); folder != taskdoc.FolderDocs {
		first, _, _ := strings.Cut(strings.TrimPrefix(a.Path, "/"), "/")
		return t, &taskdoc.Error{Code: taskdoc.CodeInvalidNamespace, Path: a.Path, Slug: a.Slug,
			Msg: fmt.Sprintf("%s is in /%s/, which subagent tasks do not use: they live in documents under %s/ (use the coordinator for /%s/, the archive for /%s/)",
				a.Path, first, taskdoc.FolderDocs, taskdoc.FolderCoordinator, taskdoc.FolderArchived)}
	}
	return t, nil
}
