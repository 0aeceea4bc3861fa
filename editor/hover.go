package editor

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
)

// hoverLines is how many lines of a referenced document a hover shows
// when the reference names no section.
const hoverLines = 20

// Hover returns what an editor shows at a place in the document at path,
// or nil when there is nothing to show there:
//
//   - on a task's heading, the task: its address and status, its holder
//     (the Assignee field, and whether the claim's holder is online, as the
//     plan's claims say), Workflow and Main-Workflow, why it is blocked,
//     its dependencies each with its status, and its journal's last
//     checkpoint (package journal);
//   - on an "@/" reference in a task's body, the section it names
//     (taskdoc.Document.Section), or the first lines of the document when
//     it names none;
//   - on an entry of a Depends-On field, the task it names, as on its
//     heading.
//
// Documents are read through the Session: open buffers first.
func (s *Session) Hover(ctx context.Context, path string, at Position) (*Hover, error) {
	v, err := s.view(ctx, path)
	if err != nil || v.Doc == nil {
		return nil, err
	}
	t := v.text()
	offset, err := t.offset(at)
	if err != nil {
		return nil, err
	}
	task := v.taskAt(offset)
	if task == nil {
		return nil, nil
	}
	if offset < trimLineEnding(t.src, task.HeadingSpan.Start, task.HeadingSpan.End) {
		md, err := s.taskMarkdown(ctx, v, task)
		if err != nil {
			return nil, err
		}
		return &Hover{Markdown: md, Range: headingRange(t, task)}, nil
	}
	for _, m := range v.mentions(task) {
		if m.Start <= offset && offset < m.End {
			md, err := s.referenceMarkdown(ctx, m.Reference)
			if err != nil {
				return nil, err
			}
			return &Hover{Markdown: md, Range: t.span(taskdoc.Span{Start: m.Start, End: m.End})}, nil
		}
	}
	for _, e := range v.dependsOn(task) {
		if !e.Valid || offset < e.Start || offset >= e.End {
			continue
		}
		r := t.span(taskdoc.Span{Start: e.Start, End: e.End})
		dv, dep, err := s.dependency(ctx, v, e.Dependency)
		if err != nil {
			return nil, err
		}
		if dep == nil {
			return &Hover{Markdown: fmt.Sprintf("`%s`: %s", e.Text, missing(dv, e.Dependency)), Range: r}, nil
		}
		md, err := s.taskMarkdown(ctx, dv, dep)
		if err != nil {
			return nil, err
		}
		return &Hover{Markdown: md, Range: r}, nil
	}
	return nil, nil
}

// taskMarkdown describes task of v for a hover.
func (s *Session) taskMarkdown(ctx context.Context, v *view, task *taskdoc.Task) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · `%s`", task.Title, task.Status)
	if a := taskAddress(v, task); a != "" {
		fmt.Fprintf(&b, "\n\n`%s`", a)
	}
	b.WriteString("\n")
	item := func(format string, args ...any) { fmt.Fprintf(&b, "\n- "+format, args...) }
	holder, err := s.holder(ctx, v, task)
	if err != nil {
		return "", err
	}
	if holder != "" {
		item("Holder: %s", holder)
	}
	for _, key := range []string{taskdoc.KeyMainWorkflow, taskdoc.KeyWorkflow, taskdoc.KeyBlocked} {
		if value, ok := task.Field(key); ok && value != "" {
			item("%s: %s", key, value)
		}
	}
	deps := task.ValidDependencies()
	if len(deps) > 0 {
		item("Depends on:")
	}
	for _, d := range deps {
		dv, dep, err := s.dependency(ctx, v, d)
		if err != nil {
			return "", err
		}
		state := missing(dv, d)
		if dep != nil {
			state = "`" + string(dep.Status) + "`"
		}
		fmt.Fprintf(&b, "\n  - `%s` %s", d, state)
	}
	last, err := s.lastCheckpoint(ctx, v, task)
	if err != nil {
		return "", err
	}
	if last != nil {
		item("Last checkpoint: #%d %s, %s", last.Sequence, last.Type, last.Time.Format(time.RFC3339))
		if last.Agent != "" {
			fmt.Fprintf(&b, " by %s", last.Agent)
		}
		fmt.Fprintf(&b, ": %s", last.Summary)
	}
	return b.String(), nil
}

