package query

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

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
	names, failed, err := listFiles(ctx, ws, dir)
	if err != nil {
		return nil, err
	}
	if list {
		names = append(names, coordinator.File)
	}
	srcs, err := readFiles(ctx, ws, names)
	if err != nil {
		return nil, err
	}
	srcs = append(srcs, failed...)
	sortSources(srcs)
	return srcs, nil
}

// readers is the most files read and parsed at once: parsing is the cost,
// so one per CPU, and a few more to hide the reads.
func readers() int { return min(runtime.GOMAXPROCS(0)+2, 16) }

// readFiles reads and parses files on a small pool of goroutines; files
// that do not exist (any more) are left out.
func readFiles(ctx context.Context, ws *workspace.Workspace, files []string) ([]source, error) {
	srcs := make([]source, len(files))
	found := make([]bool, len(files))
	errs := make([]error, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(readers(), len(files)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) || ctx.Err() != nil {
					return
				}
				srcs[i], found[i], errs[i] = readOne(ctx, ws, files[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		for _, e := range errs {
			if e != nil {
				return nil, e
			}
		}
		return nil, &taskdoc.Error{Code: taskdoc.CodeIO, Path: "", Err: err, Msg: "query abandoned"}
	}
	out := srcs[:0]
	for i, s := range srcs {
		if found[i] {
			out = append(out, s)
		}
	}
	return out, nil
}

// listFiles returns the *.md files under dir, in the workspace's own view
// of its root (an os.Root: nothing outside it is reached): names to read,
// and a source for each folder that could not be listed. Links are not
// followed (the read of one named *.md reports it); a dir that does not
// exist has no files.
func listFiles(ctx context.Context, ws *workspace.Workspace, dir string) ([]string, []source, error) {
	root, err := os.OpenRoot(ws.Root())
	if err != nil {
		return nil, nil, &taskdoc.Error{Code: taskdoc.CodeIO, Path: dir, Err: err, Msg: "open the workspace root"}
	}
	defer root.Close()
	var names []string
	var failed []source
	err = fs.WalkDir(root.FS(), dir, func(name string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name, Err: cerr, Msg: name + ": query abandoned"}
		}
		switch {
		case err != nil && name == dir && errors.Is(err, fs.ErrNotExist):
			return fs.SkipAll
		case errors.Is(err, fs.ErrNotExist):
			return nil // gone since its folder was listed
		case err != nil:
			failed = append(failed, newSource(name, nil, &taskdoc.Error{Code: taskdoc.CodeIO, Path: name, Err: err,
				Msg: "list " + name}))
			return nil
		case !d.IsDir() && strings.HasSuffix(name, ".md"):
			names = append(names, name)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return names, failed, nil
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
