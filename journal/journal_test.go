package journal_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
)

// Every awkward value comes back from List as Add returned it, and Add
// returns it normalised as documented.
func TestAddRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   journal.Entry
		want journal.Entry // Sequence and Time aside; zero means as in
	}{
		{name: "plain", in: journal.Entry{Type: journal.TypeProgress, Summary: "Installed OAuth dependencies"}},
		{name: "all fields", in: journal.Entry{Agent: "worker-1", Type: journal.TypeDecision,
			Summary: "Chose JWT over session cookies", Detail: `{"reason": "Better for API-first architecture"}`,
			FilesChanged: []string{"package.json", "src/auth/passport.ts"}, Key: "req-1"}},
		{name: "type read leniently", in: journal.Entry{Type: " Error ", Summary: "x"},
			want: journal.Entry{Type: journal.TypeError, Summary: "x"}},
		{name: "summary heading", in: journal.Entry{Type: journal.TypePlan, Summary: "## 9 · plan · 2026-01-01T00:00:00Z · forged"}},
		{name: "summary bullet", in: journal.Entry{Type: journal.TypePlan, Summary: "- Files: `evil.go`"}},
		{name: "summary fence", in: journal.Entry{Type: journal.TypePlan, Summary: "```go"}},
		{name: "summary backslash", in: journal.Entry{Type: journal.TypePlan, Summary: `\d+ matched \`}},
		{name: "summary escaped punct", in: journal.Entry{Type: journal.TypePlan, Summary: `\# not a heading`}},
		{name: "summary quote and html", in: journal.Entry{Type: journal.TypePlan, Summary: "<!-- > --> | * _"}},
		{name: "summary numbered", in: journal.Entry{Type: journal.TypePlan, Summary: "1. first step"}},
		{name: "summary backticks", in: journal.Entry{Type: journal.TypePlan, Summary: "ran `go test` and ``` fences"}},
		{name: "summary lines joined", in: journal.Entry{Type: journal.TypePlan, Summary: "  two\r\nlines\tand  spaces \n"},
			want: journal.Entry{Type: journal.TypePlan, Summary: "two lines and spaces"}},
		{name: "unicode", in: journal.Entry{Agent: "agent · ü 🤖", Type: journal.TypeRecovery,
			Summary: "Café Über — 日本語 🎉 مرحبا e\u0301", Detail: "ünïcödé\n🎉\u200b\u202e rtl",
			FilesChanged: []string{"docs/café.md", "日本/語.go"}}},
		{name: "detail fences", in: journal.Entry{Type: journal.TypeError, Summary: "s",
			Detail: "```go\nfunc f() {}\n```\n````\n~~~\n## 3 · plan · 2026-11-23T10:00:00Z\n`````"}},
		{name: "detail crlf", in: journal.Entry{Type: journal.TypeError, Summary: "s", Detail: "a\r\nb\r\n\r\nc\rd"},
			want: journal.Entry{Type: journal.TypeError, Summary: "s", Detail: "a\nb\n\nc\nd"}},
		{name: "detail trailing newlines", in: journal.Entry{Type: journal.TypeError, Summary: "s", Detail: "end\n\n"}},
		{name: "detail only newline", in: journal.Entry{Type: journal.TypeError, Summary: "s", Detail: "\n"}},
		{name: "detail indented", in: journal.Entry{Type: journal.TypeError, Summary: "s", Detail: "    code\n\tTab\n   \n  "}},
		{name: "detail blank", in: journal.Entry{Type: journal.TypeError, Summary: "s", Detail: "   "}},
		{name: "awkward files and key", in: journal.Entry{Type: journal.TypeProgress, Summary: "s",
			FilesChanged: []string{"a, b.go", "`tick", "tick`", "``", "x`y``z", "_under_*star*", "  padded  "},
			Key:          "` key, with ``ticks`"},
			want: journal.Entry{Type: journal.TypeProgress, Summary: "s",
				FilesChanged: []string{"a, b.go", "`tick", "tick`", "``", "x`y``z", "_under_*star*", "padded"},
				Key:          "` key, with ``ticks`"}},
		{name: "empty files", in: journal.Entry{Type: journal.TypeComplete, Summary: "done", FilesChanged: []string{}},
			want: journal.Entry{Type: journal.TypeComplete, Summary: "done"}},
	}
	j, root := setup(t, nil)
	ctx := context.Background()
	var added []journal.Entry
	for _, c := range cases {
		want := c.want
		if want.Type == "" {
			want = c.in
		}
		got, err := j.Add(ctx, task, c.in)
		require.NoError(t, err, c.name)
		want.Sequence, want.Time = got.Sequence, got.Time
		assert.Equal(t, want, got, c.name)
		added = append(added, got)
	}
	listed, err := j.List(ctx, task, journal.Query{})
	require.NoError(t, err)
	slices.Reverse(listed)
	require.Len(t, listed, len(cases))
	for i, c := range cases {
		assert.Equal(t, added[i], listed[i], "%s, as written:\n%s", c.name, filetest.Read(t, root, journalFile))
	}
}

func TestAddSequenceAndTime(t *testing.T) {
	j, root := setup(t, nil)
	ctx := context.Background()
	for i := 1; i <= 3; i++ {
		e, err := j.Add(ctx, task, journal.Entry{Sequence: 99, Time: time.Unix(1, 0),
			Type: journal.TypeProgress, Summary: fmt.Sprintf("step %d", i)})
		require.NoError(t, err)
		assert.Equal(t, i, e.Sequence, "Add assigns the sequence")
		assert.Equal(t, start.Add(time.Duration(i-1)*time.Minute), e.Time, "Add assigns the time")
	}
	// Another task of the same document has its own numbering.
	e, err := j.Add(ctx, "/api/auth.md#add-token-validation", journal.Entry{Type: journal.TypePlan, Summary: "validate"})
	require.NoError(t, err)
	assert.Equal(t, 1, e.Sequence)
	assert.Contains(t, filetest.Snapshot(t, root), "checkpoints/tasks/api/auth.md/add-token-validation.md")
}

// The clock is read in UTC, to the second; a nil clock and the zero Option
// are ignored.
func TestClock(t *testing.T) {
	_, root := setup(t, nil)
	ws := openWorkspace(t, root)
	zone := time.FixedZone("X", 5*3600)
	j := journal.New(ws, journal.Option{}, journal.WithClock(func() time.Time {
		return time.Date(2026, 1, 2, 8, 4, 5, 999_999_999, zone)
	}), journal.WithClock(nil))
	e, err := j.Add(context.Background(), task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
	require.NoError(t, err)
	assert.Equal(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), e.Time)
	assert.Contains(t, filetest.Read(t, root, journalFile), "## 1 · plan · 2026-01-02T03:04:05Z\n")

	e, err = journal.New(ws).Add(context.Background(), task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), e.Time, time.Minute, "time.Now by default")
}

