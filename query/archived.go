package query

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// ArchivedDocuments returns the documents archived by hand
// (subagent.Tasks.Archive), every *.md file under archived/docs/, sorted by
// address, as Documents lists docs/. One that cannot be read or parsed is
// listed with its Error rather than failing the call. ReadArchived reads
// any of them by its File or Address.
func ArchivedDocuments(ctx context.Context, ws *workspace.Workspace) ([]Document, error) {
	return Archived(ctx, ws, taskflow.FolderArchivedDocs)
}

// ReadArchived returns the bytes of an archived file: a coordinator list
// or a document. name is root-relative
// ("archived/coordinator/active-2026-11-22-093000.md", as
// coordinator.List.Archive and Archives name it) or an address
// ("/archived/docs/api/auth.md", as ArchivedDocuments gives it); anything
// outside archived/ is INVALID_ADDRESS.
func ReadArchived(ctx context.Context, ws *workspace.Workspace, name string) ([]byte, error) {
	clean, err := archivedName(name)
	if err != nil {
		return nil, err
	}
	data, err := ws.ReadData(ctx, clean)
	return data, err
}

// archivedName checks that name lies inside archived/ and returns it
// root-relative.
func archivedName(name string) (string, error) {
	rel := strings.TrimPrefix(name, "/")
	if !strings.HasPrefix(rel, taskdoc.FolderArchived+"/") || path.Clean(rel) != rel ||
		strings.ContainsAny(rel, "\\\x00") || rel == taskdoc.FolderArchived+"/" {
		return "", &taskdoc.Error{
			Code: taskdoc.CodeInvalidAddress,
			Path: name,
			Msg:  fmt.Sprintf("%q is not an archived file: names start with archived/ and contain no . or .. elements", name),
		}
	}
	return rel, nil
}
