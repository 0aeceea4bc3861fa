package editor

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// maxWorkspaceSymbols caps what WorkspaceSymbols returns: an editor shows
// a list to pick from, and a query of one letter would otherwise return
// every task of a large workspace.
const maxWorkspaceSymbols = 500

// Symbols returns the outline of the document at path (its open buffer,
// else its file): its Tasks section, whose Range is the section
// (Document.TasksSpan) and SelectionRange its heading, with one child per
// task, whose Range is the task without the blank lines that end it and
// SelectionRange its heading. A document without a Tasks section, or that does not read, has
// none; so has a path that is not a task document (under docs/, or the
// coordinator's list). One that does not exist is DOCUMENT_NOT_FOUND.
func (s *Session) Symbols(ctx context.Context, path string) ([]Symbol, error) {
	if !isDocument(path) {
		return nil, nil
	}
	v, err := s.view(ctx, path)
	if err != nil {
		return nil, err
	}
	doc := v.Doc
	if doc == nil || doc.TasksHeading == nil {
		return nil, nil
	}
	t := v.text()
	h := doc.TasksHeading
	section := Symbol{
		Name:           h.Text,
		Kind:           SymbolTasks,
		Range:          t.span(doc.TasksSpan),
		SelectionRange: t.span(taskdoc.Span{Start: h.Span.Start, End: trimLineEnding(t.src, h.Span.Start, h.Span.End)}),
		Children:       make([]Symbol, 0, len(doc.Tasks)),
	}
	for i := range doc.Tasks {
		task := &doc.Tasks[i]
		section.Children = append(section.Children, Symbol{
			Name:           task.Title,
			Detail:         string(task.Status),
			Kind:           SymbolTask,
			Status:         task.Status,
			Address:        taskAddress(v, task),
			Range:          t.span(taskdoc.Span{Start: task.Span.Start, End: trimBlankLines(t, task.Span)}),
			SelectionRange: headingRange(t, task),
		})
	}
	return []Symbol{section}, nil
}

// WorkspaceSymbols returns the tasks of every task document of the
// workspace (open buffers in place of their files) whose title or slug
// holds query, ignoring case; an empty query matches every task. They
// are sorted by address, at most 500 of them.
func (s *Session) WorkspaceSymbols(ctx context.Context, query string) ([]TaskSymbol, error) {
	vs, err := s.views(ctx)
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(query)
	var out []TaskSymbol
	for _, v := range vs {
		if v.Doc == nil {
			continue
		}
		for i := range v.Doc.Tasks {
			task := &v.Doc.Tasks[i]
			if q != "" && !strings.Contains(strings.ToLower(task.Title), q) && !strings.Contains(strings.ToLower(task.Slug), q) {
				continue
			}
			out = append(out, TaskSymbol{Name: task.Title, Address: taskAddress(v, task), Status: task.Status,
				Location: Location{Path: v.Path, Range: headingRange(v.text(), task)}})
		}
	}
	slices.SortStableFunc(out, func(a, b TaskSymbol) int { return strings.Compare(a.Address, b.Address) })
	if len(out) > maxWorkspaceSymbols {
		out = out[:maxWorkspaceSymbols]
	}
	return out, nil
}

// taskAddress is the address of task in v: "/api/auth.md#slug".
func taskAddress(v *view, task *taskdoc.Task) string {
	if v.Address == "" {
		return ""
	}
	return v.Address + "#" + task.Slug
}

// trimBlankLines is where span ends without the blank lines at its end:
// after the line ending of its last line that holds more than white space
// (its first line is always kept).
func trimBlankLines(t *text, span taskdoc.Span) int {
	end := span.End
	for end > span.Start {
		start := t.lines.Start(t.lines.Line(end - 1)) // of the line holding the last byte
		if start <= span.Start || len(bytes.TrimSpace(t.src[start:end])) > 0 {
			break
		}
		end = start
	}
	return end
}
