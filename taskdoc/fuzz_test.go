package taskdoc_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// fuzzDate is the completion date every fuzzed Complete uses.
var fuzzDate = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)

// fuzzSeeds are awkward documents: every way a file can hide, fake or bend a
// heading, plus the line-ending and prefix variants editors produce.
var fuzzSeeds = []string{
	"",
	"## Tasks\n",
	"## Tasks",
	"# Auth\n\n## Tasks\n\n### Implement JWT signing\n\n- Status: pending\n- Workflow: tdd\n\nSign tokens.\n\n@/specs/jwt-spec.md\n\n### Add validation\n\n- Status: in_progress\n\nValidate.\n",
	"# Auth\r\n\r\n## Tasks\r\n\r\n### One\r\n\r\n- Status: pending\r\n\r\nBody\r\n\r\n### Two\r\n\r\n* Status: blocked\r\n",
	"\ufeff# Bom\n\n## Tasks\n\n### One\n\n+ Status: pending\n",
	"---\ntitle: x\ntags: [a, b]\n---\n# Front\n\n## Tasks\n\n### One\n\n- Status: pending\n",
	"+++\ntitle = \"x\"\n+++\n# Toml\n\n## Tasks\n\n### One\n",
	"Doc\n===\n\nTasks\n-----\n\n### Setext sibling\n\n- Status: pending\n\nFoo\n---\n",
	"# D\n\n## Tasks\n\n### A\n\n```\n### not a task\n```\n\n    ### indented code\n\n<div>\n### html\n</div>\n\n### B\n",
	"# D\n\n## Tasks\n\n### A\n\n```go\nunclosed fence\n\n### B\n\n- Status: pending\n",
	"# D\n\n## Tasks\n\n### A\n\n- Status: pending\n\nno final newline",
	"# D\n\n## Tasks\n\n### A\n\n**Status:** completed\n\n* Completed: 2026-01-02\n* Note: done\n",
	"# D\n\n## Notes\n\n### Setup\n\n## Tasks\n\n### Setup\n\n- Status: pending\n",
	"# D\n\n## Tasks\n\n- ### In a list\n\n> ### In a quote\n\n### Real\n\n\t- Status: pending\n\t- Workflow:\tx\n",
	"# D\n\n## Tasks\n\n### Café Über\n\n- Status: pending\n  - nested: item\n\n#### Sub heading\n\nText.\n\n### Add API: auth & tokens!\n",
	"# D\n\n## Tasks\n\n### Same\n\n### Same\n",
	"# D\n\n### Tasks ###\n\n#### Deep one\n\n- status: PENDING\n\n## After\n\n#### Not a task\n",
	"# D\n\n## Tasks\n\n### A\n\n<!--\n### B\n\n- Status: pending\n",
	"# D\n\n## Tasks\n\n### A\n\n[ref]: /url\n> lazy\ncontinuation\n\n### B\n",
	"# D\r\n## Tasks\r\n### A\r\n- Status: pending\r\n### B",
	"## Tasks\n\n### A\n\n## Notes\n\n* Completed: x\n* Note: y\n",
	"# D\r## Tasks\r### A\r- Status: pending\r\r### B\n\nNext\n---\n",
	"---\n\n# D\n\n## Tasks\n\n### A\n\n- [ ] step\n\n### B\n#5 ideas\n---\n",
	"## Tasks\n\n### A\n\n  indented\n\n### B\n\n**Status:** pending\n\n* item\n",
}

// requireTypedError fails unless err is a *taskdoc.Error with a code and
// the failed call returned no document.
func requireTypedError(t testing.TB, err error, out *taskdoc.Document) {
	t.Helper()
	var e *taskdoc.Error
	require.True(t, errors.As(err, &e), "error is not a *taskdoc.Error: %T %v", err, err)
	require.NotEmpty(t, e.Code, "error without a code: %v", err)
	require.Nil(t, out, "a failed edit returned a document")
}

// headingKey and taskKey are what must survive an edit for every heading and
// task outside the edited range: position (shifted by the length change) and
// meaning.
type headingKey struct {
	Start, End int
	Level      int
	Text       string
	TopLevel   bool
}

type taskKey struct {
	Start, End int
	Slug       string
	Title      string
	Level      int
	Status     taskdoc.Status
	Fields     string
	Body       string
}

// shiftStart and shiftEnd map the start and end of a range outside the
// edited window of the old source to the new one; delta is the change in
// length. They differ at an insertion point: a range ending there stays, a
// range starting there moves.
func shiftStart(off int, window taskdoc.Span, delta int) int {
	if off < window.Start {
		return off
	}
	return off + delta
}

