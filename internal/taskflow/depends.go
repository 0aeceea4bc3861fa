package taskflow

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// CheckDependencies checks the Depends-On fields of the tasks a create or
// an edit wrote (changed) against the document they are in: every entry
// is a task address, a dependency in the same document names a task of
// it (TASK_NOT_FOUND otherwise, with the slugs that exist), and following
// dependencies in the document never leads back to where it started
// (DEPENDENCY_CYCLE, naming the cycle). Dependencies on other documents
// are read as addresses only: they can close no cycle inside this one.
//
// Only the tasks the walk reaches from the changed ones are read, so an
// edit of a task without dependencies costs nothing, and a field written
// badly by hand elsewhere blocks no edit that does not lead to it.
func (f Flow) CheckDependencies(doc *taskdoc.Document, changed []*taskdoc.Task) error {
	edges := map[string][]string{} // read so far: slug -> same-document dependencies
	depsOf := func(t *taskdoc.Task) ([]string, error) {
		if deps, ok := edges[t.Slug]; ok {
			return deps, nil
		}
		all, err := t.Dependencies()
		if err != nil {
			return nil, err
		}
		deps := []string{}
		for _, d := range all {
			if d.Document == "" || d.Document == f.Path {
				deps = append(deps, d.Slug)
			}
		}
		edges[t.Slug] = deps
		return deps, nil
	}
	for _, t := range changed {
		deps, err := depsOf(t)
		if err != nil {
			return f.At(err, t.Slug)
		}
		for _, dep := range deps {
			if _, err := doc.Task(dep); err != nil {
				e := f.At(err, dep).(*taskdoc.Error)
				e.Msg = fmt.Sprintf("task %q in %s depends on %q, which %s has no task of", t.Slug, f.Path, "#"+dep, f.Path)
				return e
			}
		}
		next := func(slug string) []string {
			task, err := doc.Task(slug)
			if err != nil {
				return nil // a missing or repeated slug leads nowhere
			}
			deps, _ := depsOf(task) // an unreadable field leads nowhere
			return deps
		}
		if cycle := FindCycle(next, t.Slug); cycle != nil {
			for i := range cycle {
				cycle[i] = "#" + cycle[i]
			}
			return &taskdoc.Error{Code: taskdoc.CodeDependencyCycle, Path: f.Path, Slug: t.Slug,
				Msg: fmt.Sprintf("the dependencies of %s make a cycle: %s", f.Path, strings.Join(cycle, " -> "))}
		}
	}
	return nil
}

// checkNotDependedOn refuses a rename that would leave the tasks of doc
// that depend on the old slug pointing at nothing (INVALID_TASK naming
// them); CheckRename is the same rule for the tasks of other documents.
func (f Flow) checkNotDependedOn(doc *taskdoc.Document, old, renamed string) error {
	return f.renameRefused(old, renamed, f.dependents(doc, old), false)
}

// renameRefused is the refusal of the rename of task old to renamed for
// deps, the tasks (of other documents: elsewhere) that depend on it, or
// nil when there are none. Their Depends-On cannot name the new slug
// before it exists, so the way out is in three steps.
func (f Flow) renameRefused(old, renamed string, deps []string, elsewhere bool) error {
	if len(deps) == 0 {
		return nil
	}
	where, name := "", "#"+renamed
	if elsewhere {
		where, name = " in other documents", f.Path+"#"+renamed
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidTask, Path: f.Path, Slug: old,
		Msg: fmt.Sprintf("task %q in %s cannot be renamed to %q: %s%s depend on it; take it out of their %s first, rename it, then add %s there",
			old, f.Path, renamed, strings.Join(deps, ", "), where, taskdoc.KeyDependsOn, name)}
}

// FindCycle returns a cycle through start, as start, b, c, ..., start,
// or nil. It walks depth first, each node once; next gives a node's
// dependencies. Nodes are whatever names the caller gives them: the slugs
// of one document for CheckDependencies, tasks across documents for a
// caller that follows dependencies between them.
func FindCycle(next func(node string) []string, start string) []string {
	var path []string
	done := map[string]bool{}
	var walk func(node string) bool
	walk = func(node string) bool {
		path = append(path, node)
		for _, dep := range next(node) {
			if dep == start {
				path = append(path, start)
				return true
			}
			if !done[dep] {
				done[dep] = true
				if walk(dep) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		return false
	}
	done[start] = true
	if walk(start) {
		return path
	}
	return nil
}
