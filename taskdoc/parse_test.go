package taskdoc_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Implement JWT signing", "implement-jwt-signing"},
		{"Add API: auth & tokens!", "add-api-auth--tokens"},
		{"Café Über", "café-über"},
		{"  two  spaces  ", "--two--spaces--"},
		{"snake_case and-dash", "snake_case-and-dash"},
		{"C++ (v2.0) — notes", "c-v20--notes"},
		{"ÄÖÜ ß", "äöü-ß"},
		{"日本語 テスト", "日本語-テスト"},
		{"emoji 🎉 party", "emoji--party"},
		{"x² ½", "x-"},
		{"!!!", ""},
		// github-slugger lower-cases with JavaScript's toLowerCase, then
		// drops what is not a letter, mark, Nd/Nl number, '_', '-' or ' '.
		{"İstanbul", "i\u0307stanbul"},
		{"ΟΔΟΣ", "οδος"},
		{"ΟΔΟΣ ΣΑΣ.", "οδος-σας"},
		{"ΣΑ", "σα"},
		{"Σ", "σ"},
		{"ΑΣ'Α", "ασα"},
		{"ΑΣ\u0301", "ας\u0301"},
		{"a\tb", "ab"},
		{"a\u00a0b", "ab"},
		{"a\u200db", "ab"},
		{"1\ufe0f\u20e3 keycap", "1\ufe0f\u20e3-keycap"},
		{"٣ Ⅻ ²", "٣-ⅻ-"},
		{"en–dash ‿tie", "endash-‿tie"},
		{" lead trail ", "-lead-trail-"},
		{"a\u3000b", "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, taskdoc.Slug(tt.in))
		})
	}
}

func TestOutlineAnchorsRepeatLikeGitHub(t *testing.T) {
	src := "# Setup\n\n## Setup\n\n## Setup-1\n\n### Setup\n"
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(t, err)
	var slugs []string
	for _, h := range doc.Headings {
		slugs = append(slugs, h.Slug)
	}
	// "Setup-1" is taken by the third heading, so the fourth skips it.
	assert.Equal(t, []string{"setup", "setup-1", "setup-1-1", "setup-2"}, slugs)
}

func TestParseStatus(t *testing.T) {
	for in, want := range map[string]taskdoc.Status{
		"pending": taskdoc.StatusPending, " In_Progress ": taskdoc.StatusInProgress,
		"COMPLETED": taskdoc.StatusCompleted, "blocked\n": taskdoc.StatusBlocked,
	} {
		got, err := taskdoc.ParseStatus(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "done", "in progress", "pending!"} {
		_, err := taskdoc.ParseStatus(in)
		assert.Equal(t, taskdoc.CodeUnknownStatus, taskdoc.CodeOf(err), in)
	}
}

func TestParseAddress(t *testing.T) {
	valid := []struct {
		in   string
		want taskdoc.Address
	}{
		{"/api/auth.md#implement-jwt-signing", taskdoc.Address{Path: "/api/auth.md", Slug: "implement-jwt-signing"}},
		{"/api/auth.md", taskdoc.Address{Path: "/api/auth.md"}},
		{"api/auth.md#x", taskdoc.Address{Path: "/api/auth.md", Slug: "x"}},
		{"/coordinator/active.md", taskdoc.Address{Path: "/coordinator/active.md"}},
		{"/docs/café.md#café-über", taskdoc.Address{Path: "/docs/café.md", Slug: "café-über"}},
	}
	for _, tt := range valid {
		got, err := taskdoc.ParseAddress(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		assert.Equal(t, tt.want.String(), got.String())
	}
	invalid := []string{
		"", "   ", "/api/auth.md#", "/api/../auth.md", "/../../etc/evil.md", "/./auth.md",
		"/api//auth.md", "/api/auth.md/", `\api\auth.md`, "/api/auth\x00.md", "/api/auth.txt",
		"/api/auth", "/.md", "/api/auth.md#a#b", "/api/auth.md#a b", "/api/a\xffb.md",
	}
	for _, in := range invalid {
		_, err := taskdoc.ParseAddress(in)
		assert.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err), "%q", in)
	}
}

