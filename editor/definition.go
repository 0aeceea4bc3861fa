package editor

import (
	"context"

	"github.com/taskmd/taskmd/taskdoc"
)

// Definition returns where the thing at a place in the document at path
// is defined: for an "@/" reference in a task's body, the heading of the
// section it names, or the start of the document when it names none (or
// a section the document does not have); for an entry of a Depends-On
// field, the heading of the task it names. A reference to a document
// that does not exist, a dependency on a task that does not, and any
// other place have none. A place at the end of a reference or an entry
// is on it, as a cursor after a word is.
func (s *Session) Definition(ctx context.Context, path string, at Position) ([]Location, error) {
	v, err := s.view(ctx, path)
	if err != nil || v.Doc == nil {
		return nil, err
	}
	offset, err := v.text().offset(at)
	if err != nil {
		return nil, err
	}
	task := v.taskAt(offset)
	if task == nil {
		return nil, nil
	}
	for _, m := range v.mentions(task) {
		if offset < m.Start || offset > m.End {
			continue
		}
		rv, err := s.referenced(ctx, m.Path)
		if rv == nil {
			return nil, err
		}
		loc := Location{Path: rv.Path}
		if rv.Doc != nil && m.Section != "" {
			for _, h := range rv.Doc.Headings {
				if h.Slug == m.Section {
					loc.Range = rv.text().span(taskdoc.Span{Start: h.Span.Start, End: trimLineEnding(rv.src, h.Span.Start, h.Span.End)})
					break
				}
			}
		}
		return []Location{loc}, nil
	}
	for _, e := range v.dependsOn(task) {
		if !e.Valid || offset < e.Start || offset > e.End {
			continue
		}
		dv, dep, err := s.dependency(ctx, v, e.Dependency)
		if dep == nil {
			return nil, err
		}
		return []Location{{Path: dv.Path, Range: headingRange(dv.text(), dep)}}, nil
	}
	return nil, nil
}