func shiftEnd(off int, window taskdoc.Span, delta int) int {
	if off <= window.Start {
		return off
	}
	return off + delta
}

// insideWindow reports whether a heading or task starting at start belongs
// to the edited range.
func insideWindow(start int, w taskdoc.Span) bool {
	return start >= w.Start && start < w.End
}

func outsideHeadings(hs []taskdoc.Heading, w taskdoc.Span, delta int) []headingKey {
	var keys []headingKey
	for _, h := range hs {
		if insideWindow(h.Span.Start, w) {
			continue
		}
		// A heading on the last line of a file without a final newline
		// gains the line ending when an edit appends after it.
		end := shiftEnd(h.Span.End, w, delta)
		if h.Span.End >= w.Start && h.Span.End <= w.End {
			end = -1
		}
		keys = append(keys, headingKey{
			Start: shiftStart(h.Span.Start, w, delta), End: end,
			Level: h.Level, Text: h.Text, TopLevel: h.TopLevel,
		})
	}
	return keys
}

func outsideTasks(ts []taskdoc.Task, w taskdoc.Span, delta int) []taskKey {
	var keys []taskKey
	for _, task := range ts {
		if insideWindow(task.Span.Start, w) {
			continue
		}
		var fields strings.Builder
		for _, f := range task.Fields {
			fields.WriteString(f.Key + "=" + f.Value + "\n")
		}
		// The task just before the window may own separator lines the
		// edit adds there, so where it ends is not compared.
		end := shiftEnd(task.Span.End, w, delta)
		if task.Span.End >= w.Start && task.Span.End <= w.End {
			end = -1
		}
		keys = append(keys, taskKey{
			Start: shiftStart(task.Span.Start, w, delta), End: end,
			Slug: task.Slug, Title: task.Title, Level: task.Level, Status: task.Status,
			Fields: fields.String(), Body: task.Body,
		})
	}
	return keys
}

// checkSplice asserts the byte-exact editing property of one successful
// edit: out equals before's source everywhere outside old (a range of the
// source that the edit may replace), and a reparse of out keeps every
// heading and task outside that range with the same meaning, shifted by the
// change in length. It returns the reparsed document.
func checkSplice(t testing.TB, before *taskdoc.Document, out []byte, old taskdoc.Span) *taskdoc.Document {
	t.Helper()
	src := before.Source
	delta := len(out) - len(src)
	require.GreaterOrEqual(t, len(out), old.Start+len(src)-old.End, "output shorter than the bytes it must keep")
	require.Equal(t, string(src[:old.Start]), string(out[:old.Start]),
		"bytes before the edited range [%d,%d) changed", old.Start, old.End)
	require.Equal(t, string(src[old.End:]), string(out[old.End+delta:]),
		"bytes after the edited range [%d,%d) changed", old.Start, old.End)

	after, err := taskdoc.Parse(out)
	require.NoError(t, err, "edited document does not parse:\n%s", out)
	window := taskdoc.Span{Start: old.Start, End: old.End + delta}
	require.Equal(t, outsideHeadings(before.Headings, old, delta), outsideHeadings(after.Headings, window, 0),
		"headings outside the edited range changed:\n--- before\n%s\n--- after\n%s", src, out)
	require.Equal(t, outsideTasks(before.Tasks, old, delta), outsideTasks(after.Tasks, window, 0),
		"tasks outside the edited range changed:\n--- before\n%s\n--- after\n%s", src, out)
	requireSameFrontMatter(t, before.FrontMatter.Raw, after.FrontMatter.Raw)
	return after
}

// requireSameFrontMatter allows one change to the front matter's bytes: a
// file that is only front matter, without a final newline, gains the line
// ending when an edit appends after it.
func requireSameFrontMatter(t testing.TB, before, after []byte) {
	t.Helper()
	if bytes.Equal(before, after) {
		return
	}
	added := string(bytes.TrimPrefix(after, before))
	require.True(t, bytes.HasPrefix(after, before) && !bytes.HasSuffix(before, []byte("\n")) &&
		(added == "\n" || added == "\r\n" || added == "\r"), "front matter changed: %q -> %q", before, after)
}

