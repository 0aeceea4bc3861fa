package workspace

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// Walk calls fn for every *.md file under dir (usually "docs"; "." is the
// whole root), in lexical order, with the file's parsed document, or with
// the error that kept it from being read or parsed: a broken, oversized,
// non-UTF-8 or unreadable document is reported, never skipped. A symbolic
// link is not followed; one named *.md is reported with SYMLINK_REFUSED.
// Anything else named *.md that is not a regular file (a named pipe, a
// socket, a device) is reported with IO_ERROR without being opened. A
// directory that cannot be read is reported as fn(dirName, nil, err).
// Temporary files are never visited. A dir that does not exist has nothing
// to visit.
//
// Walk sees the folders as they are while it walks: a file or folder that is
// removed or moved away (archived, say) after Walk listed its folder and
// before it reads it is gone, not broken, and is skipped without a call.
// Files added meanwhile may or may not be visited.
//
// Walk stops at the first error fn returns and returns it, except
// fs.SkipAll, which ends the walk without an error. It checks ctx before
// every file.
func (w *Workspace) Walk(ctx context.Context, dir string, fn func(name string, doc *taskdoc.Document, err error) error) error {
	if err := w.Check(); err != nil {
		return err
	}
	if err := ctxErr(ctx, dir); err != nil {
		return err
	}
	dir, err := checkDir(dir)
	if err != nil {
		return err
	}
	if _, err := fs.Stat(w.FS(), dir); err != nil {
		if taskdoc.CodeOf(fail(dir, "", err)) == taskdoc.CodeDocumentNotFound {
			return nil
		}
		return fail(dir, "walk", err)
	}
	err = fs.WalkDir(w.FS(), dir, func(name string, d fs.DirEntry, err error) error {
		if cerr := ctxErr(ctx, name); cerr != nil {
			return cerr
		}
		if err != nil {
			err = fail(name, "walk", err)
			if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
				return nil // gone since its folder was listed
			}
			return fn(name, nil, err)
		}
		if d.IsDir() || !strings.HasSuffix(name, ".md") || name == dir {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return fn(name, nil, symlinkRefused(name))
		}
		if !d.Type().IsRegular() {
			return fn(name, nil, notRegular(name, d.Type()))
		}
		doc, err := w.parse(name)
		if doc == nil && err == nil {
			return nil // gone since its folder was listed
		}
		return fn(name, doc, err)
	})
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// parse reads and parses name; a file that does not exist (any more) is
// nil and no error.
func (w *Workspace) parse(name string) (*taskdoc.Document, error) {
	data, _, err := w.read(name)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, nil
	}
	doc, err := w.Parse(name, data)
	if err != nil {
		var te *taskdoc.Error
		if errors.As(err, &te) && te.Path == "" {
			te.Path = name
		}
		return nil, err
	}
	return doc, nil
}
