package editor

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// Complete returns what an editor may insert at a place in the document
// at path, each Completion replacing the part of the word typed so far:
//
//   - after "@/", the documents under docs/ ("api/auth.md"), and after
//     "@/doc.md#" the heading anchors of that document;
//   - in a Depends-On value, the tasks a task may wait for: "#slug" of the
//     other tasks of the document and "/doc.md#slug" of the tasks of other
//     documents, those whose address holds the typed characters in order;
//   - in a Status value, the statuses (taskdoc.Statuses);
//   - in a Workflow or Main-Workflow value, the names of the workflows
//     (workflows/<name>.md, and open buffers there).
//
// Documents are read through the Session: open buffers first, and open
// documents without a file included.
func (s *Session) Complete(ctx context.Context, path string, at Position) ([]Completion, error) {
	v, err := s.view(ctx, path)
	if err != nil || v.Doc == nil {
		return nil, err
	}
	t := v.text()
	offset, err := t.offset(at)
	if err != nil {
		return nil, err
	}
	if task := v.taskAt(offset); task != nil {
		for _, f := range task.Fields {
			if offset < f.Span.Start || offset > lineEnd(t, f.Span.Start) {
				continue
			}
			if start, _ := v.fieldValue(f); offset >= start {
				return s.completeValue(ctx, v, task, f.Key, start, offset)
			}
			return nil, nil // in the key
		}
	}
	line := t.src[t.lines.Start(t.lines.Line(offset)):offset]
	at0 := referenceStart(line)
	if at0 < 0 {
		return nil, nil
	}
	typed := string(line[at0+2:])
	from := offset - len(typed)
	if doc, anchor, ok := strings.Cut(typed, "#"); ok {
		return s.completeAnchors(ctx, t, "/"+doc, anchor, offset)
	}
	return s.completePaths(ctx, t, typed, from, offset)
}

// completeValue completes the value of the field key of task, which
// starts at start, at offset.
func (s *Session) completeValue(ctx context.Context, v *view, task *taskdoc.Task, key string, start, offset int) ([]Completion, error) {
	t := v.text()
	from := offset
	for from > start && !strings.ContainsRune(", \t", rune(t.src[from-1])) {
		from--
	}
	word := string(t.src[from:offset])
	r := t.span(taskdoc.Span{Start: from, End: offset})
	var out []Completion
	switch {
	case strings.EqualFold(key, taskdoc.KeyStatus):
		for _, st := range taskdoc.Statuses {
			out = append(out, Completion{Label: string(st), Kind: CompleteStatus, Range: r, NewText: string(st)})
		}
	case strings.EqualFold(key, taskdoc.KeyWorkflow), strings.EqualFold(key, taskdoc.KeyMainWorkflow):
		names, err := s.workflowNames(ctx)
		if err != nil {
			return nil, err
		}
		for name := range names {
			out = append(out, Completion{Label: name, Kind: CompleteWorkflow, Detail: taskdoc.FolderWorkflows + "/" + name + ".md",
				Range: r, NewText: name})
		}
		slices.SortFunc(out, func(a, b Completion) int { return strings.Compare(a.Label, b.Label) })
	case strings.EqualFold(key, taskdoc.KeyDependsOn):
		vs, err := s.views(ctx)
		if err != nil {
			return nil, err
		}
		add := func(dv *view, prefix string, skip *taskdoc.Task) {
			for i := range dv.Doc.Tasks {
				dt := &dv.Doc.Tasks[i]
				if dt.Slug == skip.Slug || !inOrder(word, prefix+"#"+dt.Slug) {
					continue
				}
				out = append(out, Completion{Label: prefix + "#" + dt.Slug, Kind: CompleteTask,
					Detail: dt.Title + " · " + string(dt.Status), Range: r, NewText: prefix + "#" + dt.Slug})
			}
		}
		add(v, "", task)
		for _, dv := range vs {
			if dv.Path != v.Path && dv.Doc != nil && dv.Address != "" {
				add(dv, dv.Address, &taskdoc.Task{})
			}
		}
	}
	return out, nil
}

// completeAnchors completes the anchor after "@/doc.md#", typed so far
// up to offset.
func (s *Session) completeAnchors(ctx context.Context, t *text, doc, typed string, offset int) ([]Completion, error) {
	rv, err := s.referenced(ctx, doc)
	if rv == nil || rv.Doc == nil {
		return nil, err
	}
	r := t.span(taskdoc.Span{Start: offset - len(typed), End: offset})
	var out []Completion
	for _, h := range rv.Doc.Headings {
		if h.Slug != "" {
			out = append(out, Completion{Label: h.Slug, Kind: CompleteAnchor, Detail: h.Text, Range: r, NewText: h.Slug})
		}
	}
	return out, nil
}

// completePaths completes the document path after "@/", typed so far in
// [from, offset).
func (s *Session) completePaths(ctx context.Context, t *text, typed string, from, offset int) ([]Completion, error) {
	vs, err := s.views(ctx)
	if err != nil {
		return nil, err
	}
	r := t.span(taskdoc.Span{Start: from, End: offset})
	var out []Completion
	for _, v := range vs {
		if v.Address == "" || v.Path == coordinator.File {
			continue
		}
		p := strings.TrimPrefix(v.Address, "/")
		if !inOrder(typed, p) {
			continue
		}
		c := Completion{Label: p, Kind: CompletePath, Range: r, NewText: p}
		if v.Doc != nil {
			c.Detail = v.Doc.Title()
		}
		out = append(out, c)
	}
	return out, nil
}

// referenceStart is where the "@/" of a reference being typed at the end
// of line starts, or -1: an "@" that does not follow a letter or a digit
// (as in an e-mail address), with nothing after it that ends a reference
// (taskdoc.FindReferences).
func referenceStart(line []byte) int {
	i := bytes.LastIndex(line, []byte("@/"))
	if i < 0 || bytes.ContainsAny(line[i:], " \t([<>\"`'") {
		return -1
	}
	if r, _ := utf8.DecodeLastRune(line[:i]); i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return -1
	}
	return i
}

// inOrder reports whether s holds the characters of typed in order,
// ignoring case: what an editor's fuzzy filter keeps, so that no
// completion it would show is left out.
func inOrder(typed, s string) bool {
	s = strings.ToLower(s)
	for _, r := range strings.ToLower(typed) {
		i := strings.IndexRune(s, r)
		if i < 0 {
			return false
		}
		s = s[i+utf8.RuneLen(r):]
	}
	return true
}
