package taskflow

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// Target is a parsed address of a document under docs/, or of one of its
// tasks: what errors report, and the file.
type Target struct {
	Path string // "/api/auth.md", as the caller wrote it
	Slug string // "" for a document address
	File string // "docs/api/auth.md"
}

// Flow is the task flow of the target's document.
func (t Target) Flow() Flow { return Flow{Path: t.Path, File: t.File} }

// Address is the target as an address: "/api/auth.md#slug", or the path
// alone.
func (t Target) Address() string {
	if t.Slug == "" {
		return t.Path
	}
	return t.Path + "#" + t.Slug
}

// ParseDocs parses the address of a document under docs/ or of one of its
// tasks, checking the folder before anything else, so that a coordinator
// address gets the error that points to the right system whether or not it
// has a slug. Addresses in /coordinator/ and /archived/ belong to other
// systems: a caller who writes them means the coordinator list or an
// archive, so they are refused (INVALID_NAMESPACE_FOR_SUBAGENT) rather than
// read as documents. Whether a slug is required is the caller's rule.
func ParseDocs(address string) (Target, error) {
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		path, slug, _ := strings.Cut(address, "#")
		return Target{Path: path, Slug: slug}, At(err, path, slug)
	}
	t := Target{Path: a.Path, Slug: a.Slug, File: a.File()}
	if folder := a.Folder(); folder != taskdoc.FolderDocs {
		first, _, _ := strings.Cut(strings.TrimPrefix(a.Path, "/"), "/")
		return t, &taskdoc.Error{Code: taskdoc.CodeInvalidNamespace, Path: a.Path, Slug: a.Slug,
			Msg: fmt.Sprintf("%s is in /%s/, which subagent and plan tasks do not use: they live in documents under %s/ (use the coordinator for /%s/, the archive for /%s/)",
				a.Path, first, taskdoc.FolderDocs, taskdoc.FolderCoordinator, taskdoc.FolderArchived)}
	}
	return t, nil
}

// FolderArchivedDocs is the root-relative folder of documents archived by
// hand from docs/ (subagent.Tasks.Archive writes it, query.ArchivedDocuments
// lists it): "archived/docs", keeping each document's path under docs/.
const FolderArchivedDocs = taskdoc.FolderArchived + "/" + taskdoc.FolderDocs