func TestTitleFromPathAndNewDocument(t *testing.T) {
	assert.Equal(t, "User Management", taskdoc.TitleFromPath("/api/user-management.md"))
	assert.Equal(t, "Jwt Spec V2", taskdoc.TitleFromPath("specs/jwt_spec--v2.md"))
	assert.Equal(t, "Élan", taskdoc.TitleFromPath("/élan.md"))
	assert.Equal(t, "# User Management\n\n## Tasks\n", string(taskdoc.NewDocument("User Management")))
	assert.Equal(t, "# A B\n\n## Tasks\n", string(taskdoc.NewDocument("A\nB")))

	doc, err := taskdoc.Parse(taskdoc.NewDocument("Auth"))
	require.NoError(t, err)
	assert.Equal(t, "Auth", doc.Title())
	require.NotNil(t, doc.TasksHeading)
	assert.Empty(t, doc.Tasks)
}

const sampleDoc = `---
title: Auth
---
# Authentication

## Notes

### Setup

- Status: completed

## Tasks

Work left before shipping.

### Setup

- Status: pending
- Workflow: tdd-incremental-orchestration
- owner: ana

Implement token signing, see @/specs/jwt-spec.md, @/specs/jwt-spec.md#keys
and (@/specs/keys.md). Not a reference: mail@/x.md or @/notes.txt.

- ## A listed heading

#### Details

` + "```" + `
### not a task
` + "```" + `

### Add API: auth & tokens!

**Status:** completed

Validate.

* Completed: 2026-01-02
* Note: done

## Appendix
`

func TestParseTasks(t *testing.T) {
	doc, err := taskdoc.Parse([]byte(sampleDoc))
	require.NoError(t, err)
	assert.Equal(t, "yaml", doc.FrontMatter.Format)
	assert.Equal(t, "---\ntitle: Auth\n---\n", string(doc.FrontMatter.Raw))
	assert.Equal(t, map[string]any{"title": "Auth"}, doc.FrontMatter.Values)
	assert.Equal(t, "Authentication", doc.Title())
	require.NotNil(t, doc.TasksHeading)
	assert.Equal(t, "tasks", doc.TasksHeading.Slug)
	require.Len(t, doc.Tasks, 2)

	setup := doc.Tasks[0]
	assert.Equal(t, "Setup", setup.Title)
	assert.Equal(t, "setup", setup.Slug)
	assert.Equal(t, 3, setup.Level)
	assert.Equal(t, 16, setup.Line)
	assert.Equal(t, taskdoc.StatusPending, setup.Status)
	var keys []string
	for _, f := range setup.Fields {
		keys = append(keys, f.Key+"="+f.Value)
		assert.Equal(t, "- "+f.Key+": "+f.Value+"\n", sampleDoc[f.Span.Start:f.Span.End])
	}
	assert.Equal(t, []string{"Status=pending", "Workflow=tdd-incremental-orchestration", "owner=ana"}, keys)
	owner, ok := setup.Field("OWNER")
	assert.True(t, ok)
	assert.Equal(t, "ana", owner)
	assert.Equal(t, []taskdoc.Reference{
		{Raw: "@/specs/jwt-spec.md", Path: "/specs/jwt-spec.md"},
		{Raw: "@/specs/jwt-spec.md#keys", Path: "/specs/jwt-spec.md", Section: "keys"},
		{Raw: "@/specs/keys.md", Path: "/specs/keys.md"},
	}, setup.References)
	assert.Contains(t, setup.Body, "#### Details")
	assert.Contains(t, setup.Body, "### not a task")
	assert.Equal(t, "### Setup\n", sampleDoc[setup.HeadingSpan.Start:setup.HeadingSpan.End])

	api := doc.Tasks[1]
	assert.Equal(t, "add-api-auth--tokens", api.Slug)
	assert.Equal(t, taskdoc.StatusCompleted, api.Status)
	assert.Equal(t, "Validate.", api.Body)
	note, _ := api.Field("note")
	assert.Equal(t, "done", note)
	assert.Equal(t, "- Status: completed\n- Completed: 2026-01-02\n- Note: done\n\nValidate.", api.Content())
	assert.Equal(t, setup.Span.End, api.Span.Start)
	assert.Equal(t, doc.TasksSpan.End, api.Span.End)
	assert.Equal(t, "## Appendix\n", sampleDoc[doc.TasksSpan.End:])
}

