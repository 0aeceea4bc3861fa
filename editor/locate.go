package editor

import (
	"bytes"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// Where things are in a document's source, for the answers that point at
// them: the task at the cursor, the "@/" references of a task's body and
// the entries of its Depends-On field.

// taskAt is the task whose range holds offset, nil when none does.
func (v *view) taskAt(offset int) *taskdoc.Task {
	if v.Doc == nil {
		return nil
	}
	tasks := v.Doc.Tasks
	for i := range tasks {
		if tasks[i].Span.Start <= offset && (offset < tasks[i].Span.End || i == len(tasks)-1 && offset == tasks[i].Span.End) {
			return &tasks[i]
		}
	}
	return nil
}

// task is the task with slug, nil when there is none (or the document
// does not parse).
func (v *view) task(slug string) *taskdoc.Task {
	if v.Doc == nil {
		return nil
	}
	for i := range v.Doc.Tasks {
		if v.Doc.Tasks[i].Slug == slug {
			return &v.Doc.Tasks[i]
		}
	}
	return nil
}

// mentions are the references of task's body where they are written,
// offsets into the source: task.References, repeats included, each where
// it stands. Text in the task's metadata is not its body.
func (v *view) mentions(task *taskdoc.Task) []taskdoc.Mention {
	src := v.Doc.Source
	from := task.HeadingSpan.End
	var out []taskdoc.Mention
	for _, m := range taskdoc.FindReferences(string(src[from:task.Span.End])) {
		m.Start += from
		m.End += from
		if inField(task, m.Start) {
			continue
		}
		out = append(out, m)
	}
	return out
}

func inField(task *taskdoc.Task, offset int) bool {
	for _, f := range task.Fields {
		if f.Span.Start <= offset && offset < f.Span.End {
			return true
		}
	}
	return false
}

// fieldValue is where the value of field f starts in the source and the
// value as written on its first line (a value wrapped onto further lines
// continues past it).
func (v *view) fieldValue(f taskdoc.Field) (start int, value string) {
	src := v.Doc.Source
	line := src[f.Span.Start:f.Span.End]
	if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
		line = line[:i]
	}
	colon := bytes.IndexByte(line, ':')
	if colon < 0 {
		return f.Span.Start, ""
	}
	rest := line[colon+1:]
	// "**Key:** value": the closing "**" belongs to the key.
	rest = bytes.TrimPrefix(rest, []byte("**"))
	value = strings.TrimRight(string(rest), " \t")
	trimmed := strings.TrimLeft(value, " \t")
	start = f.Span.Start + (len(line) - len(rest)) + (len(value) - len(trimmed))
	return start, trimmed
}

// dependsOn are the entries of task's Depends-On field with their offsets
// in the source; entries on a wrapped line of the value are left out.
func (v *view) dependsOn(task *taskdoc.Task) []taskdoc.DependsOnEntry {
	for _, f := range task.Fields {
		if !strings.EqualFold(f.Key, taskdoc.KeyDependsOn) {
			continue
		}
		start, value := v.fieldValue(f)
		entries := taskdoc.DependsOnEntries(value)
		for i := range entries {
			entries[i].Start += start
			entries[i].End += start
		}
		return entries
	}
	return nil
}

// field is task's first field with key (ignoring case).
func field(task *taskdoc.Task, key string) (taskdoc.Field, bool) {
	for _, f := range task.Fields {
		if strings.EqualFold(f.Key, key) {
			return f, true
		}
	}
	return taskdoc.Field{}, false
}

// OpenPaths are the paths of the open documents, sorted.
func (s *Session) OpenPaths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.open))
	for p := range s.open {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