// plain reports whether s is simple enough that its Markdown reading is the
// text itself, so an edit of it can be checked by value.
func plain(s string) bool {
	if strings.TrimSpace(s) != s || s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' {
			return false
		}
	}
	return true
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("# D\n\n## Tasks\n\n### A\xff\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		orig := bytes.Clone(src)
		doc, err := taskdoc.Parse(src)
		require.Equal(t, orig, src, "Parse modified its input")
		if !utf8.Valid(src) {
			require.Equal(t, taskdoc.CodeInvalidUTF8, taskdoc.CodeOf(err))
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			require.Positive(t, e.Line)
			require.Positive(t, e.Column)
			require.True(t, utf8.Valid(src[:e.Offset]), "a byte before the offset is not valid")
			r, size := utf8.DecodeRune(src[e.Offset:])
			require.Equal(t, []any{utf8.RuneError, 1}, []any{r, size}, "the offset is not at an invalid byte")
			line, column := taskdoc.Position(src, e.Offset)
			require.Equal(t, []int{e.Line, e.Column}, []int{line, column})
			return
		}
		if err != nil {
			requireTypedError(t, err, nil)
			return
		}
		checkDocument(t, doc, src)
	})
}

// checkDocument asserts the structural invariants of a parsed document.
func checkDocument(t testing.TB, doc *taskdoc.Document, src []byte) {
	t.Helper()
	require.Equal(t, src, doc.Source, "Source is not the input")
	require.Contains(t, []string{"\n", "\r\n", "\r"}, doc.Newline)
	if doc.FrontMatter.Raw != nil {
		at := bytes.Index(src, doc.FrontMatter.Raw)
		require.True(t, at == 0 || (at == 3 && bytes.HasPrefix(src, []byte("\ufeff"))),
			"front matter is not at the start of the document")
	}
	prev := 0
	anchors := map[string]bool{}
	for _, h := range doc.Headings {
		require.LessOrEqual(t, prev, h.Span.Start, "headings out of order or overlapping")
		require.Less(t, h.Span.Start, h.Span.End)
		require.LessOrEqual(t, h.Span.End, len(src))
		require.True(t, h.Level >= 1 && h.Level <= 6, "heading level %d", h.Level)
		require.False(t, anchors[h.Slug], "duplicate outline anchor %q", h.Slug)
		anchors[h.Slug] = true
		_, ok := doc.Section(h.Slug)
		require.True(t, ok, "no section for the outline anchor %q", h.Slug)
		line, column := taskdoc.Position(src, h.Span.Start)
		require.Equal(t, []int{h.Line, 1}, []int{line, column}, "position of heading %q", h.Text)
		prev = h.Span.End
	}
	if doc.TasksHeading == nil {
		require.Empty(t, doc.Tasks)
		return
	}
	require.Equal(t, doc.TasksHeading.Span.Start, doc.TasksSpan.Start)
	require.LessOrEqual(t, doc.TasksHeading.Span.End, doc.TasksSpan.End)
	require.LessOrEqual(t, doc.TasksSpan.End, len(src))
	checkTasks(t, doc)
}

// checkTasks asserts that tasks tile the Tasks section after its heading
// and that every task is found by its slug; a slug that several tasks
// share (titles repeated by hand) names none of them.
func checkTasks(t testing.TB, doc *taskdoc.Document) {
	t.Helper()
	prev := doc.TasksHeading.Span.End
	shared := map[string]int{}
	for _, task := range doc.Tasks {
		shared[task.Slug]++
	}
	for i, task := range doc.Tasks {
		require.LessOrEqual(t, prev, task.Span.Start, "task %q out of order", task.Slug)
		require.Equal(t, task.Span.Start, task.HeadingSpan.Start)
		require.LessOrEqual(t, task.HeadingSpan.End, task.Span.End)
		require.Equal(t, doc.TasksHeading.Level+1, task.Level, "task %q level", task.Slug)
		if i+1 < len(doc.Tasks) {
			require.Equal(t, doc.Tasks[i+1].Span.Start, task.Span.End, "task %q does not reach the next task", task.Slug)
		} else {
			require.Equal(t, doc.TasksSpan.End, task.Span.End, "last task does not reach the end of the section")
		}
		// The slug is made from the heading's text as GitHub reads it (not
		// trimmed: "### \v 0" is "-0"; a setext line break dropped), while
		// Title is trimmed and reads a break as a space, so the slug is not
		// always Slug(Title); what must hold is that it finds the task.
		found, err := doc.Task(task.Slug)
		if shared[task.Slug] > 1 {
			require.ErrorIs(t, err, taskdoc.ErrDuplicateTask, "slug %q of several tasks", task.Slug)
		} else {
			require.NoError(t, err)
			require.Equal(t, task.Span, found.Span)
		}
		line, _ := taskdoc.Position(doc.Source, task.Span.Start)
		require.Equal(t, line, task.Line, "line of task %q", task.Slug)
		fieldStart := task.HeadingSpan.End
		for _, fld := range task.Fields {
			require.LessOrEqual(t, fieldStart, fld.Span.Start, "fields of %q out of order", task.Slug)
			require.Less(t, fld.Span.Start, fld.Span.End, "field %q of %q has an empty span", fld.Key, task.Slug)
			require.LessOrEqual(t, fld.Span.End, task.Span.End, "field %q lies outside task %q", fld.Key, task.Slug)
			fieldStart = fld.Span.End
		}
		prev = task.Span.End
	}
}

