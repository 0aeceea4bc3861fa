package editor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// found is what a test checks of a Diagnostic: its code, severity and
// range, and where its Related point.
type found struct {
	Code     taskdoc.Code
	Severity editor.Severity
	Range    editor.Range
	Related  []editor.Location
}

func summarise(ds []editor.Diagnostic) []found {
	var out []found
	for _, d := range ds {
		f := found{Code: d.Code, Severity: d.Severity, Range: d.Range}
		for _, r := range d.Related {
			f.Related = append(f.Related, r.Location)
		}
		out = append(out, f)
	}
	return out
}

func at(path string, r editor.Range) []editor.Location {
	return []editor.Location{{Path: path, Range: r}}
}

// The positions in these cases are counted by hand from the documents'
// text, line by line from 0.
func TestDiagnostics(t *testing.T) {
	const (
		errorSev = editor.SeverityError
		warnSev  = editor.SeverityWarning
	)
	tests := []struct {
		name  string
		files map[string]string
		open  map[string]string // buffers opened before the call
		path  string
		want  []found
	}{
		{
			name: "duplicate slugs and an unknown status",
			files: map[string]string{"docs/api/auth.md": "# Auth\n\n## Tasks\n\n### Setup\n\n- Status: donee\n\n" +
				"### Setup\n\n- Status: pending\n"},
			path: "docs/api/auth.md",
			want: []found{
				{taskdoc.CodeDuplicateTask, errorSev, span(4, 0, 4, 9), at("docs/api/auth.md", span(8, 0, 8, 9))},
				{taskdoc.CodeUnknownStatus, errorSev, span(6, 10, 6, 15), nil},
				{taskdoc.CodeDuplicateTask, errorSev, span(8, 0, 8, 9), at("docs/api/auth.md", span(4, 0, 4, 9))},
			},
		},
		{
			name:  "a metadata list after the description, indented",
			files: map[string]string{"docs/a.md": "# A\n\n## Tasks\n\n### Café\n\nThe description.\n\n  - Status: in_progress\n\n### B\n\n- Status: pending\n"},
			path:  "docs/a.md",
			want: []found{
				{taskdoc.CodeMisplacedMetadata, errorSev, span(8, 2, 8, 23), nil},
			},
		},
		{
			name:  "a heading like a task's outside the Tasks section is no duplicate",
			files: map[string]string{"docs/a.md": "# A\n\n## Notes\n\n### Setup\n\n## Tasks\n\n### Setup\n\n- Status: PENDING\n"},
			path:  "docs/a.md",
		},
		{
			name: "Depends-On entries: malformed, missing documents and tasks",
			files: map[string]string{
				"docs/plan.md": "# Plan\n\n## Tasks\n\n### A\n\n" +
					"- Depends-On: #b, #nope, /other.md#x, /other.md#gone, /none.md#y, not-an-address\n\n### B\n",
				"docs/other.md": "# Other\n\n## Tasks\n\n### X\n",
			},
			path: "docs/plan.md",
			want: []found{
				{editor.CodeDependencyNotFound, errorSev, span(6, 18, 6, 23), nil},
				{editor.CodeDependencyNotFound, errorSev, span(6, 38, 6, 52), nil},
				{editor.CodeDependencyNotFound, errorSev, span(6, 54, 6, 64), nil},
				{taskdoc.CodeInvalidAddress, errorSev, span(6, 66, 6, 80), nil},
			},
		},
		{
			name:  "cycles: across documents and onto itself, not a chain into one",
			files: cycleFiles,
			path:  "docs/a.md",
			want: []found{
				{taskdoc.CodeDependencyCycle, errorSev, span(6, 14, 6, 23), at("docs/b.md", span(4, 0, 4, 7))},
				{taskdoc.CodeDependencyCycle, errorSev, span(10, 20, 10, 25), nil},
			},
		},
		{
			name:  "a cycle seen from its other document",
			files: cycleFiles,
			path:  "docs/b.md",
			want: []found{
				{taskdoc.CodeDependencyCycle, errorSev, span(6, 14, 6, 23), at("docs/a.md", span(4, 0, 4, 7))},
			},
		},
		{
			name: "the coordinator's first task without Main-Workflow, workflows that do not exist",
			files: map[string]string{
				"workflows/tdd.md":      "# TDD\n",
				"coordinator/active.md": "# Active\n\n## Tasks\n\n### First\n\n- Workflow: tdd\n\n### Second\n\n- Workflow: nowhere\n- Main-Workflow: orchestrate\n",
			},
			path: "coordinator/active.md",
			want: []found{
				{taskdoc.CodeMainWorkflowRequired, errorSev, span(4, 0, 4, 9), nil},
				{editor.CodeWorkflowNotFound, warnSev, span(10, 12, 10, 19), nil},
				{editor.CodeWorkflowNotFound, warnSev, span(11, 17, 11, 28), nil},
			},
		},
		{
			name: "a coordinator list whose first task carries Main-Workflow",
			files: map[string]string{
				"workflows/orchestrate.md": "# O\n",
				"coordinator/active.md":    "# Active\n\n## Tasks\n\n### First\n\n- Main-Workflow: orchestrate\n\n### Second\n",
			},
			path: "coordinator/active.md",
		},
		{
			name: "references to missing documents and sections",
			files: map[string]string{
				"docs/api/auth.md": "# Auth\n\n## Tasks\n\n### Sign\n\n- Status: pending\n- Note: @/specs/not-body.md\n\n" +
					"Read @/specs/jwt.md#signing and @/specs/jwt.md#verifying.\n" +
					"See @/specs/gone.md, @/specs/jwt.md and @/../x.md\n",
				"docs/specs/jwt.md": "# JWT\n\n## Signing\n\ntext\n",
			},
			path: "docs/api/auth.md",
			want: []found{
				{editor.CodeSectionNotFound, warnSev, span(9, 47, 9, 56), nil},
				{editor.CodeReferenceNotFound, warnSev, span(10, 4, 10, 19), nil},
				{editor.CodeReferenceNotFound, warnSev, span(10, 40, 10, 49), nil},
			},
		},
		{
			name: "references follow open buffers, and a buffer without a file exists",
			files: map[string]string{
				"docs/api/auth.md":  "# Auth\n\n## Tasks\n\n### Sign\n\nRead @/specs/jwt.md#verifying and @/specs/new.md.\n",
				"docs/specs/jwt.md": "# JWT\n\n## Signing\n",
			},
			open: map[string]string{
				"docs/specs/jwt.md": "# JWT\n\n## Verifying\n",
				"docs/specs/new.md": "# New\n",
			},
			path: "docs/api/auth.md",
		},
		{
			name:  "front matter that does not decode",
			files: map[string]string{"docs/fm.md": "---\ntitle: [\n---\n# T\n\n## Tasks\n\n### A\n"},
			path:  "docs/fm.md",
			want:  []found{{taskdoc.CodeParse, errorSev, span(1, 0, 1, 8), nil}},
		},
		{
			name: "a document past a limit has that diagnostic only",
			files: map[string]string{"docs/deep.md": "# T\n\n" + strings.Repeat(">", taskdoc.MaxNesting+1) + " x\n\n" +
				"## Tasks\n\n### A\n\n- Status: bogus\n"},
			path: "docs/deep.md",
			want: []found{{taskdoc.CodeTooComplex, errorSev, span(2, 0, 2, taskdoc.MaxNesting+3), nil}},
		},
		{
			name:  "a buffer that is not UTF-8 points at the bad byte",
			files: map[string]string{"docs/bad.md": "# T\n"},
			open:  map[string]string{"docs/bad.md": "# T\n\n## Tasks\n\n### A\xff b\n\n- Status: bogus\n"},
			path:  "docs/bad.md",
			want:  []found{{taskdoc.CodeInvalidUTF8, errorSev, span(4, 5, 4, 6), nil}},
		},
		{
			name: "link reference labels shared with text outside a task",
			files: map[string]string{"docs/links.md": "# Links\n\nSee [spec].\n\n[spec]: /specs/jwt.md\n\n## Tasks\n\n" +
				"### Use\n\nRead the [spec] first.\n\n### Define\n\n[faq]: /faq.md\n\n## Notes\n\nSee [FAQ].\n"},
			path: "docs/links.md",
			want: []found{
				{editor.CodeCrossTaskLink, warnSev, span(10, 9, 10, 15), at("docs/links.md", span(4, 0, 4, 6))},
				{editor.CodeCrossTaskLink, warnSev, span(14, 0, 14, 5), at("docs/links.md", span(18, 4, 18, 9))},
			},
		},
		{
			name:  "a file that is not a task document has none",
			files: map[string]string{"workflows/tdd.md": "# TDD\n\n## Tasks\n\n### A\n\n- Status: bogus\n"},
			path:  "workflows/tdd.md",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, _ := newTestSession(t, tt.files)
			for p, content := range tt.open {
				require.NoError(t, s.Open(ctx, p, 1, content))
			}
			ds, err := s.Diagnostics(ctx, tt.path)
			require.NoError(t, err)
			assert.Equal(t, tt.want, summarise(ds))
			for _, d := range ds {
				assert.NotEmpty(t, d.Message, d.Code)
			}
		})
	}
}

