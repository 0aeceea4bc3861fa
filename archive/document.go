package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Document moves a docs document to archived/docs/ by hand, keeping its path:
// "/api/auth.md" (the address of <root>/docs/api/auth.md) goes to
// archived/docs/api/auth.md, or auth-2.md, auth-3.md, ... when that name is
// taken. It returns the archive's root-relative name. The document is moved
// whatever the state of its tasks; its bytes are not changed.
//
// document must be a document address: a task address ("#slug") or one
// under /coordinator/ or /archived/ is INVALID_ADDRESS; a missing document is
// DOCUMENT_NOT_FOUND.
//
// As with Coordinator, the copy is durable before the document is removed.
// If a crash leaves both, calling Document again finds the archive with
// identical bytes, keeps it and only removes the document.
func Document(ctx context.Context, ws *workspace.Workspace, document string) (string, error) {
	source, base, err := documentNames(document)
	if err != nil {
		return "", err
	}
	var name string
	err = ws.Lock(ctx, []string{source}, func(tx *workspace.Tx) error {
		data, _, err := tx.Read(source)
		if err != nil {
			return err
		}
		if name, err = placeDocument(tx, base, data); err != nil {
			return err
		}
		return removeUnchanged(tx, source, data)
	})
	if err != nil {
		return "", err
	}
	return name, nil
}

// documentNames returns the root-relative name of the document and the
// archive name without its ".md".
func documentNames(document string) (source, base string, err error) {
	addr, err := taskdoc.ParseAddress(document)
	if err != nil {
		return "", "", err
	}
	if addr.Slug != "" || strings.HasPrefix(addr.Path, "/coordinator/") || strings.HasPrefix(addr.Path, "/archived/") {
		return "", "", &taskdoc.Error{
			Code: taskdoc.CodeInvalidAddress,
			Path: document,
			Msg:  fmt.Sprintf("%s is not a docs document: archive a document by its address, like /api/auth.md", document),
		}
	}
	rel := strings.TrimPrefix(addr.Path, "/")
	return path.Join("docs", rel), path.Join(DocsDir, strings.TrimSuffix(rel, ".md")), nil
}

// placeDocument writes data to the first free name base.md, base-2.md, ...,
// unless one of the taken names before it already holds exactly data (an
// archive cut short by a crash), which is then reused. A name taken by
// something that cannot be read (a folder, a link, a file that is not
// UTF-8) is passed over like any other taken name.
func placeDocument(tx *workspace.Tx, base string, data []byte) (string, error) {
	for n := 1; n <= maxClash; n++ {
		name := clashName(base, n)
		existing, _, err := tx.Read(name)
		switch {
		case err == nil && bytes.Equal(existing, data):
			return name, nil
		case err == nil:
			continue
		case !isNotExist(err):
			if taskdoc.CodeOf(err) == taskdoc.CodeOutsideRoot {
				return "", err
			}
			continue
		}
		err = tx.Create(name, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return name, nil
	}
	return "", &taskdoc.Error{
		Code: taskdoc.CodeConflict,
		Path: base + ".md",
		Msg:  fmt.Sprintf("no free archive name for %s.md after %d tries", base, maxClash),
	}
}