// holder is who holds task: its Assignee field, and whether that agent's
// claim is live, as the plan's claims and the agents' heartbeats say.
func (s *Session) holder(ctx context.Context, v *view, task *taskdoc.Task) (string, error) {
	assignee, _ := task.Field(taskdoc.KeyAssignee)
	if assignee == "" {
		return "", nil
	}
	if !strings.HasPrefix(v.Path, taskdoc.FolderDocs+"/") || v.Address == "" || !underWay(task.Status) {
		return assignee, nil
	}
	states, err := s.claimStates(ctx, v)
	if err != nil {
		return "", err
	}
	switch st, ok := states[task.Slug]; {
	case !ok || st.Holder != assignee:
		return assignee + " (no claim)", nil
	case st.HolderOnline:
		return assignee + " (online)", nil
	}
	return assignee + " (offline: its claim is stale)", nil
}

// lastCheckpoint is the newest entry of task's journal, nil when it has
// none or no journal can be read for it (a task of the coordinator's
// list, a task not saved yet).
func (s *Session) lastCheckpoint(ctx context.Context, v *view, task *taskdoc.Task) (*journal.Entry, error) {
	if !strings.HasPrefix(v.Path, taskdoc.FolderDocs+"/") || v.Address == "" {
		return nil, nil
	}
	entries, err := journal.New(s.ws).List(ctx, taskAddress(v, task), journal.Query{Limit: 1})
	if err != nil || len(entries) == 0 {
		return nil, ctx.Err()
	}
	return &entries[0], nil
}

// dependency is the document of d, a dependency of a task of v, and the
// task it names; the task is nil when the document or the task does not
// exist (the view is nil when the document does not).
func (s *Session) dependency(ctx context.Context, v *view, d taskdoc.Dependency) (*view, *taskdoc.Task, error) {
	dv := v
	if d.Document != "" {
		var err error
		if dv, err = s.referenced(ctx, d.Document); dv == nil {
			return nil, nil, err
		}
	}
	return dv, dv.task(d.Slug), nil
}

// missing says why dependency d, in the document dv (nil when there is
// none), names no task.
func missing(dv *view, d taskdoc.Dependency) string {
	if dv == nil {
		return "names a document that does not exist"
	}
	return "names no task of " + dv.Address
}

// referenced is the document at an address path ("/specs/x.md") as the
// Session sees it, nil when there is none; only ctx ending is an error.
func (s *Session) referenced(ctx context.Context, address string) (*view, error) {
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		return nil, nil
	}
	v, err := s.view(ctx, a.File())
	if err != nil {
		return nil, ctx.Err()
	}
	return v, nil
}

// referenceMarkdown is the text a reference points at, for a hover.
func (s *Session) referenceMarkdown(ctx context.Context, ref taskdoc.Reference) (string, error) {
	head := "`" + ref.Raw + "`"
	v, err := s.referenced(ctx, ref.Path)
	switch {
	case err != nil:
		return "", err
	case v == nil:
		return head + ": no such document", nil
	case v.Doc == nil:
		return head + ": the document does not read: " + v.Err.Error(), nil
	case ref.Section != "":
		text, ok := v.Doc.Section(ref.Section)
		if !ok {
			return head + ": no section #" + ref.Section + " in " + ref.Path, nil
		}
		return head + "\n\n---\n\n" + strings.TrimRight(text, "\n"), nil
	}
	return head + "\n\n---\n\n" + firstLines(v, hoverLines), nil
}

// firstLines is the text of v's first n lines after its front matter,
// without blank lines at either end, "…" after it when there is more.
func firstLines(v *view, n int) string {
	t := v.text()
	start := 0
	if raw := v.Doc.FrontMatter.Raw; raw != nil {
		start = bytes.Index(t.src, raw) + len(raw)
	}
	first := t.lines.Line(start)
	for first < t.lines.Count()-1 && blank(t, first) {
		first++
	}
	last := min(first+n, t.lines.Count()) // after the lines shown
	more := false
	for i := last; i < t.lines.Count() && !more; i++ {
		more = !blank(t, i)
	}
	for last > first && blank(t, last-1) {
		last--
	}
	lines := make([]string, 0, last-first+2)
	for i := first; i < last; i++ {
		lines = append(lines, string(t.src[max(start, t.lines.Start(i)):t.lines.End(i)]))
	}
	if more {
		lines = append(lines, "", "…")
	}
	return strings.Join(lines, "\n")
}

// blank reports whether line i of t holds only white space.
func blank(t *text, i int) bool {
	return len(bytes.TrimSpace(t.src[t.lines.Start(i):t.lines.End(i)])) == 0
}