// cycleFiles: /a.md#one and /b.md#two wait for each other, #self waits
// for itself (and for #one), #chain waits for #one without being on a
// cycle.
var cycleFiles = map[string]string{
	"docs/a.md": "# A\n\n## Tasks\n\n### One\n\n- Depends-On: /b.md#two\n\n### Self\n\n- Depends-On: #one, #self\n\n" +
		"### Chain\n\n- Depends-On: #one\n",
	"docs/b.md": "# B\n\n## Tasks\n\n### Two\n\n- Depends-On: /a.md#one\n",
}

// intlDoc has front matter, a setext Tasks heading and a setext task,
// CRLF line endings, and CJK and emoji before and inside what the
// diagnostics point at, so that their columns differ by encoding.
//
//	0  ---
//	1  title: 多言語
//	2  ---
//	3  Tasks
//	4  =====
//	5
//	6  翻訳 🚀 task
//	7  ------------
//	8
//	9  - Status: 完了
//	10 - Depends-On: #nope, /missing.md#x, bad
//	11
//	12 🚀 see @/specs/missing.md and @/specs/ok.md#no-such
//	13
//	14 ## 翻訳 🚀 task
const intlDoc = "---\r\ntitle: 多言語\r\n---\r\nTasks\r\n=====\r\n\r\n翻訳 🚀 task\r\n------------\r\n\r\n" +
	"- Status: 完了\r\n- Depends-On: #nope, /missing.md#x, bad\r\n\r\n" +
	"🚀 see @/specs/missing.md and @/specs/ok.md#no-such\r\n\r\n## 翻訳 🚀 task\r\n"

