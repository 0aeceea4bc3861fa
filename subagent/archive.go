package subagent

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Archive moves a docs document to archived/docs/ by hand, keeping its path:
// "/api/auth.md" (the address of <root>/docs/api/auth.md) goes to
// archived/docs/api/auth.md, or auth-2.md, auth-3.md, ... when that name is
// taken. It returns the archive's root-relative name. The document is moved
// whatever the state of its tasks, unless an agent holds one of them
// (package plan): a plan with claimed work is archived once its agents let
// go (STALE_CLAIM naming the task and its holder; nothing is moved). Its
// bytes are not changed.
//
// document must be a document address: a task address ("#slug") or one
// under /coordinator/ or /archived/ is INVALID_ADDRESS; a missing document is
// DOCUMENT_NOT_FOUND.
//
// As with the coordinator's list (coordinator.List.Archive), the copy is
// durable before the document is removed (workspace.Tx.MoveAside), and the
// document is removed only if it still holds the archived bytes (an edit
// saved meanwhile is kept, CONFLICT). If a crash leaves both, calling
// Archive again finds the archive with identical bytes, keeps it and only
// removes the document. query.ArchivedDocuments lists the archived
// documents, query.ReadArchived reads one.
func (s *Tasks) Archive(ctx context.Context, document string) (string, error) {
	addr, err := taskdoc.ParseAddress(document)
	if err != nil {
		return "", err
	}
	if addr.Slug != "" || addr.Folder() != taskdoc.FolderDocs {
		return "", &taskdoc.Error{
			Code: taskdoc.CodeInvalidAddress,
			Path: document,
			Msg:  fmt.Sprintf("%s is not a docs document: archive a document by its address, like /api/auth.md", document),
		}
	}
	source := addr.File()
	base := path.Join(taskflow.FolderArchivedDocs, strings.TrimSuffix(strings.TrimPrefix(addr.Path, "/"), ".md"))
	claimsName, err := claims.Name(s.ws, source)
	if err != nil {
		return "", err
	}
	var name string
	err = s.ws.Lock(ctx, []string{source, claimsName}, func(tx *workspace.Tx) error {
		data, err := tx.ReadData(source)
		if err != nil {
			return err
		}
		if err := checkFree(tx, s.ws, addr.Path, source, claimsName, data); err != nil {
			return err
		}
		name, err = tx.MoveAside(source, data, base)
		return err
	})
	if err != nil {
		return "", err
	}
	return name, nil
}

// checkFree refuses, under the locks of document file and its claims, a
// document one of whose tasks an agent holds (claims.File.Holder).
func checkFree(tx *workspace.Tx, ws *workspace.Workspace, path, file, claimsName string, data []byte) error {
	st, _, err := claims.Read(tx, file, claimsName)
	if err != nil || len(st.Tasks) == 0 {
		return err
	}
	doc, err := ws.Parse(file, data)
	if err != nil {
		return nil // a document that does not parse holds no task to fence
	}
	for _, t := range doc.Tasks {
		assignee, _ := t.Field(taskdoc.KeyAssignee)
		if holder := st.Holder(t.Slug, assignee); holder != "" {
			return &taskdoc.Error{Code: claims.CodeStaleClaim, Path: path, Slug: t.Slug,
				Msg: fmt.Sprintf("%s is not archived: agent %s holds its task %q (claim %d); archive it once its agents let go (a release, a completion, or a person's override); nothing was moved", path, holder, t.Slug, st.Record(t.Slug).Token)}
		}
	}
	return nil
}
