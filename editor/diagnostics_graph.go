package editor

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// The Depends-On diagnostics: entries that are no address or name
// nothing, and cycles.
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
	name string // "<file>#<slug>"
	v    *view
	task *taskdoc.Task
	deps []int // the nodes its Depends-On names, in order
}

// depGraph is the part of the dependency graph that may hold a cycle
// through the document's tasks: the tasks it leads to that have a
// Depends-On field (one without can be on no cycle).
type depGraph struct {
	nodes []node
	index map[string]int // by name
}

// dependencies reports Depends-On entries that are not task addresses or
// whose document or task does not exist, and the tasks of the document
// that are on a cycle.
func (c *checker) dependencies() error {
	tasks := c.v.Doc.Tasks
	for i := range tasks {
		if _, ok := tasks[i].Field(taskdoc.KeyDependsOn); !ok {
			continue
		}
		for _, e := range c.v.dependsOn(&tasks[i]) {
			if !e.Valid {
				c.add(c.t.span(taskdoc.Span{Start: e.Start, End: e.End}), SeverityError, taskdoc.CodeInvalidAddress,
					fmt.Sprintf("%q is not a task address: write \"#slug\" for a task of this document, \"/doc.md#slug\" for one of another", e.Text))
				continue
			}
			file, slug := c.target(e.Dependency)
			target, found, err := c.document(file)
			if err != nil {
				return err
			}
			switch {
			case !found:
				c.add(c.t.span(taskdoc.Span{Start: e.Start, End: e.End}), SeverityError, CodeDependencyNotFound,
					fmt.Sprintf("%s names no document: there is no %s", e.Text, file))
			case target.Doc != nil && !hasTask(target.Doc, slug):
				c.add(c.t.span(taskdoc.Span{Start: e.Start, End: e.End}), SeverityError, CodeDependencyNotFound,
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
	g, err := c.graph()
	if err != nil || len(g.nodes) == 0 {
		return err
	}
	left := g.peel()
	next := func(name string) []string {
		var out []string
		for _, d := range g.nodes[g.index[name]].deps {
			if left[d] {
				out = append(out, g.nodes[d].name)
			}
		}
		return out
	}
	for i := range g.nodes {
		if n := &g.nodes[i]; left[i] && n.v == c.v {
			if cycle := taskflow.FindCycle(next, n.name); cycle != nil {
				c.cycle(n.task, g, cycle)
			}
		}
	}
	return nil
}

// cycle reports task, the first node of cycle.
func (c *checker) cycle(t *taskdoc.Task, g *depGraph, cycle []string) {
	names := make([]string, len(cycle))
	for i, n := range cycle {
		names[i] = c.address(&g.nodes[g.index[n]])
	}
	var related []Related
	seen := map[string]bool{cycle[0]: true}
	for _, n := range cycle[1:] {
		if seen[n] {
			continue
		}
		seen[n] = true
		other := &g.nodes[g.index[n]]
		related = append(related, Related{Location: Location{Path: other.v.Path, Range: headingRange(other.v.text(), other.task)},
			Message: fmt.Sprintf("task %s is on the cycle", c.address(other))})
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
	c.add(r, SeverityError, taskdoc.CodeDependencyCycle,
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

// graph reads the part of the dependency graph that the document's tasks
// lead to (see depGraph).
func (c *checker) graph() (*depGraph, error) {
	g := &depGraph{index: map[string]int{}}
	// add adds the task slug of the document at file, when it is one task
	// with dependencies, and returns its node or -1. A repeated slug names
	// no one task: it leads nowhere, as it does for the task systems.
	add := func(file string, v *view, slug string) int {
		name := file + "#" + slug
		if i, ok := g.index[name]; ok {
			return i
		}
		t, err := v.Doc.Task(slug)
		if err != nil {
			return -1
		}
		if _, ok := t.Field(taskdoc.KeyDependsOn); !ok {
			return -1
		}
		g.index[name] = len(g.nodes)
		g.nodes = append(g.nodes, node{name: name, v: v, task: t})
		return len(g.nodes) - 1
	}
	for i := range c.v.Doc.Tasks {
		add(c.v.Path, c.v, c.v.Doc.Tasks[i].Slug)
	}
	for i := 0; i < len(g.nodes); i++ {
		n := g.nodes[i]
		for _, d := range n.task.ValidDependencies() {
			file := n.v.Path
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
			if j := add(file, v, d.Slug); j >= 0 {
				g.nodes[i].deps = append(g.nodes[i].deps, j)
			}
		}
	}
	return g, nil
}

// peel returns which nodes may be on a cycle: it drops, as long as there
// are any, the nodes that lead to no node left or that no node left leads
// to. What it keeps holds every cycle; FindCycle decides.
func (g *depGraph) peel() []bool {
	n := len(g.nodes)
	out, in := make([]int, n), make([]int, n)
	from := make([][]int, n)
	for i := range g.nodes {
		out[i] = len(g.nodes[i].deps)
		for _, d := range g.nodes[i].deps {
			in[d]++
			from[d] = append(from[d], i)
		}
	}
	left := make([]bool, n)
	var drop []int
	for i := range left {
		left[i] = true
		if out[i] == 0 || in[i] == 0 {
			drop = append(drop, i)
		}
	}
	for len(drop) > 0 {
		i := drop[len(drop)-1]
		drop = drop[:len(drop)-1]
		if !left[i] {
			continue
		}
		left[i] = false
		for _, p := range from[i] {
			if out[p]--; out[p] == 0 && left[p] {
				drop = append(drop, p)
			}
		}
		for _, d := range g.nodes[i].deps {
			if in[d]--; in[d] == 0 && left[d] {
				drop = append(drop, d)
			}
		}
	}
	return left
}