func TestDiagnosticsEncodings(t *testing.T) {
	// Columns that depend on the encoding: the end of "完了" (two
	// characters, six bytes), the reference and anchor after "🚀 " (one
	// code point, two UTF-16 units, four bytes), and the end of the ATX
	// heading "## 翻訳 🚀 task".
	tests := []struct {
		enc                                    editor.Encoding
		statusEnd, ref, refEnd, anchor, atxEnd int
	}{
		{editor.UTF16, 12, 7, 25, 44, 13},
		{editor.UTF8, 16, 9, 27, 46, 19},
		{editor.UTF32, 12, 6, 24, 43, 12},
	}
	for _, tt := range tests {
		t.Run(string(tt.enc), func(t *testing.T) {
			s, _ := newTestSession(t, map[string]string{
				"docs/intl.md":     intlDoc,
				"docs/specs/ok.md": "# OK\n",
			}, editor.WithEncoding(tt.enc))
			ds, err := s.Diagnostics(context.Background(), "docs/intl.md")
			require.NoError(t, err)
			atx := span(14, 0, 14, tt.atxEnd)
			setext := span(6, 0, 7, 12)
			want := []found{
				{taskdoc.CodeDuplicateTask, editor.SeverityError, setext, at("docs/intl.md", atx)},
				{taskdoc.CodeUnknownStatus, editor.SeverityError, span(9, 10, 9, tt.statusEnd), nil},
				{editor.CodeDependencyNotFound, editor.SeverityError, span(10, 14, 10, 19), nil},
				{editor.CodeDependencyNotFound, editor.SeverityError, span(10, 21, 10, 34), nil},
				{taskdoc.CodeInvalidAddress, editor.SeverityError, span(10, 36, 10, 39), nil},
				{editor.CodeReferenceNotFound, editor.SeverityWarning, span(12, tt.ref, 12, tt.refEnd), nil},
				{editor.CodeSectionNotFound, editor.SeverityWarning, span(12, tt.anchor, 12, tt.anchor+7), nil},
				{taskdoc.CodeDuplicateTask, editor.SeverityError, atx, at("docs/intl.md", setext)},
			}
			assert.Equal(t, want, summarise(ds))
		})
	}
}