func TestParseOutline(t *testing.T) {
	doc, err := taskdoc.Parse([]byte(sampleDoc))
	require.NoError(t, err)
	type h struct {
		Level int
		Slug  string
		Top   bool
	}
	var got []h
	for _, x := range doc.Headings {
		got = append(got, h{x.Level, x.Slug, x.TopLevel})
	}
	assert.Equal(t, []h{
		{1, "authentication", true}, {2, "notes", true}, {3, "setup", true}, {2, "tasks", true},
		{3, "setup-1", true}, {2, "a-listed-heading", false}, {4, "details", true},
		{3, "add-api-auth--tokens", true}, {2, "appendix", true},
	}, got)
	section, ok := doc.Section("setup-1")
	require.True(t, ok)
	assert.Contains(t, section, "#### Details")
	assert.NotContains(t, section, "Add API")
	notes, ok := doc.Section("notes")
	require.True(t, ok)
	assert.Equal(t, "## Notes\n\n### Setup\n\n- Status: completed\n", notes)
	_, ok = doc.Section("missing")
	assert.False(t, ok)
}

func TestParseAwkwardInputs(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		tasks []string
	}{
		{"empty", "", nil},
		{"tasks heading only, no newline", "## Tasks", nil},
		{"setext", "Doc\n===\n\nTasks\n=====\n\nOne\n---\n\nTwo\n---\n", []string{"one", "two"}},
		{"closing hashes", "### Tasks ###\n\n#### One ####\n", []string{"one"}},
		{"tasks in a quote are not a section", "> ## Tasks\n>\n> ### One\n", nil},
		{"first Tasks heading wins", "## Tasks\n\n### A\n\n## tasks\n\n### B\n", []string{"a"}},
		{"bom and crlf", "\ufeff## Tasks\r\n\r\n### A\r\n- Status: blocked\r\n", []string{"a"}},
		{"html block hides a task", "## Tasks\n\n<!--\n### Hidden\n-->\n\n### Shown\n", []string{"shown"}},
		{"unclosed fence swallows", "## Tasks\n\n### A\n\n```\n### B\n", []string{"a"}},
		{"unclosed front matter is markdown", "---\n## Tasks\n\n### A\n", []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(tt.src))
			require.NoError(t, err)
			var slugs []string
			for _, task := range doc.Tasks {
				slugs = append(slugs, task.Slug)
			}
			assert.Equal(t, tt.tasks, slugs)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		code         taskdoc.Code
		line, column int
		offset       int
		excerpt      string
	}{
		{"invalid UTF-8", "# A\n\n## Tasks\n\n### Caf\xe9\n", taskdoc.CodeInvalidUTF8, 5, 8, 22, "### Caf\xe9"},
		{"invalid UTF-8 first byte", "\xff", taskdoc.CodeInvalidUTF8, 1, 1, 0, "\xff"},
		{"invalid UTF-8 after lone CRs", "# A\r\r  x \xc3\x28\r", taskdoc.CodeInvalidUTF8, 3, 5, 9, "x \xc3("},
		// The decoder's line 1 is the document's line 2, under "---".
		{"bad yaml front matter", "---\nkey: [unclosed\n---\n# A\n", taskdoc.CodeParse, 2, 1, 4, "key: [unclosed"},
		{"bad yaml on a later line", "\ufeff---\r\na: 1\r\nb: :\r\n---\r\n", taskdoc.CodeParse, 3, 1, 14, "b: :"},
		{"yaml ends too early", "---\nx: 1\ny: \"abc\n---\n", taskdoc.CodeParse, 4, 1, 17, "---"},
		{"bad toml front matter", "+++\na = 1\na = 2\n+++\n", taskdoc.CodeParse, 3, 1, 10, "a = 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := taskdoc.Parse([]byte(tt.src))
			if tt.code == taskdoc.CodeParse {
				// Front matter that does not decode is kept, and reported
				// in FrontMatter.Err, where ParseFrontMatter's error is.
				require.NoError(t, err)
				fm, fmErr := taskdoc.ParseFrontMatter([]byte(tt.src))
				require.Equal(t, fm.Err, fmErr)
				require.Equal(t, fm, doc.FrontMatter)
				err, doc = doc.FrontMatter.Err, nil
			}
			require.Nil(t, doc)
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code)
			assert.Equal(t, tt.line, e.Line)
			assert.Equal(t, tt.column, e.Column)
			assert.Equal(t, tt.offset, e.Offset)
			assert.Equal(t, tt.excerpt, e.Excerpt)
			assert.Contains(t, e.Error(), fmt.Sprintf("(line %d, column %d: %q)", tt.line, tt.column, tt.excerpt))
		})
	}
}

