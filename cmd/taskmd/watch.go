package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/watch"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// docState is what watch remembers of a document between changes.
type docState struct {
	status  map[string]string // slug -> status
	version map[string]string // slug -> the task's version: changes with its text
	order   []string          // slugs in document order
	broken  string            // why the document does not read, "" when it does
}

// Change is one changed document, as watch prints it.
type Change struct {
	Event    string       `json:"event"` // created, changed, removed, broken
	Document string       `json:"document"`
	Tasks    []TaskChange `json:"tasks,omitempty"`
	Error    string       `json:"error,omitempty"` // why a broken document does not read
}

// TaskChange is one task of a changed document.
type TaskChange struct {
	Address string `json:"address"`
	Change  string `json:"change"` // added, removed, status, edited
	From    string `json:"from,omitempty"`
	To      string `json:"to,omitempty"`
}

// watching is the first line watch prints, once it sees every change.
type watching struct {
	Event string `json:"event"` // "watching"
	Root  string `json:"root"`
}

func cmdWatch(e *env, args []string) error {
	if _, err := parseN(e.flags("watch"), args); err != nil {
		return err
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	root := ws.Root()
	var seen map[string]docState
	check := func() (bool, error) {
		now, err := snapshot(e, ws)
		if err != nil {
			return false, err
		}
		if seen == nil {
			seen = now
			return false, e.print(watching{"watching", root}, func(w io.Writer) { fmt.Fprintf(w, "watching %s\n", root) })
		}
		for _, c := range changes(seen, now) {
			if err := e.print(c, func(w io.Writer) { writeChange(w, c) }); err != nil {
				return false, err
			}
		}
		seen = now
		return false, nil
	}
	// The watch is on the whole root: documents, the coordinator list and
	// the folders created later. A timeout of 0 waits until interrupted.
	_, err = watch.UntilTree(e.ctx, root, 0, nil, check)
	return err
}

// snapshot reads the state of every document and of the coordinator list.
func snapshot(e *env, ws *workspace.Workspace) (map[string]docState, error) {
	out := map[string]docState{}
	err := ws.Walk(e.ctx, taskdoc.FolderDocs, func(name string, doc *taskdoc.Document, err error) error {
		a, aerr := taskdoc.AddressOfFile(name)
		if aerr != nil {
			return nil // not a document an address can name
		}
		out[a.Path] = state(doc, err)
		return nil
	})
	if err != nil {
		return nil, err
	}
	src, err := ws.ReadIfExists(e.ctx, coordinator.File)
	if err != nil {
		out[coordinator.Address] = docState{broken: err.Error()}
	} else if src != nil {
		doc, err := taskdoc.Parse(src)
		out[coordinator.Address] = state(doc, err)
	}
	return out, e.ctx.Err()
}

func state(doc *taskdoc.Document, err error) docState {
	if err != nil {
		return docState{broken: err.Error()}
	}
	s := docState{status: map[string]string{}, version: map[string]string{}}
	for _, t := range doc.Tasks {
		s.status[t.Slug] = string(t.Status)
		s.version[t.Slug] = t.Version
		s.order = append(s.order, t.Slug)
	}
	return s
}

// changes lists the documents that differ between two snapshots, sorted
// by address.
func changes(before, after map[string]docState) []Change {
	var docs []string
	for d := range before {
		docs = append(docs, d)
	}
	for d := range after {
		if _, ok := before[d]; !ok {
			docs = append(docs, d)
		}
	}
	slices.Sort(docs)
	var out []Change
	for _, d := range docs {
		b, hadB := before[d]
		a, hasA := after[d]
		switch {
		case !hasA:
			out = append(out, Change{Event: "removed", Document: d})
		case a.broken != "":
			if a.broken != b.broken {
				out = append(out, Change{Event: "broken", Document: d, Error: a.broken})
			}
		case !hadB:
			out = append(out, Change{Event: "created", Document: d, Tasks: taskChanges(d, docState{}, a)})
		case b.broken != "" || !slices.Equal(a.order, b.order) || !maps.Equal(a.version, b.version):
			out = append(out, Change{Event: "changed", Document: d, Tasks: taskChanges(d, b, a)})
		}
	}
	return out
}

// taskChanges lists the tasks added, removed, moved to another status or
// edited, in the order of the new document (removed ones last).
func taskChanges(doc string, b, a docState) []TaskChange {
	addr := func(slug string) string { return taskdoc.Address{Path: doc, Slug: slug}.String() }
	var out []TaskChange
	for _, slug := range a.order {
		from, had := b.status[slug]
		to := a.status[slug]
		switch {
		case !had:
			out = append(out, TaskChange{Address: addr(slug), Change: "added", To: to})
		case from != to:
			out = append(out, TaskChange{Address: addr(slug), Change: "status", From: from, To: to})
		case b.version[slug] != a.version[slug]:
			out = append(out, TaskChange{Address: addr(slug), Change: "edited"})
		}
	}
	for _, slug := range b.order {
		if _, ok := a.status[slug]; !ok {
			out = append(out, TaskChange{Address: addr(slug), Change: "removed", From: b.status[slug]})
		}
	}
	return out
}

// writeChange writes one change as one line:
// "changed /api/auth.md: #a pending->in_progress, +#b, -#c, ~#d".
func writeChange(w io.Writer, c Change) {
	fmt.Fprintf(w, "%s %s", c.Event, c.Document)
	if c.Error != "" {
		fmt.Fprintf(w, ": %s", c.Error)
	}
	var parts []string
	for _, t := range c.Tasks {
		slug := t.Address[strings.IndexByte(t.Address, '#'):]
		switch t.Change {
		case "added":
			parts = append(parts, "+"+slug+" "+t.To)
		case "removed":
			parts = append(parts, "-"+slug)
		case "status":
			parts = append(parts, slug+" "+t.From+"->"+t.To)
		default:
			parts = append(parts, "~"+slug)
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
}