// An open buffer is the document: its diagnostics follow the unsaved
// text, and the file's come back when it is closed.
func TestDiagnosticsFollowTheBuffer(t *testing.T) {
	ctx := context.Background()
	const path = "docs/a.md"
	s, _ := newTestSession(t, map[string]string{path: "# A\n\n## Tasks\n\n### One\n\n- Status: bogus\n"})
	ds, err := s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, []found{{taskdoc.CodeUnknownStatus, editor.SeverityError, span(6, 10, 6, 15), nil}}, summarise(ds))

	require.NoError(t, s.Open(ctx, path, 1, "# A\n\n## Tasks\n\n### One\n\n- Status: pending\n"))
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Empty(t, ds)

	// Typing a bad status into the buffer: "pending" becomes "pendingx".
	require.NoError(t, s.Change(path, 2, []editor.Change{{Range: &editor.Range{
		Start: editor.Position{Line: 6, Character: 17}, End: editor.Position{Line: 6, Character: 17}}, Text: "x"}}))
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, []found{{taskdoc.CodeUnknownStatus, editor.SeverityError, span(6, 10, 6, 18), nil}}, summarise(ds))

	s.Close(path)
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, []found{{taskdoc.CodeUnknownStatus, editor.SeverityError, span(6, 10, 6, 15), nil}}, summarise(ds))
}

// Another document's buffer counts in place of its file: a dependency
// written into it only, and a cycle closed in it only.
func TestDiagnosticsAcrossBuffers(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, map[string]string{
		"docs/a.md": "# A\n\n## Tasks\n\n### One\n\n- Depends-On: /b.md#two\n",
		"docs/b.md": "# B\n\n## Tasks\n\n### Three\n",
	})
	ds, err := s.Diagnostics(ctx, "docs/a.md")
	require.NoError(t, err)
	assert.Equal(t, []found{{editor.CodeDependencyNotFound, editor.SeverityError, span(6, 14, 6, 23), nil}}, summarise(ds))

	require.NoError(t, s.Open(ctx, "docs/b.md", 1, "# B\n\n## Tasks\n\n### Two\n\n- Depends-On: /a.md#one\n"))
	ds, err = s.Diagnostics(ctx, "docs/a.md")
	require.NoError(t, err)
	assert.Equal(t, []found{{taskdoc.CodeDependencyCycle, editor.SeverityError, span(6, 14, 6, 23), at("docs/b.md", span(4, 0, 4, 7))}},
		summarise(ds))
}

// A file that changes on disk under unsaved changes puts one warning at
// the start of the buffer, until the buffer is saved.
func TestDiagnosticsConflict(t *testing.T) {
	ctx := context.Background()
	const path = "docs/a.md"
	s, ws := newTestSession(t, map[string]string{path: "# A\n\n## Tasks\n\n### One\n"})
	require.NoError(t, s.Open(ctx, path, 1, "# A\n\n## Tasks\n\n### One\n\nmy unsaved words\n"))
	ds, err := s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Empty(t, ds)

	writeTestFiles(t, ws.Root(), map[string]string{path: "# A\n\n## Tasks\n\n### One\n\n- Status: completed\n"})
	r, err := s.DiskChanged(ctx, path)
	require.NoError(t, err)
	require.True(t, r.Conflict)
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, []found{{editor.CodeBufferDiffersFromDisk, editor.SeverityWarning, span(0, 0, 0, 0), nil}}, summarise(ds))

	require.NoError(t, s.Saved(path))
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Empty(t, ds)
}

