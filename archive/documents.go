package archive

import (
	"context"

	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/workspace"
)

// DocumentEntry is one archived document: its address
// ("/archived/docs/api/auth.md"), root-relative file, title and task counts
// per status, or why it could not be read (see query.Document).
type DocumentEntry = query.Document

// Documents returns the documents archived by hand (Document), every *.md
// file under archived/docs/, sorted by address. One that cannot be read or
// parsed is listed with its Error rather than failing the call. Read reads
// any of them by its File or Address.
func Documents(ctx context.Context, ws *workspace.Workspace) ([]DocumentEntry, error) {
	return query.Archived(ctx, ws, docsDir)
}
