package workspace

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// Folders of the workspace layout that loading reads from.
const (
	docsDir      = "docs"
	workflowsDir = "workflows"
)

// Workflow is the text of a workflow file, workflows/<Name>.md, as a task's
// Workflow or Main-Workflow field names it.
//
// Workflow files may open with YAML front matter, as the AI-Prompt-Guide
// server's do; its title, description and whenToUse keys are read into the
// fields below. Content is always the whole file.
type Workflow struct {
	Name        string   // "tdd-incremental-orchestration"
	Content     string   // the whole file
	Title       string   // front matter "title", if any
	Description string   // front matter "description", if any
	WhenToUse   []string // front matter "whenToUse" (a list or one string), if any
}

// LoadedDocument is a document, or one outline section of it, loaded
// because a task (or another loaded document) references it.
type LoadedDocument struct {
	// Path is the reference without its '@': "/specs/jwt-spec.md", or
	// "/specs/jwt-spec.md#section" for a section (relative to docs/).
	Path string
	// Title is the document's first level-1 heading (the file name made
	// readable when it has none), or the section's heading text.
	Title string
	// Content is the whole document, or the section from its heading to
	// the next heading of the same or a higher level.
	Content string
	// Depth is 1 for a task's direct references, 2 for theirs, and so on.
	Depth int
	// Children are the documents this one references that were not loaded
	// already, at Depth+1.
	Children []LoadedDocument
}

// LoadWorkflow reads workflows/<name>.md. A name is a plain file name
// without the ".md": one with a path separator, a NUL byte or a line break,
// an empty name and "." or ".." are INVALID_ADDRESS, so a task's field can
// never reach outside workflows/. A workflow that does not exist is
// DOCUMENT_NOT_FOUND naming the workflow.
func (w *Workspace) LoadWorkflow(ctx context.Context, name string) (Workflow, error) {
	if err := checkWorkflowName(name); err != nil {
		return Workflow{}, err
	}
	data, _, err := w.Read(ctx, workflowsDir+"/"+name+".md")
	if err != nil {
		var e *taskdoc.Error
		if errors.As(err, &e) && e.Code == taskdoc.CodeDocumentNotFound {
			return Workflow{}, &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: e.Path, Err: err,
				Msg: fmt.Sprintf("workflow %q not found (no %s/%s.md)", name, workflowsDir, name)}
		}
		return Workflow{}, err
	}
	wf := Workflow{Name: name, Content: string(data)}
	wf.describe(data)
	return wf, nil
}

// describe reads the workflow's front matter. A workflow whose front matter
// does not decode is still served whole: its text is what the agent needs,
// and the description fields are only a summary of it.
func (wf *Workflow) describe(data []byte) {
	fm, err := taskdoc.ParseFrontMatter(data)
	if err != nil || fm.Values == nil {
		return
	}
	values := fm.Values
	wf.Title, _ = values["title"].(string)
	wf.Description, _ = values["description"].(string)
	switch v := values["whenToUse"].(type) {
	case string:
		wf.WhenToUse = []string{v}
	case []any:
		for _, item := range v {
			if text, ok := item.(string); ok {
				wf.WhenToUse = append(wf.WhenToUse, text)
			}
		}
	}
}

func checkWorkflowName(name string) error {
	why := ""
	switch {
	case name == "":
		why = "it is empty"
	case name == "." || name == "..":
		why = "it is a path element"
	case strings.ContainsAny(name, "/\\\x00\r\n"):
		why = "a workflow is named by its file name in " + workflowsDir + "/, without folders"
	}
	if why == "" {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: name,
		Msg: fmt.Sprintf("workflow name %q is refused: %s", name, why)}
}

// LoadReferences loads the documents that refs name, and the documents
// those reference in turn, down to maxDepth levels (1: refs only; 0 or less:
// nothing). It reads breadth first, so every document is loaded once, at the
// shallowest depth it is referenced from; a later reference to it (a
// duplicate, or a cycle back to it) is cut, and so is a section of a
// document already loaded whole.
//
// A reference to a document or a section that does not exist is not an
// error: its Raw text is listed in missing, once, in the order met. So is
// one whose path cannot name a document in docs/ ("@/../x.md"), which is
// never read. Any other failure (a symbolic link, a directory escaping the
// root by a link, a file over the size limit, invalid UTF-8) is returned as
// an error naming the reference, because a person has to fix it.
func (w *Workspace) LoadReferences(ctx context.Context, refs []taskdoc.Reference, maxDepth int) (docs []LoadedDocument, missing []string, err error) {
	l := loader{w: w, ctx: ctx, seen: map[string]bool{}, cache: map[string]*taskdoc.Document{}}
	level := l.next(nil, refs)
	for depth := 1; depth <= maxDepth && len(level) > 0; depth++ {
		var below []*loadedNode
		for _, n := range level {
			ok, err := l.load(n, depth)
			if err != nil {
				return nil, nil, err
			}
			if ok && depth < maxDepth {
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

type loader struct {
	w       *Workspace
	ctx     context.Context
	seen    map[string]bool // "path" and "path#section" queued so far
	cache   map[string]*taskdoc.Document
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
				continue // the whole document is loaded already
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
// It reports false, and records the reference as missing, when there is no
// such document or section, or when its path cannot name a document.
func (l *loader) load(n *loadedNode, depth int) (bool, error) {
	if a, err := taskdoc.ParseAddress(n.ref.Path); err != nil || a.Slug != "" {
		// "@/../x.md" names no document in docs/: nothing to read.
		l.addMissing(n.ref.Raw)
		return false, nil
	}
	doc, err := l.document(n.ref)
	if err != nil {
		var e *taskdoc.Error
		if errors.As(err, &e) && e.Code == taskdoc.CodeDocumentNotFound {
			l.addMissing(n.ref.Raw)
			return false, nil
		}
		return false, err
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
			l.addMissing(n.ref.Raw)
			return false, nil
		}
		n.doc.Path += "#" + n.ref.Section
		n.doc.Title = headingText(doc, n.ref.Section)
		n.doc.Content = section
	}
	n.refs = taskdoc.ParseReferences(n.doc.Content)
	n.found = true
	return true, nil
}

// document reads and parses a referenced document once per call of
// LoadReferences, however many of its sections are referenced.
func (l *loader) document(ref taskdoc.Reference) (*taskdoc.Document, error) {
	if doc, ok := l.cache[ref.Path]; ok {
		return doc, nil
	}
	src, _, err := l.w.Read(l.ctx, docsDir+ref.Path)
	if err != nil {
		return nil, referenceError(ref, err)
	}
	doc, err := taskdoc.Parse(src)
	if err != nil {
		return nil, referenceError(ref, err)
	}
	l.cache[ref.Path] = doc
	return doc, nil
}

func (l *loader) addMissing(raw string) {
	for _, m := range l.missing {
		if m == raw {
			return
		}
	}
	l.missing = append(l.missing, raw)
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

// referenceError names the reference on a failure to load it, keeping the
// code, the position of a parse error and the cause.
func referenceError(ref taskdoc.Reference, err error) error {
	e := &taskdoc.Error{Code: taskdoc.CodeIO, Path: ref.Path, Err: err,
		Msg: fmt.Sprintf("load reference %s", ref.Raw)}
	var cause *taskdoc.Error
	if errors.As(err, &cause) {
		e.Code, e.Line, e.Column = cause.Code, cause.Line, cause.Column
	}
	return e
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
