package plan

import (
	"context"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// resolver finds the tasks that Depends-On fields name, reading each
// other document once, without its lock.
type resolver struct {
	ctx  context.Context
	ws   *workspace.Workspace
	path string            // the plan's own address, "/api/auth.md"
	doc  *taskdoc.Document // the plan
	docs map[string]*taskdoc.Document
}

func newResolver(ctx context.Context, ws *workspace.Workspace, path string, doc *taskdoc.Document) *resolver {
	return &resolver{ctx: ctx, ws: ws, path: path, doc: doc, docs: map[string]*taskdoc.Document{}}
}

// dependency is one dependency of a task, resolved.
type dependency struct {
	address string        // "/api/auth.md#slug"
	task    *taskdoc.Task // nil when no task has the address (or its document does not read)
}

// done reports whether the dependency is completed or skipped.
func (d dependency) done() bool { return d.task != nil && d.task.Status.Final() }

// of resolves the Depends-On field of t. A field that does not read is
// returned as its error.
func (r *resolver) of(t *taskdoc.Task) ([]dependency, error) {
	deps, err := t.Dependencies()
	if err != nil || len(deps) == 0 {
		return nil, err
	}
	out := make([]dependency, len(deps))
	for i, d := range deps {
		doc, path := r.doc, r.path
		if d.Document != "" && d.Document != r.path {
			doc, path = r.load(d.Document), d.Document
		}
		out[i].address = path + "#" + d.Slug
		if doc != nil {
			out[i].task, _ = doc.Task(d.Slug)
		}
	}
	return out, nil
}

// load reads the document at path ("/api/other.md"); nil when it does not
// read.
func (r *resolver) load(path string) *taskdoc.Document {
	if doc, ok := r.docs[path]; ok {
		return doc
	}
	var doc *taskdoc.Document
	if a, err := taskdoc.ParseAddress(path); err == nil && a.Folder() == taskdoc.FolderDocs {
		if src, err := r.ws.ReadData(r.ctx, a.File()); err == nil {
			doc, _ = r.ws.Parse(a.File(), src)
		}
	}
	r.docs[path] = doc
	return doc
}

// allDone reports whether every dependency is completed or skipped.
func allDone(deps []dependency) bool {
	for _, d := range deps {
		if !d.done() {
			return false
		}
	}
	return true
}
