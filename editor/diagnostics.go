package editor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// Diagnostics returns the problems of the document at path (its open
// buffer, else its file), each with a stable code (see the Code
// constants) and the narrowest range that shows it: a heading, a field's
// value, one Depends-On entry, one "@/" reference. They are in the order
// of their ranges.
//
// A document that does not read at all (invalid UTF-8, past a limit) has
// one diagnostic, where taskdoc says, and no others: nothing in it can be
// found. A file that cannot be read (over the size limit, say) has one
// too, with the code of the error. Either way a buffer whose file changed
// under its unsaved changes gets CodeBufferDiffersFromDisk.
//
// Diagnostics that look outside the document (references, dependencies
// and their cycles, workflows, claims) read the other documents as the
// Session sees them, open buffers first, and read the workspace only for
// what the document names. What they read from files that are not
// documents (which workflows exist, claims) is kept until DiskChanged or
// Saved tells of a change; claims, which expire as time passes, are read
// again after a few seconds of the Session's clock.
//
// A path that is not a task document (under docs/, or the coordinator's
// list) has no diagnostics: nil, nil. One that does not exist is
// DOCUMENT_NOT_FOUND.
func (s *Session) Diagnostics(ctx context.Context, path string) ([]Diagnostic, error) {
	if !isDocument(path) {
		return nil, nil
	}
	v, err := s.view(ctx, path)
	if err != nil {
		return nil, err
	}
	c := &checker{s: s, ctx: ctx, v: v, t: v.text()}
	if v.Conflict {
		c.add(Range{}, SeverityWarning, CodeBufferDiffersFromDisk,
			path+" changed on disk while this buffer has unsaved changes: saving overwrites the change on disk")
	}
	if v.Doc == nil {
		c.unreadable()
		return c.sorted(), nil
	}
	c.frontMatter()
	c.duplicates()
	for i := range v.Doc.Tasks {
		c.status(&v.Doc.Tasks[i])
	}
	c.mainWorkflow()
	c.crossLinks()
	c.misplaced()
	steps := []func() error{c.workflows, c.references, c.dependencies, c.claims}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return c.sorted(), nil
}

// checker gathers the diagnostics of one document.
type checker struct {
	s   *Session
	ctx context.Context
	v   *view
	t   *text
	out []Diagnostic
}

func (c *checker) add(r Range, sev Severity, code taskdoc.Code, msg string, related ...Related) {
	c.out = append(c.out, Diagnostic{Range: r, Severity: sev, Code: code, Message: msg, Related: related})
}

// sorted returns the diagnostics in the order of their ranges.
func (c *checker) sorted() []Diagnostic {
	slices.SortStableFunc(c.out, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Character, b.Range.Start.Character),
			cmp.Compare(a.Range.End.Line, b.Range.End.Line),
			cmp.Compare(a.Range.End.Character, b.Range.End.Character),
			strings.Compare(string(a.Code), string(b.Code)))
	})
	return c.out
}

// unreadable reports why the document does not parse, where taskdoc says.
func (c *checker) unreadable() {
	code, msg, at := taskdoc.CodeParse, "the document does not read", 0
	var e *taskdoc.Error
	if errors.As(c.v.Err, &e) {
		code, msg = e.Code, e.Error()
		if e.Line > 0 {
			at = e.Offset
		}
	} else if c.v.Err != nil {
		msg = c.v.Err.Error()
	}
	r := c.t.span(taskdoc.Span{Start: at, End: lineEnd(c.t, at)})
	if code == taskdoc.CodeInvalidUTF8 {
		r = c.t.span(taskdoc.Span{Start: at, End: min(at+1, len(c.t.src))})
	}
	c.add(r, SeverityError, code, msg)
}

// frontMatter reports front matter that does not decode, on the line the
// decoder names (the front matter's first line when it names none).
func (c *checker) frontMatter() {
	fm := c.v.Doc.FrontMatter
	if fm.Err == nil {
		return
	}
	at := 0
	var e *taskdoc.Error
	if errors.As(fm.Err, &e) && e.Line > 0 {
		at = e.Offset
	}
	line := c.t.lines.Line(at)
	c.add(c.t.span(taskdoc.Span{Start: c.t.lines.Start(line), End: c.t.lines.End(line)}),
		SeverityError, taskdoc.CodeParse, fm.Err.Error())
}

