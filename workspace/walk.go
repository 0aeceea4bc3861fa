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
// the error that kept it from being read or parsed: a broken, oversized or
// non-UTF-8 document is reported, never skipped. A symbolic link is not
// followed; one named *.md is reported with SYMLINK_REFUSED. A directory
// that cannot be read is reported as fn(dirName, nil, err). Temporary files
// are never visited. A dir that does not exist has nothing to visit.
//
// Walk stops at the first error fn returns and returns it, except
// fs.SkipAll, which ends the walk without an error. It checks ctx before
// every file.
func (w *Workspace) Walk(ctx context.Context, dir string, fn func(name string, doc *taskdoc.Document, err error) error) error {
	if err := ctxErr(ctx, dir); err != nil {
		return err
	}
	dir, err := checkDir(dir)
	if err != nil {
		return err
	}
	if _, err := fs.Stat(w.root.FS(), dir); err != nil {
		if taskdoc.CodeOf(fail(dir, "", err)) == taskdoc.CodeDocumentNotFound {
			return nil
		}
		return fail(dir, "walk", err)
	}
	err = fs.WalkDir(w.root.FS(), dir, func(name string, d fs.DirEntry, err error) error {
		if cerr := ctxErr(ctx, name); cerr != nil {
			return cerr
		}
		if err != nil {
			return fn(name, nil, fail(name, "walk", err))
		}
		if d.IsDir() || !strings.HasSuffix(name, ".md") || name == dir {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return fn(name, nil, symlinkRefused(name))
		}
		if !d.Type().IsRegular() {
			return nil
		}
		doc, err := w.parse(name)
		return fn(name, doc, err)
	})
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

func (w *Workspace) parse(name string) (*taskdoc.Document, error) {
	data, _, err := w.read(name)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, fail(name, "walk", fs.ErrNotExist)
	}
	doc, err := taskdoc.Parse(data)
	if err != nil {
		var te *taskdoc.Error
		if errors.As(err, &te) && te.Path == "" {
			te.Path = name
		}
		return nil, err
	}
	return doc, nil
}
