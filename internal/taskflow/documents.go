package taskflow

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Source is one document a workspace-wide read found: its root-relative
// file, its address path ("" when no address names the file), and its parse
// or why there is none. Package query answers from these, and Remove looks
// through them for the tasks that depend on the one it removes.
type Source struct {
	File    string
	Address string
	Doc     *taskdoc.Document
	Err     error
	// Known is set, with Doc and Err nil, for a file that ReadAllUnless's
	// known said needs no parse.
	Known bool
}

// ReadAll reads and parses every *.md file under dir and the files named
// in also (the coordinator's list: its name is the coordinator's), sorted
// by address; files without one go last, by name. A document that cannot
// be read or parsed is a Source with its Err; a file named in also that
// does not exist is left out. The call fails only when ctx ends or the
// root cannot be opened.
//
// The files are read on a small pool of goroutines without a lock: each is
// one whole version (the workspace replaces files atomically), but the
// result is no snapshot of all of them at one instant.
func ReadAll(ctx context.Context, ws *workspace.Workspace, dir string, also ...string) ([]Source, error) {
	return ReadAllUnless(ctx, ws, nil, dir, also...)
}

// ReadAllUnless is ReadAll, but a file whose bytes known reports known is
// not parsed: its Source is Known, without a Doc. known runs on the pool
// of readers, at once for several files.
func ReadAllUnless(ctx context.Context, ws *workspace.Workspace, known func(file string, data []byte) bool, dir string, also ...string) ([]Source, error) {
	names, failed, err := listFiles(ctx, ws, dir)
	if err != nil {
		return nil, err
	}
	names = append(names, also...)
	srcs, err := readFiles(ctx, ws, names, known)
	if err != nil {
		return nil, err
	}
	srcs = append(srcs, failed...)
	sort.Slice(srcs, func(i, j int) bool {
		a, b := srcs[i], srcs[j]
		if (a.Address == "") != (b.Address == "") {
			return b.Address == ""
		}
		if a.Address != b.Address {
			return a.Address < b.Address
		}
		return a.File < b.File
	})
	return srcs, nil
}

// ReadOne reads and parses one file; ok is false when it does not exist.
// Only ctx ending is an error: any other failure is the Source's.
func ReadOne(ctx context.Context, ws *workspace.Workspace, file string) (s Source, ok bool, err error) {
	return readOne(ctx, ws, file, nil)
}

// readOne is ReadOne, leaving a file known reports known unparsed.
func readOne(ctx context.Context, ws *workspace.Workspace, file string, known func(string, []byte) bool) (s Source, ok bool, err error) {
	data, err := ws.ReadData(ctx, file)
	switch {
	case ctx.Err() != nil:
		if err == nil {
			err = abandoned(file, ctx.Err())
		}
		return Source{}, false, err
	case errors.Is(err, fs.ErrNotExist) || taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound:
		return Source{}, false, nil
	case err != nil:
		return newSource(file, nil, err), true, nil
	}
	if known != nil && known(file, data) {
		s = newSource(file, nil, nil)
		s.Known = true
		return s, true, nil
	}
	doc, err := ws.Parse(file, data)
	return newSource(file, doc, err), true, nil
}

// FolderOf is the folder that holds the documents of an address prefix
// ending in "/": "/api/" is docs/api, "/coordinator/" (in any case) is
// coordinator.
func FolderOf(prefix string) string {
	a := taskdoc.Address{Path: path.Join(prefix, "x.md")}
	return strings.TrimSuffix(path.Dir(a.File()), "/")
}

// readers is the most files read and parsed at once: parsing is the cost,
// so one per CPU, and a few more to hide the reads.
func readers() int { return min(runtime.GOMAXPROCS(0)+2, 16) }

// readFiles reads and parses files on a small pool of goroutines; files
// that do not exist (any more) are left out.
func readFiles(ctx context.Context, ws *workspace.Workspace, files []string, known func(string, []byte) bool) ([]Source, error) {
	srcs := make([]Source, len(files))
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
				srcs[i], found[i], errs[i] = readOne(ctx, ws, files[i], known)
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
		return nil, abandoned("", err)
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
// of its root (Workspace.FS: nothing outside it is reached): names to read,
// and a Source for each folder that could not be listed. Links are not
// followed (the read of one named *.md reports it); a dir that does not
// exist has no files.
func listFiles(ctx context.Context, ws *workspace.Workspace, dir string) ([]string, []Source, error) {
	if err := ws.Check(); err != nil {
		return nil, nil, err
	}
	var names []string
	var failed []Source
	err := fs.WalkDir(ws.FS(), dir, func(name string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return abandoned(name, cerr)
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

func newSource(file string, doc *taskdoc.Document, err error) Source {
	s := Source{File: file, Doc: doc, Err: err}
	if a, aerr := taskdoc.AddressOfFile(file); aerr == nil {
		s.Address = a.Path
	}
	return s
}

func abandoned(name string, err error) error {
	msg := "read abandoned"
	if name != "" {
		msg = name + ": " + msg
	}
	return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name, Err: err, Msg: msg}
}