// A task under way whose holder stopped sending heartbeats is a stale
// claim, judged on the Session's clock; claims are read again once they
// are a few seconds old, or after a change on disk.
func TestDiagnosticsStaleClaim(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	const path = "docs/p.md"
	s, ws := newTestSession(t, map[string]string{path: "# P\n\n## Tasks\n\n### Build\n\n- Status: pending\n\n### Test\n"},
		editor.WithClock(clock))
	plans := plan.New(ws, plan.WithClock(clock))
	_, err := plans.Agents().Register(ctx, agent.Registration{ID: "worker-1", Name: "w", Runtime: "test"})
	require.NoError(t, err)
	res, err := plans.Claim(ctx, "/p.md#build", "worker-1")
	require.NoError(t, err)
	require.True(t, res.Success)
	_, err = plans.UpdateStatus(ctx, "/p.md#build", plan.Claimant{Agent: "worker-1", Token: res.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	data, _, err := ws.Read(ctx, path)
	require.NoError(t, err)
	// Line 7 is "- Assignee: worker-1"; the value is characters 12 to 20.
	require.Equal(t, "# P\n\n## Tasks\n\n### Build\n\n- Status: in_progress\n- Assignee: worker-1\n\n### Test\n", string(data))
	_, err = s.DiskChanged(ctx, path)
	require.NoError(t, err)

	ds, err := s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Empty(t, ds, "the holder is online")

	now = now.Add(time.Minute + time.Second)
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, []found{{editor.CodeHolderOffline, editor.SeverityWarning, span(7, 12, 7, 20), nil}}, summarise(ds))

	// A heartbeat brings the holder back; the claims read a moment ago
	// still count until they are a few seconds old.
	_, err = plans.Agents().Heartbeat(ctx, "worker-1", agent.HeartbeatInfo{})
	require.NoError(t, err)
	now = now.Add(time.Second)
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Len(t, ds, 1)
	now = now.Add(10 * time.Second)
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Empty(t, ds)

	// In a buffer that has the task pending again, the claim is no warning.
	now = now.Add(time.Minute + time.Second)
	require.NoError(t, s.Open(ctx, path, 1, "# P\n\n## Tasks\n\n### Build\n\n- Status: pending\n- Assignee: worker-1\n"))
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Empty(t, ds)
}

func TestDiagnosticsPaths(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, map[string]string{"docs/a.md": "# A\n", "notes/x.md": "# X\n"})
	for _, p := range []string{"notes/x.md", "README.md", "docs/x.txt", "../docs/a.md", "archived/docs/a.md"} {
		ds, err := s.Diagnostics(ctx, p)
		assert.NoError(t, err, p)
		assert.Nil(t, ds, p)
	}
	_, err := s.Diagnostics(ctx, "docs/missing.md")
	assert.ErrorIs(t, err, taskdoc.ErrDocumentNotFound)
}

// Which workflows exist is read once per change on disk: a workflow file
// created and reported by DiskChanged counts, and so does an open buffer
// of one that has no file yet.
func TestDiagnosticsWorkflowsFollowTheDisk(t *testing.T) {
	ctx := context.Background()
	const path = "docs/a.md"
	s, ws := newTestSession(t, map[string]string{path: "# A\n\n## Tasks\n\n### One\n\n- Workflow: tdd\n\n### Two\n\n- Workflow: draft\n"})
	ds, err := s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, []found{
		{editor.CodeWorkflowNotFound, editor.SeverityWarning, span(6, 12, 6, 15), nil},
		{editor.CodeWorkflowNotFound, editor.SeverityWarning, span(10, 12, 10, 17), nil},
	}, summarise(ds))

	writeTestFiles(t, ws.Root(), map[string]string{"workflows/tdd.md": "# TDD\n"})
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Len(t, ds, 2, "nothing said the disk changed")
	_, err = s.DiskChanged(ctx, "workflows/tdd.md")
	require.NoError(t, err)
	require.NoError(t, s.Open(ctx, "workflows/draft.md", 1, "# Draft\n"))
	ds, err = s.Diagnostics(ctx, path)
	require.NoError(t, err)
	assert.Empty(t, ds)
}

// A cycle through a long chain: every task of it is reported, each with
// the others related, at the entry that leads on.
func TestDiagnosticsLongCycle(t *testing.T) {
	const n = 300
	var b strings.Builder
	b.WriteString("# Chain\n\n## Tasks\n")
	for i := range n {
		fmt.Fprintf(&b, "\n### T%d\n\n- Depends-On: #t%d\n", i, (i+1)%n)
	}
	b.WriteString("\n### Outside\n\n- Depends-On: #t0\n")
	s, _ := newTestSession(t, map[string]string{"docs/chain.md": b.String()})
	ds, err := s.Diagnostics(context.Background(), "docs/chain.md")
	require.NoError(t, err)
	require.Len(t, ds, n)
	for i, d := range ds {
		// Task i's heading is on line 4+4i, its Depends-On two lines below.
		entry := fmt.Sprintf("#t%d", (i+1)%n)
		assert.Equal(t, span(6+4*i, 14, 6+4*i, 14+len(entry)), d.Range)
		assert.Equal(t, taskdoc.CodeDependencyCycle, d.Code)
		assert.Len(t, d.Related, n-1)
	}
}
