package query

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Document is one task document of a workspace and how many of its tasks
// are in each status.
type Document struct {
	Address string `json:"address"` // "/api/auth.md", "/coordinator/active.md"
	File    string `json:"file"`    // root-relative: "docs/api/auth.md"
	Title   string `json:"title"`   // its first level-1 heading, or ""
	Tasks   int    `json:"tasks"`   // tasks in its Tasks section
	// Counts is how many tasks are in each status; a status no task has is
	// absent. A Status value written by hand that is no known status is
	// counted under its own spelling. It is never nil: a document that
	// could not be read has empty Counts ({} in JSON, never null).
	Counts map[taskdoc.Status]int `json:"counts"`
	// Error is why the document could not be read or parsed (then only
	// Address and File are set), and Code its error code; "" when it was.
	Error string       `json:"error,omitempty"`
	Code  taskdoc.Code `json:"code,omitempty"`
}

// Documents returns every document under docs/ (*.md, in every folder) and
// the coordinator list when there is one, sorted by address. A document
// that cannot be read or parsed is in the list with its Error rather than
// failing the call; a file under docs/ that no address can name (see
// taskdoc.AddressOfFile) is listed the same way. The call fails only when
// ctx ends or the workspace cannot be walked. WithIndex keeps the
// summaries for the next process.
func Documents(ctx context.Context, ws *workspace.Workspace, opts ...Option) ([]Document, error) {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.index {
		return indexedDocuments(ctx, ws)
	}
	return summarise(taskflow.ReadAll(ctx, ws, taskdoc.FolderDocs, coordinator.File))
}

// summarise is the Document of every source read.
func summarise(srcs []taskflow.Source, err error) ([]Document, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Document, len(srcs))
	// A summary reads every task of its document, which is cold in memory
	// by now: the cores share the work.
	parts := min(runtime.GOMAXPROCS(0), len(srcs)/summariesAPart+1)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			for i := p * len(srcs) / parts; i < (p+1)*len(srcs)/parts; i++ {
				out[i] = summaryOf(srcs[i])
			}
		})
	}
	wg.Wait()
	return out, nil
}

// summariesAPart is how many summaries make a goroutine's work worth its
// start.
const summariesAPart = 256

// summariseFile is the Document of the file named file (root-relative), parsed
// as doc, or that failed with err: the summary Documents gives, for
// packages that list documents elsewhere (archived ones).
func summariseFile(file string, doc *taskdoc.Document, err error) Document {
	var address string
	if a, aerr := taskdoc.AddressOfFile(file); aerr == nil {
		address = a.Path
	} else if err == nil {
		err = aerr
	}
	return summary(file, address, doc, err)
}

// summaryOf is the summary of a source read by taskflow, with the address
// it already found; a file no address names is summariseFile's, which says
// why.
func summaryOf(s taskflow.Source) Document {
	if s.Address == "" {
		return summariseFile(s.File, s.Doc, s.Err)
	}
	return summary(s.File, s.Address, s.Doc, s.Err)
}

// summary is summariseFile of a file whose address is known.
func summary(file, address string, doc *taskdoc.Document, err error) Document {
	d := Document{File: file, Address: address, Counts: map[taskdoc.Status]int{}}
	if err != nil || doc == nil {
		if err == nil {
			err = &taskdoc.Error{Code: taskdoc.CodeParse, Path: file, Msg: file + " was not parsed"}
		}
		d.Error, d.Code = err.Error(), taskdoc.CodeOf(err)
		if d.Code == "" {
			d.Code = taskdoc.CodeIO
		}
		return d
	}
	d.Title = doc.Title()
	d.Tasks = len(doc.Tasks)
	for i := range doc.Tasks {
		d.Counts[doc.Tasks[i].Status]++
	}
	return d
}

// Archived returns the documents under dir, a folder of archived/
// ("archived/docs"), as Documents lists docs/: ArchivedDocuments lists the
// documents subagent archived with it.
func Archived(ctx context.Context, ws *workspace.Workspace, dir string) ([]Document, error) {
	if !strings.HasPrefix(dir, taskdoc.FolderArchived+"/") && dir != taskdoc.FolderArchived {
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: dir,
			Msg: fmt.Sprintf("%q is not a folder of %s/", dir, taskdoc.FolderArchived)}
	}
	return summarise(taskflow.ReadAll(ctx, ws, dir))
}
