package workspace

import (
	"context"
	"fmt"

	"github.com/taskmd/taskmd/taskdoc"
)

// UpdateDocument is Update for a Markdown document: fn gets the file's
// parse (Parse, so from the cache when the workspace holds its bytes; nil
// when there is no such file) and returns the document to write (nil, or
// doc itself, for no change). What it writes is kept as the file's parse,
// so that the next read of it is not parsed again. Parse errors are
// returned as taskdoc.Parse gives them, for the caller to name.
func (w *Workspace) UpdateDocument(ctx context.Context, name string, fn func(doc *taskdoc.Document) (*taskdoc.Document, error)) error {
	var next *taskdoc.Document
	err := w.rewrite(ctx, name, func(current []byte, exists bool) ([]byte, error) {
		var doc *taskdoc.Document
		if exists {
			var err error
			if doc, err = w.Parse(name, current); err != nil {
				return nil, err
			}
		}
		nd, err := fn(doc)
		if err != nil || nd == nil || nd == doc {
			return nil, err
		}
		next = nd
		return nd.Source, nil
	})
	if err == nil && next != nil {
		w.remember(name, next)
	}
	return err
}

// WriteDocument is Write of doc.Source, keeping doc as the file's parse
// so that the next read of it is not parsed again.
func (tx *Tx) WriteDocument(name string, doc *taskdoc.Document) error {
	if err := tx.check(name, true); err != nil {
		return err
	}
	if doc == nil {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: name,
			Msg: fmt.Sprintf("write %s: no document to write", name)}
	}
	if err := tx.Write(name, doc.Source); err != nil {
		return err
	}
	tx.w.remember(name, doc)
	return nil
}