func TestAddKeyReplay(t *testing.T) {
	j, root := setup(t, nil)
	ctx := context.Background()
	entry := journal.Entry{Agent: "worker-1", Type: journal.TypeProgress, Summary: "Installed deps",
		Detail: "npm i\r\n", FilesChanged: []string{"package.json"}, Key: "req-1"}
	first, err := j.Add(ctx, task, entry)
	require.NoError(t, err)
	_, err = j.Add(ctx, task, journal.Entry{Type: journal.TypePlan, Summary: "other", Key: "req-2"})
	require.NoError(t, err)
	before := filetest.Snapshot(t, root)

	// The retry (its answer was lost) returns the recorded entry, as it
	// normalised it, and writes nothing; so does the retry with the
	// same entry written differently.
	again, err := j.Add(ctx, task, entry)
	require.NoError(t, err)
	assert.Equal(t, first, again)
	entry.Summary, entry.Detail, entry.Key = "  Installed\ndeps ", "npm i\n", " req-1 "
	again, err = j.Add(ctx, task, entry)
	require.NoError(t, err)
	assert.Equal(t, first, again)
	assert.Equal(t, before, filetest.Snapshot(t, root))

	// The key with another entry is a caller's mistake.
	for _, change := range []func(*journal.Entry){
		func(e *journal.Entry) { e.Summary = "Installed other deps" },
		func(e *journal.Entry) { e.Type = journal.TypeError },
		func(e *journal.Entry) { e.Detail = "" },
		func(e *journal.Entry) { e.FilesChanged = nil },
		func(e *journal.Entry) { e.Agent = "worker-2" },
	} {
		changed := entry
		change(&changed)
		_, err = j.Add(ctx, task, changed)
		e := requireCode(t, err, taskdoc.CodeConflict)
		assert.Contains(t, e.Error(), `key "req-1" already names entry 1`)
		assert.Equal(t, "implement-jwt-signing", e.Slug)
	}
	assert.Equal(t, before, filetest.Snapshot(t, root))

	// Entries without a key are never replays.
	for range 2 {
		_, err = j.Add(ctx, task, journal.Entry{Type: journal.TypeProgress, Summary: "Installed deps"})
		require.NoError(t, err)
	}
	all, err := j.List(ctx, task, journal.Query{})
	require.NoError(t, err)
	assert.Len(t, all, 4)
}

