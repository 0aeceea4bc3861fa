package taskdoc_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// assertEditProperty asserts the byte-exact editing property of one
// successful edit of the task slug, given the Document and the task the
// edit returned, and returns a full parse of its result:
//
//   - when before has the task, every byte outside its span is identical
//     in after (the edit changed, renamed or removed it);
//   - otherwise after has a new task with that slug, and after is before
//     with bytes inserted around that task's span only: the task itself
//     and the line endings that keep a blank line before it (and a new
//     "## Tasks" heading when before had no Tasks section);
//   - after parses, and every heading and task outside the edited range
//     keeps its position (shifted by the change in length) and meaning;
//   - the front matter is byte for byte the same (but for a line ending
//     added after it when the document ended with it);
//   - the returned Document is exactly what Parse gives for its bytes, and
//     the returned task is the edited one (see requireReturned).
func assertEditProperty(t testing.TB, before []byte, nd *taskdoc.Document, task *taskdoc.Task, slug string) *taskdoc.Document {
	t.Helper()
	require.NotNil(t, nd, "the edit returned no document")
	after := nd.Source
	old, err := taskdoc.Parse(before)
	require.NoError(t, err, "the document before the edit does not parse")
	got, err := taskdoc.Parse(after)
	require.NoError(t, err, "the edited document does not parse:\n%s", after)
	// Appending to a document that ends right after its front matter
	// adds the closing line's missing line ending, nothing else.
	require.Equal(t, string(bytes.TrimRight(old.FrontMatter.Raw, "\r\n")), string(bytes.TrimRight(got.FrontMatter.Raw, "\r\n")),
		"front matter changed")

	var window taskdoc.Span // the edited range in before
	at := -1                // where the edited task's heading starts in after
	delta := len(after) - len(before)
	if task, err := old.Task(slug); err == nil {
		window, at = task.Span, task.Span.Start
		require.Equal(t, string(before[:window.Start]), string(after[:window.Start]),
			"bytes before task %q changed", slug)
		require.Equal(t, string(before[window.End:]), string(after[window.End+delta:]),
			"bytes after task %q changed", slug)
	} else {
		added, err := got.Task(slug)
		require.NoError(t, err, "task %q is in neither document", slug)
		// after is before with after[start:added.Span.End] inserted.
		start := len(before) - (len(after) - added.Span.End)
		require.True(t, start >= 0 && start <= added.Span.Start, "the new task's span %v does not fit", added.Span)
		require.Equal(t, string(before[:start]), string(after[:start]), "bytes before the new task changed")
		inserted := bytes.Trim(after[start:added.Span.Start], "\r\n")
		if old.TasksHeading == nil {
			// The edit created the Tasks section for the task.
			require.Equal(t, "## Tasks", string(inserted), "the new Tasks section")
		} else {
			require.Empty(t, inserted, "only line endings may precede the new task")
		}
		require.Equal(t, string(before[start:]), string(after[added.Span.End:]), "bytes after the new task changed")
		window, at = taskdoc.Span{Start: start, End: start}, added.Span.Start
	}
	requireSameOutside(t, old, got, window, delta)
	requireReturned(t, got, nd, task, slug, at)
	return got
}

// requireReturned checks what an edit returned against a full parse of its
// bytes. The edit builds its Document from the old one and a parse of the
// edited range only, so it must be exactly the parsed one, unexported
// fields included (require.Equal compares with reflect.DeepEqual): the
// outline, tasks, metadata locations and slug index that later edits rely
// on. The task must point into its Tasks and be the one whose heading
// starts at at (-1 for a removal, which returns no task).
func requireReturned(t testing.TB, parsed, nd *taskdoc.Document, task *taskdoc.Task, slug string, at int) {
	t.Helper()
	require.Equal(t, parsed, nd, "the returned Document differs from a parse of its bytes")
	if task == nil {
		_, err := parsed.Task(slug)
		require.ErrorIs(t, err, taskdoc.ErrTaskNotFound, "no task returned, yet %q is still there", slug)
		return
	}
	k := -1
	for i := range nd.Tasks {
		if &nd.Tasks[i] == task {
			k = i
		}
	}
	require.GreaterOrEqual(t, k, 0, "the returned task does not point into the returned Document")
	require.Equal(t, parsed.Tasks[k], *task, "the returned task differs from a parse")
	require.Equal(t, at, task.Span.Start, "the returned task is not the edited one")
}

// requireSameOutside compares headings and tasks that start outside the
// window (a range of old) with their counterparts in got.
func requireSameOutside(t testing.TB, old, got *taskdoc.Document, window taskdoc.Span, delta int) {
	t.Helper()
	type key struct {
		Start, Level int
		Text         string
		Top          bool
	}
	outside := func(d *taskdoc.Document, w taskdoc.Span, shift int) (hs []key, ts []string) {
		for _, h := range d.Headings {
			switch {
			case h.Span.Start < w.Start:
				hs = append(hs, key{h.Span.Start, h.Level, h.Text, h.TopLevel})
			case h.Span.Start >= w.End:
				hs = append(hs, key{h.Span.Start + shift, h.Level, h.Text, h.TopLevel})
			}
		}
		for _, task := range d.Tasks {
			if task.Span.Start < w.Start || task.Span.Start >= w.End {
				ts = append(ts, task.Slug+" "+string(task.Status)+" "+task.Content())
			}
		}
		return hs, ts
	}
	oldH, oldT := outside(old, window, delta)
	newWindow := taskdoc.Span{Start: window.Start, End: window.End + delta}
	if window.Start == window.End { // an insertion: skip the new task
		newWindow.End = window.Start + delta
	}
	gotH, gotT := outside(got, newWindow, 0)
	require.Equal(t, oldH, gotH, "headings outside the edited range changed")
	require.Equal(t, oldT, gotT, "tasks outside the edited range changed")
}

// edited drops the task an edit returns, for tables that need only the
// document (or the error).
func edited(nd *taskdoc.Document, _ *taskdoc.Task, err error) (*taskdoc.Document, error) {
	return nd, err
}

// removed gives RemoveTask the shape of the other edits: it returns no task.
func removed(nd *taskdoc.Document, err error) (*taskdoc.Document, *taskdoc.Task, error) {
	return nd, nil, err
}
