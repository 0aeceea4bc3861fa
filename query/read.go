package query

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// source is one document a query read: its root-relative file, its address
// path ("" when the file has none), and its parse or why there is none.
type source struct {
	file string
	addr string
	doc  *taskdoc.Document
	err  error
}

// readAll reads and parses every *.md file under dir and, when list, the
// coordinator list if there is one, sorted by address.
func readAll(ctx context.Context, ws *workspace.Workspace, dir string, list bool) ([]source, error) {
	var srcs []source
	err := ws.Walk(ctx, dir, func(name string, doc *taskdoc.Document, err error) error {
		srcs = append(srcs, newSource(name, doc, err))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if list {
		s, ok, err := readOne(ctx, ws, coordinator.File)
		if err != nil {
			return nil, err
		}
		if ok {
			srcs = append(srcs, s)
		}
	}
	sortSources(srcs)
	return srcs, nil
}

// readOne reads and parses one file; ok is false when it does not exist.
// Only ctx ending is an error: any other failure is the source's.
func readOne(ctx context.Context, ws *workspace.Workspace, file string) (source, bool, error) {
	data, _, err := ws.Read(ctx, file)
	switch {
	case ctx.Err() != nil:
		return source{}, false, err
	case errors.Is(err, fs.ErrNotExist) || taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound:
		return source{}, false, nil
	case err != nil:
		return newSource(file, nil, err), true, nil
	}
	doc, err := taskdoc.Parse(data)
	return newSource(file, doc, err), true, nil
}

func newSource(file string, doc *taskdoc.Document, err error) source {
	s := source{file: file, doc: doc, err: err}
	if a, aerr := taskdoc.AddressOfFile(file); aerr == nil {
		s.addr = a.Path
	}
	return s
}

// sortSources sorts by address; files without one go last, by name.
func sortSources(srcs []source) {
	sort.Slice(srcs, func(i, j int) bool {
		a, b := srcs[i], srcs[j]
		if (a.addr == "") != (b.addr == "") {
			return b.addr == ""
		}
		if a.addr != b.addr {
			return a.addr < b.addr
		}
		return a.file < b.file
	})
}

// folderOf is the folder to walk for an address prefix: "/api/" is
// docs/api, "/coordinator/" is coordinator.
func folderOf(prefix string) string {
	a := taskdoc.Address{Path: path.Join(prefix, "x.md")}
	return strings.TrimSuffix(path.Dir(a.File()), "/")
}