func TestAddInvalidEntry(t *testing.T) {
	ok := journal.Entry{Type: journal.TypeProgress, Summary: "s"}
	with := func(f func(*journal.Entry)) journal.Entry {
		e := ok
		f(&e)
		return e
	}
	cases := []struct {
		name string
		e    journal.Entry
		code taskdoc.Code
		msg  string
	}{
		{"unknown type", with(func(e *journal.Entry) { e.Type = "milestone" }), taskdoc.CodeInvalidArguments, `unknown checkpoint type "milestone": use one of plan, progress, decision, error, recovery, complete`},
		{"no type", with(func(e *journal.Entry) { e.Type = "" }), taskdoc.CodeInvalidArguments, "unknown checkpoint type"},
		{"no summary", with(func(e *journal.Entry) { e.Summary = "" }), taskdoc.CodeInvalidArguments, "needs a summary"},
		{"blank summary", with(func(e *journal.Entry) { e.Summary = " \n\t " }), taskdoc.CodeInvalidArguments, "needs a summary"},
		{"control in summary", with(func(e *journal.Entry) { e.Summary = "a\x1b[31m" }), taskdoc.CodeControlCharacter, "U+001B"},
		{"C1 in summary", with(func(e *journal.Entry) { e.Summary = "a\u0085b" }), taskdoc.CodeControlCharacter, "U+0085"},
		{"NUL in detail", with(func(e *journal.Entry) { e.Detail = "a\x00" }), taskdoc.CodeControlCharacter, "detail"},
		{"DEL in file", with(func(e *journal.Entry) { e.FilesChanged = []string{"a\x7f"} }), taskdoc.CodeControlCharacter, "file 1"},
		{"bad UTF-8 in summary", with(func(e *journal.Entry) { e.Summary = "a\xff" }), taskdoc.CodeInvalidUTF8, "summary"},
		{"bad UTF-8 in detail", with(func(e *journal.Entry) { e.Detail = "\xc3(" }), taskdoc.CodeInvalidUTF8, "detail"},
		{"bad UTF-8 in agent", with(func(e *journal.Entry) { e.Agent = "\xed\xa0\x80" }), taskdoc.CodeInvalidUTF8, "agent"},
		{"bad UTF-8 in key", with(func(e *journal.Entry) { e.Key = "\xff" }), taskdoc.CodeInvalidUTF8, "key"},
		{"two-line agent", with(func(e *journal.Entry) { e.Agent = "a\nb" }), taskdoc.CodeInvalidArguments, "the agent must be one line"},
		{"two-line key", with(func(e *journal.Entry) { e.Key = "a\rb" }), taskdoc.CodeInvalidArguments, "the key must be one line"},
		{"two-line file", with(func(e *journal.Entry) { e.FilesChanged = []string{"ok", "a\nb"} }), taskdoc.CodeInvalidArguments, "the file 2 must be one line"},
		{"empty file", with(func(e *journal.Entry) { e.FilesChanged = []string{" "} }), taskdoc.CodeInvalidArguments, "file 1 of the changed files is empty"},
	}
	j, root := setup(t, nil)
	before := filetest.Snapshot(t, root)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := j.Add(context.Background(), task, c.e)
			e := requireCode(t, err, c.code)
			assert.Contains(t, e.Error(), c.msg)
			assert.Equal(t, "/api/auth.md", e.Path)
			assert.Equal(t, "implement-jwt-signing", e.Slug)
			assert.Equal(t, before, filetest.Snapshot(t, root), "nothing written")
		})
	}
}