func FuzzEdit(f *testing.F) {
	for i, s := range fuzzSeeds {
		for op := range uint8(7) {
			f.Add(s, op, uint8(i), "Next step|value")
		}
	}
	// Text arguments that are Markdown themselves: each can open a block,
	// start a heading or a list, or define a link, if written unguarded.
	for i, arg := range []string{
		"Title|```", "Title|<!--", "Title|[x]: /y", "Key|value\nmore", "Setext|---", "T|=",
		"  padded  |  value  ", "A #|### inner", "*Star*|> quote", "Tab\there|\tindented",
		"Title|- Status: completed", "Café Über|@/specs/x.md#a", "x|\r\n",
	} {
		f.Add(fuzzSeeds[3], uint8(i), uint8(i), arg)
		f.Add(fuzzSeeds[4], uint8(i+3), uint8(i), arg)
	}
	f.Add(fuzzSeeds[3], uint8(2), uint8(0), "")
	f.Add(fuzzSeeds[3], uint8(4), uint8(1), "New title|## Breaks the section")
	f.Add(fuzzSeeds[3], uint8(3), uint8(0), "Fence|```\nopen")
	f.Fuzz(func(t *testing.T, src string, op, pick uint8, arg string) {
		doc, err := taskdoc.Parse([]byte(src))
		if err != nil {
			requireTypedError(t, err, nil)
			return
		}
		e := chooseEdit(doc, op, pick, arg)
		nd, task, err := e.apply(doc)
		require.Equal(t, src, string(doc.Source), "edit changed the parsed document")
		if err != nil {
			requireTypedError(t, err, nd)
			require.Nil(t, task, "a failed edit returned a task")
			return
		}
		after := checkSplice(t, doc, nd.Source, e.span)
		e.shows(t, after)
		assertEditProperty(t, doc.Source, nd, task, editedSlug(doc, after, e))
	})
}

// editedSlug names the task an edit changed: the one it was given, or
// for an added task the first slug that before did not have.
func editedSlug(before, after *taskdoc.Document, e fuzzEdit) string {
	if !e.insert {
		return e.slug
	}
	had := map[string]bool{}
	for _, task := range before.Tasks {
		had[task.Slug] = true
	}
	for _, task := range after.Tasks {
		if !had[task.Slug] {
			return task.Slug
		}
	}
	return ""
}

// fuzzEdit is one edit chosen by the fuzzer: how to apply it, the range of
// the source it may change, and how its result shows in a reparse.
type fuzzEdit struct {
	apply  func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error)
	slug   string       // the task edited; "" for an added task
	span   taskdoc.Span // empty for an added task: where it goes in
	insert bool
	shows  func(t *testing.T, after *taskdoc.Document)
}

var fuzzStatuses = []taskdoc.Status{
	taskdoc.StatusPending, taskdoc.StatusInProgress, taskdoc.StatusCompleted, taskdoc.StatusBlocked, "bogus",
}