// duplicates reports each task whose slug another task has too.
func (c *checker) duplicates() {
	tasks := c.v.Doc.Tasks
	bySlug := make(map[string][]int, len(tasks))
	for i := range tasks {
		bySlug[tasks[i].Slug] = append(bySlug[tasks[i].Slug], i)
	}
	for i := range tasks {
		same := bySlug[tasks[i].Slug]
		if len(same) < 2 {
			continue
		}
		var related []Related
		for _, j := range same {
			if j != i {
				related = append(related, Related{Location: Location{Path: c.v.Path, Range: headingRange(c.t, &tasks[j])},
					Message: fmt.Sprintf("task %q on line %d has the same slug", tasks[j].Title, tasks[j].Line)})
			}
		}
		c.add(headingRange(c.t, &tasks[i]), SeverityError, taskdoc.CodeDuplicateTask,
			fmt.Sprintf("another task has the slug %q, so no address can name either: rename one", tasks[i].Slug), related...)
	}
}

// status reports a Status value that is not a status.
func (c *checker) status(t *taskdoc.Task) {
	f, ok := field(t, taskdoc.KeyStatus)
	if !ok {
		return
	}
	if _, err := taskdoc.ParseStatus(f.Value); err == nil {
		return
	}
	names := make([]string, len(taskdoc.Statuses))
	for i, st := range taskdoc.Statuses {
		names[i] = string(st)
	}
	c.add(c.valueRange(f), SeverityError, taskdoc.CodeUnknownStatus,
		fmt.Sprintf("unknown status %q: want one of %s", f.Value, strings.Join(names, ", ")))
}

// mainWorkflow reports a coordinator list whose first task has no
// Main-Workflow: the list cannot start.
func (c *checker) mainWorkflow() {
	if !c.v.Coordinator() || len(c.v.Doc.Tasks) == 0 {
		return
	}
	if err := coordinator.CheckMainWorkflow(c.v.Doc); err != nil {
		c.add(headingRange(c.t, &c.v.Doc.Tasks[0]), SeverityError, taskdoc.CodeMainWorkflowRequired, err.Error())
	}
}

// crossLinks reports the link reference labels that tie a task to text
// outside it.
func (c *checker) crossLinks() {
	for _, l := range c.v.Doc.CrossLinks() {
		msg := fmt.Sprintf("task %q uses the link reference [%s], which is defined outside it: moving the task would break the link", l.Slug, l.Label)
		about := "the definition"
		if l.Defines {
			msg = fmt.Sprintf("task %q defines the link reference [%s], which text outside it uses or defines too: moving or removing the task would change that link", l.Slug, l.Label)
			about = "text outside the task with the same label"
		}
		c.add(c.t.span(l.Span), SeverityWarning, CodeCrossTaskLink, msg,
			Related{Location: Location{Path: c.v.Path, Range: c.t.span(l.Outside)}, Message: about})
	}
}

// misplaced reports what taskdoc's Document.Diagnostics reports (a
// metadata list written after the description), from the start of the
// place it names to the end of that line.
func (c *checker) misplaced() {
	for _, d := range c.v.Doc.Diagnostics() {
		line := d.Line - 1
		at, end := c.t.lines.Start(line), c.t.lines.End(line)
		for col := 1; col < d.Column && at < end; col++ {
			_, size := utf8.DecodeRune(c.t.src[at:end])
			at += size
		}
		c.add(c.t.span(taskdoc.Span{Start: at, End: end}), SeverityError, d.Code, d.Msg)
	}
}

// workflows reports Workflow and Main-Workflow values that name no
// workflow file.
func (c *checker) workflows() error {
	var names map[string]bool
	for i := range c.v.Doc.Tasks {
		t := &c.v.Doc.Tasks[i]
		for _, f := range t.Fields {
			if !strings.EqualFold(f.Key, taskdoc.KeyWorkflow) && !strings.EqualFold(f.Key, taskdoc.KeyMainWorkflow) || f.Value == "" {
				continue
			}
			if names == nil {
				var err error
				if names, err = c.s.workflowNames(c.ctx); err != nil {
					return err
				}
			}
			if !names[f.Value] {
				c.add(c.valueRange(f), SeverityWarning, CodeWorkflowNotFound,
					fmt.Sprintf("no workflow %q: there is no %s/%s.md", f.Value, taskdoc.FolderWorkflows, f.Value))
			}
		}
	}
	return nil
}