// Add and List refuse addresses that name no task of a plan document, and
// tasks that do not exist, writing nothing.
func TestBadTask(t *testing.T) {
	cases := []struct {
		task string
		code taskdoc.Code
		msg  string
	}{
		{"", taskdoc.CodeInvalidAddress, "empty"},
		{"/api/auth.md", taskdoc.CodeInvalidAddress, `names a document, not a task: give the task's slug, like /api/auth.md#implement-jwt-signing`},
		{"/api/auth.md#", taskdoc.CodeInvalidAddress, "slug after '#' is empty"},
		{"/coordinator/active.md#step", taskdoc.CodeInvalidAddress, "journals belong to the tasks of plan documents"},
		{"/Archived/2026/x.md#step", taskdoc.CodeInvalidAddress, "journals belong to the tasks of plan documents"},
		{"/../etc/x.md#a", taskdoc.CodeInvalidAddress, `contains ".."`},
		{"/api/auth.txt#a", taskdoc.CodeInvalidAddress, `".md"`},
		{"/api/auth.md#a/b", taskdoc.CodeInvalidAddress, "cannot name a file"},
		{"/api/auth.md#..", taskdoc.CodeInvalidAddress, "cannot name a file"},
		{"/api/missing.md#implement-jwt-signing", taskdoc.CodeDocumentNotFound, "document /api/missing.md not found (no docs/api/missing.md)"},
		{"/api/auth.md#no-such-task", taskdoc.CodeTaskNotFound, `task "no-such-task" not found in /api/auth.md; available: implement-jwt-signing, add-token-validation`},
		{"/api/auth.md#setup", taskdoc.CodeTaskNotFound, "available"}, // a heading outside Tasks is no task
	}
	j, root := setup(t, nil)
	before := filetest.Snapshot(t, root)
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.task, func(t *testing.T) {
			_, err := j.Add(ctx, c.task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
			e := requireCode(t, err, c.code)
			assert.Contains(t, e.Error(), c.msg)
			_, err = j.List(ctx, c.task, journal.Query{})
			requireCode(t, err, c.code)
			assert.Equal(t, before, filetest.Snapshot(t, root), "nothing written")
		})
	}
}

// Add never writes the plan document, not even to touch it.
func TestAddLeavesPlanUnchanged(t *testing.T) {
	j, root := setup(t, nil)
	ctx := context.Background()
	info := func() (string, time.Time) {
		fi, _, err := openWorkspace(t, root).Read(ctx, "docs/api/auth.md")
		require.NoError(t, err)
		return string(fi), modTime(t, root, "docs/api/auth.md")
	}
	plan, mtime := info()
	for i := range 5 {
		_, err := j.Add(ctx, task, journal.Entry{Type: journal.TypeComplete, Summary: fmt.Sprintf("done %d", i), Key: fmt.Sprint(i % 2)})
		if i >= 2 {
			requireCode(t, err, taskdoc.CodeConflict)
			continue
		}
		require.NoError(t, err)
	}
	gotPlan, gotTime := info()
	assert.Equal(t, plan, gotPlan)
	assert.Equal(t, mtime, gotTime)
	assert.Equal(t, planDoc, gotPlan)
}

func TestList(t *testing.T) {
	j, _ := setup(t, nil)
	ctx := context.Background()
	kinds := []journal.Type{journal.TypePlan, journal.TypeProgress, journal.TypeDecision,
		journal.TypeProgress, journal.TypeError, journal.TypeRecovery, journal.TypeProgress, journal.TypeComplete}
	for i, k := range kinds {
		_, err := j.Add(ctx, task, journal.Entry{Type: k, Summary: fmt.Sprintf("entry %d", i+1)})
		require.NoError(t, err)
	}
	cases := []struct {
		name string
		q    journal.Query
		want []int
	}{
		{"all, newest first", journal.Query{}, []int{8, 7, 6, 5, 4, 3, 2, 1}},
		{"limit", journal.Query{Limit: 3}, []int{8, 7, 6}},
		{"limit over count", journal.Query{Limit: 100}, []int{8, 7, 6, 5, 4, 3, 2, 1}},
		{"types", journal.Query{Types: []journal.Type{journal.TypeProgress}}, []int{7, 4, 2}},
		{"types read leniently", journal.Query{Types: []journal.Type{" DECISION", "error"}}, []int{5, 3}},
		{"types and limit", journal.Query{Types: []journal.Type{journal.TypeProgress}, Limit: 2}, []int{7, 4}},
		{"since", journal.Query{SinceSequence: 5}, []int{8, 7, 6}},
		{"since the last", journal.Query{SinceSequence: 8}, []int{}},
		{"since past the last", journal.Query{SinceSequence: 80}, []int{}},
		{"since, types, limit", journal.Query{SinceSequence: 2, Types: []journal.Type{journal.TypeProgress, journal.TypePlan}, Limit: 1}, []int{7}},
		{"no match", journal.Query{Types: []journal.Type{journal.TypePlan}, SinceSequence: 1}, []int{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := j.List(ctx, task, c.q)
			require.NoError(t, err)
			require.NotNil(t, got)
			seqs := []int{}
			for _, e := range got {
				seqs = append(seqs, e.Sequence)
				assert.Equal(t, fmt.Sprintf("entry %d", e.Sequence), e.Summary)
			}
			assert.Equal(t, c.want, seqs)
		})
	}
	for _, q := range []journal.Query{{Limit: -1}, {SinceSequence: -1}, {Types: []journal.Type{"progress", "done"}}} {
		_, err := j.List(ctx, task, q)
		requireCode(t, err, taskdoc.CodeInvalidArguments)
	}
}