// chooseEdit turns the fuzzer's numbers into an edit of one task. arg
// supplies text: "a|b" gives a title or key (a) and a body or value (b).
func chooseEdit(doc *taskdoc.Document, op, pick uint8, arg string) fuzzEdit {
	a, b, _ := strings.Cut(arg, "|")
	slug := "missing"
	var task *taskdoc.Task
	if len(doc.Tasks) > 0 {
		task = &doc.Tasks[int(pick)%len(doc.Tasks)]
		slug = task.Slug
	}
	var span taskdoc.Span
	if task != nil {
		span = task.Span
	}
	e := fuzzEdit{slug: slug, span: span, shows: func(*testing.T, *taskdoc.Document) {}}
	switch op % 7 {
	case 0:
		s := fuzzStatuses[len(a)%len(fuzzStatuses)]
		e.apply = func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return d.SetStatus(slug, s) }
		e.shows = func(t *testing.T, after *taskdoc.Document) {
			require.NotEqual(t, taskdoc.Status("bogus"), s, "an unknown status was accepted")
			requireTaskStatus(t, after, slug, s)
		}
	case 1:
		e.apply = func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return d.SetField(slug, a, b) }
		e.shows = func(t *testing.T, after *taskdoc.Document) {
			// A key with surrounding space may be trimmed on write; its
			// lookup is then ambiguous, so only the value is checked.
			if a == strings.TrimSpace(a) {
				requireField(t, after, slug, a, strings.TrimSpace(b))
			}
		}
	case 2:
		e.apply = func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return d.Complete(slug, arg, fuzzDate)
		}
		e.shows = func(t *testing.T, after *taskdoc.Document) {
			requireTaskStatus(t, after, slug, taskdoc.StatusCompleted)
			requireField(t, after, slug, "Completed", "2026-11-23")
			// The note is documented to become one line.
			requireField(t, after, slug, "Note", strings.Join(strings.Fields(arg), " "))
		}
	case 3:
		e = chooseAdd(doc, task, pick, a, b)
	case 4:
		e = chooseEditTask(task, slug, a, b)
	case 5:
		e.apply = func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) {
			return removed(d.RemoveTask(slug))
		}
		e.shows = func(t *testing.T, after *taskdoc.Document) {
			_, err := after.Task(slug)
			require.ErrorIs(t, err, taskdoc.ErrTaskNotFound, "removed task %q still there", slug)
		}
	default:
		e.apply = func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return d.RemoveField(slug, a) }
		e.shows = func(t *testing.T, after *taskdoc.Document) {
			if a != "" && a == strings.TrimSpace(a) {
				got, err := after.Task(slug)
				require.NoError(t, err)
				_, ok := got.Field(a)
				require.False(t, ok, "removed field %q still there", a)
			}
		}
	}
	return e
}

func chooseAdd(doc *taskdoc.Document, task *taskdoc.Task, pick uint8, title, body string) fuzzEdit {
	nt := taskdoc.NewTask{Title: title, Content: "- Status: blocked\n\n" + body}
	// A new task goes in right after the task After names, at the end of
	// the Tasks section, or with a new section at the end of the document.
	at := len(doc.Source)
	switch {
	case task != nil && pick%2 == 1 && task.Slug != "": // After "" means the end
		nt.After = task.Slug
		at = task.Span.End
	case doc.TasksHeading != nil:
		at = doc.TasksSpan.End
	}
	return fuzzEdit{
		insert: true,
		span:   taskdoc.Span{Start: at, End: at},
		apply:  func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return d.AddTask(nt) },
		shows: func(t *testing.T, after *taskdoc.Document) {
			require.GreaterOrEqual(t, len(after.Tasks), len(doc.Tasks)+1, "no task was added")
			if !plain(title) {
				return
			}
			slug := taskdoc.Slug(title)
			added, err := after.Task(slug)
			require.NoError(t, err, "added task %q not found", slug)
			require.Equal(t, title, added.Title)
			if plain(body) {
				require.Equal(t, taskdoc.StatusBlocked, added.Status)
			}
			if nt.After != "" {
				prev, err := after.Task(nt.After)
				require.NoError(t, err)
				require.Equal(t, prev.Span.End, added.Span.Start, "task not added after %q", nt.After)
			}
		},
	}
}

func chooseEditTask(task *taskdoc.Task, slug, title, body string) fuzzEdit {
	e := taskdoc.Edit{Title: title}
	if body != "" {
		e.Content = "- Status: blocked\n\n" + body
	}
	var span taskdoc.Span
	if task != nil {
		span = task.Span
	}
	return fuzzEdit{
		slug:  slug,
		span:  span,
		apply: func(d *taskdoc.Document) (*taskdoc.Document, *taskdoc.Task, error) { return d.EditTask(slug, e) },
		shows: func(t *testing.T, after *taskdoc.Document) {
			want := slug
			if title != "" {
				if !plain(title) {
					return
				}
				want = taskdoc.Slug(title)
			}
			got, err := after.Task(want)
			require.NoError(t, err, "edited task %q not found", want)
			if plain(title) {
				require.Equal(t, title, got.Title)
			}
			if plain(body) {
				require.Equal(t, taskdoc.StatusBlocked, got.Status)
				require.Equal(t, body, got.Body)
			}
		},
	}
}

func requireTaskStatus(t testing.TB, d *taskdoc.Document, slug string, want taskdoc.Status) {
	t.Helper()
	got, err := d.Task(slug)
	require.NoError(t, err, "task %q gone after the edit", slug)
	require.Equal(t, want, got.Status, "status of %q", slug)
}

func requireField(t testing.TB, d *taskdoc.Document, slug, key, want string) {
	t.Helper()
	got, err := d.Task(slug)
	require.NoError(t, err, "task %q gone after the edit", slug)
	v, ok := got.Field(key)
	require.True(t, ok, "field %q of %q missing", key, slug)
	require.Equal(t, want, v, "field %q of %q", key, slug)
}
