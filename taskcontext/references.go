package taskcontext

import (
	"context"
	"fmt"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// LoadedDocument is a document, or one outline section of it, loaded
// because a task (or another loaded document) references it.
type LoadedDocument struct {
	// Path is the reference without its '@': "/specs/jwt-spec.md", or
	// "/specs/jwt-spec.md#section" for a section (relative to docs/).
	Path string `json:"path"`
	// Title is the document's first level-1 heading (the file name made
	// readable when it has none), or the section's heading text.
	Title string `json:"title"`
	// Content is the whole document, or the section from its heading to
	// the next heading of the same or a higher level.
	Content string `json:"content"`
	// Depth is 1 for a task's direct references, 2 for theirs, and so on.
	Depth int `json:"depth"`
	// Children are the documents this one references that were not loaded
	// already, at Depth+1.
	Children []LoadedDocument `json:"children,omitempty"`
}

// loadReferences loads the documents that refs name, and the documents
// those reference in turn, down to depth levels (1: refs only; 0 or less:
// nothing). It reads breadth first, so every document is loaded once, at
// the shallowest depth it is referenced from; a later reference to it (a
// duplicate, or a cycle back to it) is cut, and so is a section of a
// document already loaded whole.
//
// The references that are missing (no such document or section, or a path
// that cannot name a document in docs/, which is never read) are returned
// by raw text in missing, once each, in the order met. Any other failure is
// returned as an error naming the reference; see the package doc.
func loadReferences(ctx context.Context, ws *workspace.Workspace, refs []taskdoc.Reference, depth int) (docs []LoadedDocument, missing []string, err error) {
	if err := ws.Check(); err != nil {
		return nil, nil, err
	}
	l := loader{ws: ws, ctx: ctx, seen: map[string]bool{}, cache: map[string]parsed{}}
	level := l.next(nil, refs)
	for d := 1; d <= depth && len(level) > 0; d++ {
		var below []*loadedNode
		for _, n := range level {
			if err := l.load(n, d); err != nil {
				if !isMissing(err) {
					return nil, nil, named(err, n.ref.Path, "load reference "+n.ref.Raw)
				}
				l.missing = addMissing(l.missing, n.ref.Raw)
				continue
			}
			if d < depth {
				n.children = l.next(n, n.refs)
				below = append(below, n.children...)
			}
		}
		level = below
	}
	return l.result(l.roots), l.missing, nil
}

// loadedNode is a LoadedDocument while the tree is being built: children
// are filled in level by level, so they are kept by pointer.
type loadedNode struct {
	ref      taskdoc.Reference
	doc      LoadedDocument
	refs     []taskdoc.Reference // the references in doc.Content
	found    bool
	children []*loadedNode
}

// parsed is a referenced document as read once per loadReferences call.
type parsed struct {
	doc *taskdoc.Document
	err error
}

type loader struct {
	ws      *workspace.Workspace
	ctx     context.Context
	seen    map[string]bool // "path" and "path#section" queued so far
	cache   map[string]parsed
	roots   []*loadedNode
	missing []string
}

// next queues the references not seen yet, as children of parent (roots
// when parent is nil).
func (l *loader) next(parent *loadedNode, refs []taskdoc.Reference) []*loadedNode {
	var nodes []*loadedNode
	for _, ref := range refs {
		key := ref.Path
		if ref.Section != "" {
			if l.seen[ref.Path] {
				continue // the whole document is queued already
			}
			key += "#" + ref.Section
		}
		if l.seen[key] {
			continue
		}
		l.seen[key] = true
		nodes = append(nodes, &loadedNode{ref: ref})
	}
	if parent == nil {
		l.roots = nodes
	}
	return nodes
}

// load reads the node's document (or section) and the references in it.
// A section the document does not have is DOCUMENT_NOT_FOUND, so that the
// one rule (isMissing) judges it with the rest.
func (l *loader) load(n *loadedNode, depth int) error {
	doc, err := l.document(n.ref.Path)
	if err != nil {
		return err
	}
	n.doc = LoadedDocument{Path: n.ref.Path, Depth: depth}
	if n.ref.Section == "" {
		n.doc.Title = doc.Title()
		if n.doc.Title == "" {
			n.doc.Title = taskdoc.TitleFromPath(n.ref.Path)
		}
		n.doc.Content = string(doc.Source)
	} else {
		section, ok := doc.Section(n.ref.Section)
		if !ok {
			return &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: n.ref.Path,
				Msg: fmt.Sprintf("%s has no section %q", n.ref.Path, n.ref.Section)}
		}
		n.doc.Path += "#" + n.ref.Section
		n.doc.Title = headingText(doc, n.ref.Section)
		n.doc.Content = section
	}
	n.refs = taskdoc.ParseReferences(n.doc.Content)
	n.found = true
	return nil
}

// document reads and parses a referenced document once per call of
// loadReferences, however many of its sections are referenced. A path that
// cannot name a document in docs/ ("/../x.md") is INVALID_ADDRESS and is
// never read.
func (l *loader) document(p string) (*taskdoc.Document, error) {
	if c, ok := l.cache[p]; ok {
		return c.doc, c.err
	}
	var c parsed
	a, err := taskdoc.ParseAddress(p)
	switch {
	case err != nil:
		c.err = err
	case a.Slug != "":
		c.err = &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: p,
			Msg: fmt.Sprintf("reference path %q has a '#' inside it", p)}
	default:
		var src []byte
		if src, _, c.err = l.ws.Read(l.ctx, taskdoc.FolderDocs+a.Path); c.err == nil {
			c.doc, c.err = l.ws.Parse(taskdoc.FolderDocs+a.Path, src)
		}
	}
	l.cache[p] = c
	return c.doc, c.err
}

// result turns the nodes that were found into LoadedDocuments.
func (l *loader) result(nodes []*loadedNode) []LoadedDocument {
	var docs []LoadedDocument
	for _, n := range nodes {
		if !n.found {
			continue
		}
		d := n.doc
		d.Children = l.result(n.children)
		docs = append(docs, d)
	}
	return docs
}

// headingText returns the text of the outline heading with the anchor slug.
func headingText(doc *taskdoc.Document, slug string) string {
	for _, h := range doc.Headings {
		if h.Slug == slug {
			return h.Text
		}
	}
	return slug
}