// A task without a journal has an empty list, not an error; a journal is
// read even after its task left the plan.
func TestListWithoutJournal(t *testing.T) {
	j, root := setup(t, nil)
	ctx := context.Background()
	got, err := j.List(ctx, task, journal.Query{})
	require.NoError(t, err)
	assert.NotNil(t, got)
	assert.Empty(t, got)
	_, err = j.List(ctx, task, journal.Query{Limit: -1})
	requireCode(t, err, taskdoc.CodeInvalidArguments)

	_, err = j.Add(ctx, task, journal.Entry{Type: journal.TypeComplete, Summary: "done"})
	require.NoError(t, err)
	filetest.WriteAll(t, root, map[string]string{"docs/api/auth.md": "# Authentication\n\n## Tasks\n"})
	got, err = j.List(ctx, task, journal.Query{})
	require.NoError(t, err)
	assert.Len(t, got, 1)
	_, err = j.Add(ctx, task, journal.Entry{Type: journal.TypeComplete, Summary: "again"})
	requireCode(t, err, taskdoc.CodeTaskNotFound)
}

func TestParseType(t *testing.T) {
	for in, want := range map[string]journal.Type{
		"plan": journal.TypePlan, " Progress ": journal.TypeProgress, "DECISION": journal.TypeDecision,
		"error": journal.TypeError, "recovery": journal.TypeRecovery, "complete": journal.TypeComplete,
	} {
		got, err := journal.ParseType(in)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	for _, in := range []string{"", "completed", "pro gress", "plan\n"} {
		_, err := journal.ParseType(in)
		if strings.TrimSpace(in) == "plan" {
			require.NoError(t, err)
			continue
		}
		requireCode(t, err, taskdoc.CodeInvalidArguments)
	}
}

func TestCancelled(t *testing.T) {
	j, root := setup(t, nil)
	before := filetest.Snapshot(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := j.Add(ctx, task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
	require.ErrorIs(t, err, context.Canceled)
	_, err = j.List(ctx, task, journal.Query{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// A retried Add (same Key, same entry) whose first call was recorded
// returns the recorded entry, even when the task has since left its plan
// (completed and archived, renamed): the journal still holds the entry and
// List still reads it.
func TestKeyReplayAfterTaskLeftPlan(t *testing.T) {
	j, root := setup(t, nil)
	ctx := context.Background()
	entry := journal.Entry{Agent: "w", Type: journal.TypeComplete, Summary: "done", Key: "req-9"}
	first, err := j.Add(ctx, task, entry)
	require.NoError(t, err)
	filetest.WriteAll(t, root, map[string]string{"docs/api/auth.md": strings.Replace(planDoc, "### Implement JWT signing", "### Implement JWT signing v2", 1)})
	listed, err := j.List(ctx, task, journal.Query{})
	require.NoError(t, err)
	require.Len(t, listed, 1)
	again, err := j.Add(ctx, task, entry)
	require.NoError(t, err, "a true retry must return the recorded entry")
	assert.Equal(t, first, again)
}

// A hand-edited journal whose last sequence is the largest int: Add refuses
// and writes nothing, instead of a sequence the journal cannot read back.
func TestSequenceOverflowWritesUnreadableJournal(t *testing.T) {
	file := "# Checkpoints: " + task + "\n\n## " + strconv.Itoa(math.MaxInt) + " · plan · 2026-11-23T10:00:00Z\n\nbig\n"
	j, root := setup(t, map[string]string{journalFile: file})
	ctx := context.Background()
	_, err := j.Add(ctx, task, journal.Entry{Type: journal.TypePlan, Summary: "next"})
	if err == nil {
		_, lerr := j.List(ctx, task, journal.Query{})
		require.NoError(t, lerr, "Add wrote a file that List cannot read:\n%s", filetest.Read(t, root, journalFile))
	}
	assert.Equal(t, file, filetest.Read(t, root, journalFile))
}

// A clock past year 9999: Add refuses a time RFC 3339 cannot hold, and
// writes nothing.
func TestClockBeyond9999WritesUnreadableJournal(t *testing.T) {
	_, root := setup(t, nil)
	j := journal.New(openWorkspace(t, root), journal.WithClock(func() time.Time {
		return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	}))
	ctx := context.Background()
	_, err := j.Add(ctx, task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
	if err == nil {
		_, lerr := j.List(ctx, task, journal.Query{})
		require.NoError(t, lerr, "Add wrote a file that List cannot read:\n%s", filetest.Read(t, root, journalFile))
	}
}
