package archive

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// docsDir holds documents archived by hand from docs/.
const docsDir = taskdoc.FolderArchived + "/" + taskdoc.FolderDocs

// Entry is one archived coordinator list.
type Entry = coordinator.Archived

// Coordinator archives coordinator/active.md whatever the state of its
// tasks, under the UTC second of now, and returns the archive's
// root-relative name; see coordinator.List.Archive. A missing list is
// DOCUMENT_NOT_FOUND.
func Coordinator(ctx context.Context, ws *workspace.Workspace, now time.Time) (string, error) {
	return coordinator.New(ws, coordinator.WithClock(func() time.Time { return now })).Archive(ctx)
}

// Recover finishes an archive of the coordinator list that a crash
// interrupted, naming a new archive by time.Now; see coordinator.List.Recover,
// which names it by the list's clock (coordinator.WithClock).
func Recover(ctx context.Context, ws *workspace.Workspace) error {
	return coordinator.New(ws).Recover(ctx)
}

// List returns the archived coordinator lists, newest first; see
// coordinator.List.Archives.
func List(ctx context.Context, ws *workspace.Workspace) ([]Entry, error) {
	return coordinator.New(ws).Archives(ctx)
}

// Read returns the bytes of an archived file. name is root-relative
// ("archived/coordinator/active-2026-11-22-093000.md", as Coordinator and
// List return it) or an address ("/archived/..."); anything outside
// archived/ is INVALID_ADDRESS.
func Read(ctx context.Context, ws *workspace.Workspace, name string) ([]byte, error) {
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