// references reports "@/" references to documents that do not exist and
// to sections their documents do not have.
func (c *checker) references() error {
	// reference is what is known of a reference's target: whether its
	// document exists and, when that can be read, has the anchor.
	type reference struct{ found, anchor bool }
	seen := map[string]reference{}
	for i := range c.v.Doc.Tasks {
		for _, m := range c.v.mentions(&c.v.Doc.Tasks[i]) {
			// A plan names the same few documents over and over.
			key := m.Path + "#" + m.Section
			res, ok := seen[key]
			if !ok {
				target, found, err := c.referenced(m.Path)
				if err != nil {
					return err
				}
				res = reference{found: found, anchor: m.Section == "" || target == nil || target.Doc == nil || hasAnchor(target.Doc, m.Section)}
				seen[key] = res
			}
			switch {
			case !res.found:
				c.add(c.t.span(taskdoc.Span{Start: m.Start, End: m.End}), SeverityWarning, CodeReferenceNotFound,
					fmt.Sprintf("no document %s: there is no %s%s", m.Path, taskdoc.FolderDocs, m.Path))
			case !res.anchor:
				hash := strings.IndexByte(m.Raw, '#')
				c.add(c.t.span(taskdoc.Span{Start: m.Start + hash + 1, End: m.End}), SeverityWarning, CodeSectionNotFound,
					fmt.Sprintf("%s has no section #%s", m.Path, m.Section))
			}
		}
	}
	return nil
}

// referenced is the document an "@/" reference's path names ("/specs/x.md",
// relative to docs/) and whether it exists. A path that cannot name a
// document there ("/../x.md") names none.
func (c *checker) referenced(p string) (*view, bool, error) {
	a, err := taskdoc.ParseAddress(p)
	if err != nil || a.Slug != "" {
		return nil, false, nil
	}
	return c.document(taskdoc.FolderDocs + a.Path)
}

func hasAnchor(doc *taskdoc.Document, anchor string) bool {
	for _, h := range doc.Headings {
		if h.Slug == anchor {
			return true
		}
	}
	return false
}

// document is the document at file as the Session sees it, and whether
// there is one. A file that exists but cannot be read is one, without a
// Doc: what it holds cannot be judged.
func (c *checker) document(file string) (*view, bool, error) {
	if file == c.v.Path {
		return c.v, true, nil
	}
	if isDocument(file) {
		return c.s.lookup(c.ctx, file)
	}
	// Not a task document (under archived/, say): read it on its own.
	v, err := c.s.view(c.ctx, file)
	switch code := taskdoc.CodeOf(err); {
	case err == nil:
		return v, true, nil
	case c.ctx.Err() != nil:
		return nil, false, err
	case code == taskdoc.CodeDocumentNotFound || code == taskdoc.CodeInvalidAddress || code == taskdoc.CodeOutsideRoot || code == taskdoc.CodeInvalidArguments:
		return nil, false, nil
	}
	return nil, true, nil
}

// headingRange is the range of task's heading, without its line ending.
func headingRange(t *text, task *taskdoc.Task) Range {
	return t.span(taskdoc.Span{Start: task.HeadingSpan.Start, End: trimLineEnding(t.src, task.HeadingSpan.Start, task.HeadingSpan.End)})
}

// valueRange is the range of field f's value on its first line, or of the
// whole item when the value is empty.
func (c *checker) valueRange(f taskdoc.Field) Range {
	start, value := c.v.fieldValue(f)
	if value == "" {
		return c.t.span(taskdoc.Span{Start: f.Span.Start, End: trimLineEnding(c.t.src, f.Span.Start, f.Span.End)})
	}
	return c.t.span(taskdoc.Span{Start: start, End: start + len(value)})
}

// trimLineEnding moves end back over the line endings that end src[start:end].
func trimLineEnding(src []byte, start, end int) int {
	for end > start && (src[end-1] == '\n' || src[end-1] == '\r') {
		end--
	}
	return end
}

// lineEnd is where the text of the line holding offset ends.
func lineEnd(t *text, offset int) int {
	return t.lines.End(t.lines.Line(offset))
}