func TestRepeatedTitleIsAmbiguousNotFatal(t *testing.T) {
	src := "## Tasks\n\n### Same\n\nOne.\n\n### same!\n\nTwo.\n\n### Other\n"
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(t, err)
	require.Len(t, doc.Tasks, 3)
	_, err = doc.Task("same")
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, taskdoc.CodeDuplicateTask, e.Code)
	assert.Equal(t, 7, e.Line)
	assert.Contains(t, e.Msg, "lines 3, 7")
	nd, task, err := doc.Complete("same", "n", goldenDate)
	requireTypedError(t, err, nd)
	assert.Nil(t, task)
	assert.ErrorIs(t, err, taskdoc.ErrDuplicateTask)

	nd, task, err = doc.SetStatus("other", taskdoc.StatusBlocked)
	require.NoError(t, err)
	assertEditProperty(t, doc.Source, nd, task, "other")
	_, _, err = doc.AddTask(taskdoc.NewTask{Title: "Same"})
	assert.ErrorIs(t, err, taskdoc.ErrDuplicateTask)
	_, err = doc.Task("missing")
	require.ErrorAs(t, err, &e)
	assert.Equal(t, []string{"same", "other"}, e.Available)
}

func TestTaskNotFoundListsAvailable(t *testing.T) {
	doc, err := taskdoc.Parse([]byte(sampleDoc))
	require.NoError(t, err)
	_, err = doc.Task("nope")
	require.ErrorIs(t, err, taskdoc.ErrTaskNotFound)
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "nope", e.Slug)
	assert.Equal(t, []string{"setup", "add-api-auth--tokens"}, e.Available)
}

func TestParseTOMLFrontMatterAndBOM(t *testing.T) {
	src := "\ufeff+++\r\ntitle = \"Billing\"\r\ndraft = false\r\n+++\r\n# Billing\r\n\r\n## Tasks\r\n\r\n### Charge\r\n"
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(t, err)
	assert.Equal(t, "toml", doc.FrontMatter.Format)
	assert.Equal(t, "+++\r\ntitle = \"Billing\"\r\ndraft = false\r\n+++\r\n", string(doc.FrontMatter.Raw))
	assert.Equal(t, map[string]any{"title": "Billing", "draft": false}, doc.FrontMatter.Values)
	assert.Equal(t, "\r\n", doc.Newline)
	assert.Equal(t, "Billing", doc.Title())
	require.Len(t, doc.Tasks, 1)
	assert.Equal(t, 9, doc.Tasks[0].Line)
	assert.Equal(t, "### Charge\r\n", src[doc.Tasks[0].HeadingSpan.Start:doc.Tasks[0].HeadingSpan.End])
}
