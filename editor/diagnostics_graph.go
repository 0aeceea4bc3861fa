package editor

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// The Depends-On diagnostics: entries that name nothing, and cycles.
//
// Tasks are nodes named "<file>#<slug>" ("docs/api/auth.md#setup"), so
// that a cycle may run through several documents. A cycle is found by
// taskflow.FindCycle, the walk the task systems refuse a cyclic edit
// with. Walking from every task of a long chain would cost the square of
// its length on every keystroke, so the tasks that cannot be on a cycle
// (those that lead to no task still in the graph, or that no such task
// leads to) are peeled off first, and FindCycle walks only what is left.

// node is a task of the dependency graph.
type node struct {
	v    *view
	task *taskdoc.Task
	deps []string // the nodes its Depends-On names that exist, in order
}

// dependencies reports Depends-On entries whose document or task does not
// exist, and the tasks of the document that are on a cycle.
func (c *checker) dependencies() error {
	tasks := c.v.Doc.Tasks
	for i := range tasks {
		for _, e := range c.v.dependsOn(&tasks[i]) {
			if !e.Valid {
				continue
			}
			file, slug := c.target(e.Dependency)
			target, found, err := c.document(file)
			if err != nil {
				return err
			}
			r := c.t.span(taskdoc.Span{Start: e.Start, End: e.End})
			switch {
			case !found:
				c.add(r, SeverityError, CodeDependencyNotFound,
					fmt.Sprintf("%s names no document: there is no %s", e.Text, file))
			case target.Doc != nil && !hasTask(target.Doc, slug):
				c.add(r, SeverityError, CodeDependencyNotFound,
					fmt.Sprintf("%s names no task: %s has no task %q", e.Text, file, slug))
			}
		}
	}
	return c.cycles()
}

// target is the file and slug a dependency of the document names.
func (c *checker) target(d taskdoc.Dependency) (file, slug string) {
	if d.Document == "" {
		return c.v.Path, d.Slug
	}
	return taskdoc.Address{Path: d.Document}.File(), d.Slug
}

// hasTask reports whether doc has a task with slug, alone or not.
func hasTask(doc *taskdoc.Document, slug string) bool {
	_, err := doc.Task(slug)
	return err == nil || taskdoc.CodeOf(err) == taskdoc.CodeDuplicateTask
}

// cycles reports each task of the document that is on a dependency
// cycle, on the entry that leads on along it.
func (c *checker) cycles() error {
	graph, err := c.graph()
	if err != nil || len(graph) == 0 {
		return err
	}
	left := peel(graph)
	next := func(n string) []string {
		var out []string
		for _, d := range graph[n].deps {
			if left[d] {
				out = append(out, d)
			}
		}
		return out
	}
	for i := range c.v.Doc.Tasks {
		t := &c.v.Doc.Tasks[i]
		start := c.v.Path + "#" + t.Slug
		if !left[start] || graph[start].task != t {
			continue
		}
		cycle := taskflow.FindCycle(next, start)
		if cycle == nil {
			continue
		}
		c.cycle(t, graph, cycle)
	}
	return nil
}

// cycle reports task, the first node of cycle.
func (c *checker) cycle(t *taskdoc.Task, graph map[string]*node, cycle []string) {
	names := make([]string, len(cycle))
	for i, n := range cycle {
		names[i] = c.address(graph[n])
	}
	var related []Related
	seen := map[string]bool{cycle[0]: true}
	for _, n := range cycle[1:] {
		if seen[n] {
			continue
		}
		seen[n] = true
		g := graph[n]
		related = append(related, Related{Location: Location{Path: g.v.Path, Range: headingRange(g.v.text(), g.task)},
			Message: fmt.Sprintf("task %s is on the cycle", c.address(g))})
	}
	// The entry that leads to the next task of the cycle; the heading when
	// it is written on a wrapped line, which dependsOn leaves out.
	r := headingRange(c.t, t)
	for _, e := range c.v.dependsOn(t) {
		if file, slug := c.target(e.Dependency); e.Valid && file+"#"+slug == cycle[1] {
			r = c.t.span(taskdoc.Span{Start: e.Start, End: e.End})
			break
		}
	}
	c.add(r, SeverityError, CodeDependencyCycle,
		fmt.Sprintf("the dependencies make a cycle, so none of its tasks can start: %s", strings.Join(names, " -> ")), related...)
}

// address is how a message names a node: "#slug" in this document,
// "/doc.md#slug" in another.
func (c *checker) address(n *node) string {
	if n.v == c.v {
		return "#" + n.task.Slug
	}
	if n.v.Address != "" {
		return n.v.Address + "#" + n.task.Slug
	}
	return n.v.Path + "#" + n.task.Slug
}

// graph is the part of the dependency graph that the document's tasks
// lead to, or nil when none of them depends on anything.
func (c *checker) graph() (map[string]*node, error) {
	graph := map[string]*node{}
	var queue []string
	visit := func(file string, v *view, t *taskdoc.Task) {
		n := file + "#" + t.Slug
		if _, ok := graph[n]; !ok {
			graph[n] = &node{v: v, task: t}
			queue = append(queue, n)
		}
	}
	hasDeps := false
	for i := range c.v.Doc.Tasks {
		t := &c.v.Doc.Tasks[i]
		if _, ok := t.Field(taskdoc.KeyDependsOn); ok {
			hasDeps = true
		}
	}
	if !hasDeps {
		return nil, nil
	}
	for i := range c.v.Doc.Tasks {
		if t, err := c.v.Doc.Task(c.v.Doc.Tasks[i].Slug); err == nil {
			visit(c.v.Path, c.v, t)
		}
	}
	for len(queue) > 0 {
		n := graph[queue[0]]
		queue = queue[1:]
		for _, d := range n.task.ValidDependencies() {
			file, slug := n.v.Path, d.Slug
			if d.Document != "" {
				file = taskdoc.Address{Path: d.Document}.File()
			}
			v, found, err := c.document(file)
			if err != nil {
				return nil, err
			}
			if !found || v.Doc == nil {
				continue
			}
			// A repeated slug names no one task: it leads nowhere, as
			// it does for the task systems.
			t, err := v.Doc.Task(slug)
			if err != nil {
				continue
			}
			visit(file, v, t)
			n.deps = append(n.deps, file+"#"+slug)
		}
	}
	return graph, nil
}

// peel returns the nodes of graph that may be on a cycle: it drops, as
// long as there are any, the nodes that lead to no node left or that no
// node left leads to. What it keeps holds every cycle; FindCycle decides.
func peel(graph map[string]*node) map[string]bool {
	out := make(map[string]int, len(graph))
	in := make(map[string]int, len(graph))
	from := make(map[string][]string, len(graph))
	for n, g := range graph {
		out[n] = len(g.deps)
		for _, d := range g.deps {
			in[d]++
			from[d] = append(from[d], n)
		}
	}
	left := make(map[string]bool, len(graph))
	var drop []string
	for n := range graph {
		left[n] = true
		if out[n] == 0 || in[n] == 0 {
			drop = append(drop, n)
		}
	}
	for len(drop) > 0 {
		n := drop[len(drop)-1]
		drop = drop[:len(drop)-1]
		if !left[n] {
			continue
		}
		delete(left, n)
		for _, p := range from[n] {
			if out[p]--; out[p] == 0 && left[p] {
				drop = append(drop, p)
			}
		}
		for _, d := range graph[n].deps {
			if in[d]--; in[d] == 0 && left[d] {
				drop = append(drop, d)
			}
		}
	}
	return left
}
