package taskflow

import (
	"bytes"
	"context"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// DependsOn reports whether t, a task of the document in file
// (root-relative), lists dep, a task address, in its Depends-On: as
// "#slug" when dep is in the same file, or by an address of dep's file
// (the /coordinator/ and /archived/ folders in any case, as
// taskdoc.Address.File reads them). It is the one reading of Depends-On
// that Remove and package query share.
//
// An entry that is not a task address names nothing, but the other
// entries of the field still count: a field written badly by hand in one
// place must not hide a dependency written well next to it (Remove would
// otherwise leave that task waiting for nothing).
func DependsOn(t *taskdoc.Task, file string, dep taskdoc.Address) bool {
	want := dep.File()
	for _, d := range t.ValidDependencies() {
		in := file
		if d.Document != "" {
			in = taskdoc.Address{Path: d.Document}.File()
		}
		if d.Slug == dep.Slug && in == want {
			return true
		}
	}
	return false
}

// Dependents returns the addresses of the tasks in other documents that
// depend on the task at dep (see DependsOn): those of every document under
// docs/ and coordinator/ (the coordinator's list), without dep's own
// document, which the caller checks under its lock. A document that does
// not hold "#" and dep's slug names no such dependency and is not parsed.
// A document that cannot be read or parsed is passed over: it names no
// dependency anyone could follow. Only ctx ending, or a root that cannot
// be read, fails the call.
//
// The documents are read without their locks (see ReadAll), so the answer
// is what they held at some instant during the call: a dependency written
// meanwhile may be missed.
func Dependents(ctx context.Context, ws *workspace.Workspace, dep taskdoc.Address) ([]string, error) {
	mark := []byte("#" + dep.Slug)
	unnamed := func(_ string, data []byte) bool { return !bytes.Contains(data, mark) }
	srcs, err := ReadAllUnless(ctx, ws, unnamed, taskdoc.FolderDocs)
	if err != nil {
		return nil, err
	}
	lists, err := ReadAllUnless(ctx, ws, unnamed, taskdoc.FolderCoordinator)
	if err != nil {
		return nil, err
	}
	srcs = append(srcs, lists...)
	own, err := ws.Canonical(dep.File())
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range srcs {
		if s.Doc == nil || s.Address == "" {
			continue
		}
		if c, err := ws.Canonical(s.File); err != nil || c == own {
			continue
		}
		for i := range s.Doc.Tasks {
			t := &s.Doc.Tasks[i]
			if dependsOnAlias(ws, t, dep, own) {
				out = append(out, s.Address+"#"+t.Slug)
			}
		}
	}
	return out, nil
}

// CheckRename refuses the rename of task old of f's document (an edit
// whose new title changed the slug: after is the task as edited) when
// tasks of other documents depend on old by its address: INVALID_TASK
// naming them, as Remove refuses to remove it, but with no force, since a
// rename has none. They would otherwise wait for a task that no longer
// exists. The tasks of the document itself are Edit's check. The task
// systems call it after Flow.Edit, under the document's lock and before
// their write; the other documents are read (see Dependents) only when
// the slug changed.
func (f Flow) CheckRename(ctx context.Context, ws *workspace.Workspace, old string, after *taskdoc.Task) error {
	if after == nil || after.Slug == old {
		return nil
	}
	deps, err := Dependents(ctx, ws, taskdoc.Address{Path: f.Path, Slug: old})
	if err != nil {
		return f.At(err, old)
	}
	return f.renameRefused(old, after.Slug, deps, true)
}

// dependsOnAlias reports whether t, a task of another document than dep's,
// lists dep by its full address. The files are compared in their canonical
// form (own is dep's), as locks compare them: an entry that names dep's
// file through a linked folder, or in another case, counts. Where case
// matters that may count an entry that names another file; a removal then
// refused is forced knowingly.
func dependsOnAlias(ws *workspace.Workspace, t *taskdoc.Task, dep taskdoc.Address, own string) bool {
	for _, d := range t.ValidDependencies() {
		if d.Slug != dep.Slug || d.Document == "" {
			continue
		}
		if c, err := ws.Canonical(taskdoc.Address{Path: d.Document}.File()); err == nil && c == own {
			return true
		}
	}
	return false
}
