package query_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
)

// workspaceFiles is a small workspace: documents in folders whose address
// order differs from the file system's ("/api-v2.md" before "/api/..."),
// the coordinator list, a broken document, and cross-document
// dependencies.
var workspaceFiles = map[string]string{
	"docs/api/auth.md": "# Auth\n\n## Tasks\n\n### Setup keys\n\n- Status: completed\n- Note: done\n\n" +
		"### Sign tokens\n\n- Status: in_progress\n- Workflow: tdd\n- Assignee: ag_1\n- Depends-On: #setup-keys\n\nUse RS256 KEYS.\n\n" +
		"### Verify tokens\n\n- Depends-On: /api/auth.md#sign-tokens\n- Priority: high\n",
	"docs/api/users.md":     "# Users\n\n## Tasks\n\n### List users\n\n- Status: blocked\n- Workflow: tdd\n- Depends-On: /api/auth.md#setup-keys\n\nNeeds auth.\n",
	"docs/api-v2.md":        "# API v2\n\n## Tasks\n\n### Plan v2\n\n- Status: pending\n- priority: High\n",
	"docs/notes.md":         "# Notes\n\nNo tasks here.\n",
	"docs/broken.md":        "# Broken\n\n## Tasks\n\n### Bad\n\x00\xff\n",
	"docs/readme.txt":       "not a document",
	"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Plan release\n\n- Main-Workflow: m\n- Status: in_progress\n- Depends-On: /api/auth.md#setup-keys\n",
	"archived/docs/old.md":  "# Old\n\n## Tasks\n\n### Gone\n",
	"workflows/tdd.md":      "---\ntitle: Test-driven\ndescription: Red, green, refactor\nwhenToUse:\n  - new code\n  - bug fixes\n---\n# TDD\n",
	"workflows/plain.md":    "# Plain\n",
	"workflows/notes.txt":   "not a workflow",
}

func TestDocuments(t *testing.T) {
	ws, _ := newWorkspace(t, workspaceFiles)
	docs, err := query.Documents(bg, ws)
	require.NoError(t, err)
	var addrs []string
	for _, d := range docs {
		addrs = append(addrs, d.Address)
	}
	assert.Equal(t, []string{"/api-v2.md", "/api/auth.md", "/api/users.md", "/broken.md", "/coordinator/active.md", "/notes.md"}, addrs)

	auth := docs[1]
	assert.Equal(t, query.Document{Address: "/api/auth.md", File: "docs/api/auth.md", Title: "Auth", Tasks: 3,
		Counts: map[taskdoc.Status]int{taskdoc.StatusCompleted: 1, taskdoc.StatusInProgress: 1, taskdoc.StatusPending: 1}}, auth)
	assert.Equal(t, query.Document{Address: "/notes.md", File: "docs/notes.md", Title: "Notes", Counts: map[taskdoc.Status]int{}}, docs[5])
	assert.Equal(t, 1, docs[4].Counts[taskdoc.StatusInProgress])

	broken := docs[3]
	assert.Equal(t, "docs/broken.md", broken.File)
	assert.NotEmpty(t, broken.Error)
	assert.Equal(t, taskdoc.CodeInvalidUTF8, broken.Code)
	assert.Zero(t, broken.Tasks)
	assert.NotNil(t, broken.Counts, "a broken document's counts is {}, never null")

	data, err := json.Marshal(auth)
	require.NoError(t, err)
	assert.JSONEq(t, `{"address":"/api/auth.md","file":"docs/api/auth.md","title":"Auth","tasks":3,
		"counts":{"completed":1,"in_progress":1,"pending":1}}`, string(data))
}

func TestDocumentsWithoutList(t *testing.T) {
	ws, _ := newWorkspace(t, map[string]string{"docs/a.md": "# A\n"})
	docs, err := query.Documents(bg, ws)
	require.NoError(t, err)
	require.Len(t, docs, 1)
	empty, _ := newWorkspace(t, nil)
	docs, err = query.Documents(bg, empty)
	require.NoError(t, err)
	assert.Empty(t, docs)
}

func TestFind(t *testing.T) {
	ws, _ := newWorkspace(t, workspaceFiles)
	for _, tt := range []struct {
		name   string
		filter query.Filter
		want   []string
	}{
		{"all", query.Filter{}, []string{"/api-v2.md#plan-v2", "/api/auth.md#setup-keys", "/api/auth.md#sign-tokens",
			"/api/auth.md#verify-tokens", "/api/users.md#list-users", "/coordinator/active.md#plan-release"}},
		{"limit", query.Filter{Limit: 2}, []string{"/api-v2.md#plan-v2", "/api/auth.md#setup-keys"}},
		{"in progress anywhere", query.Filter{Statuses: []taskdoc.Status{" In_Progress "}},
			[]string{"/api/auth.md#sign-tokens", "/coordinator/active.md#plan-release"}},
		{"two statuses", query.Filter{Statuses: []taskdoc.Status{"blocked", "completed"}},
			[]string{"/api/auth.md#setup-keys", "/api/users.md#list-users"}},
		{"one document", query.Filter{Document: "/api/auth.md", Statuses: []taskdoc.Status{"pending"}},
			[]string{"/api/auth.md#verify-tokens"}},
		{"document without leading slash", query.Filter{Document: "api/users.md"}, []string{"/api/users.md#list-users"}},
		{"folder", query.Filter{Document: "/api/"}, []string{"/api/auth.md#setup-keys", "/api/auth.md#sign-tokens",
			"/api/auth.md#verify-tokens", "/api/users.md#list-users"}},
		{"folder is not a name prefix", query.Filter{Document: "/api/", Text: "v2"}, nil},
		{"coordinator folder", query.Filter{Document: "/coordinator/"}, []string{"/coordinator/active.md#plan-release"}},
		{"coordinator list", query.Filter{Document: "/coordinator/active.md"}, []string{"/coordinator/active.md#plan-release"}},
		{"workflow", query.Filter{Workflow: "tdd"}, []string{"/api/auth.md#sign-tokens", "/api/users.md#list-users"}},
		{"holder", query.Filter{Holder: "ag_1"}, []string{"/api/auth.md#sign-tokens"}},
		{"holder nobody", query.Filter{Holder: "ag_2"}, nil},
		{"field key ignores case", query.Filter{Fields: map[string]string{"PRIORITY": "high"}}, []string{"/api/auth.md#verify-tokens"}},
		{"field value is exact", query.Filter{Fields: map[string]string{"priority": "High"}}, []string{"/api-v2.md#plan-v2"}},
		{"text in body ignores case", query.Filter{Text: "rs256 keys"}, []string{"/api/auth.md#sign-tokens"}},
		{"text in title", query.Filter{Text: "TOKENS"}, []string{"/api/auth.md#sign-tokens", "/api/auth.md#verify-tokens"}},
		{"depends on, by #slug and by address", query.Filter{DependsOn: "/api/auth.md#setup-keys"},
			[]string{"/api/auth.md#sign-tokens", "/api/users.md#list-users", "/coordinator/active.md#plan-release"}},
		{"depends on, full address in the same document", query.Filter{DependsOn: "/api/auth.md#sign-tokens"},
			[]string{"/api/auth.md#verify-tokens"}},
		{"depends on, #slug is of its own document", query.Filter{DependsOn: "/api/users.md#setup-keys"}, nil},
		{"conditions combine", query.Filter{Workflow: "tdd", Statuses: []taskdoc.Status{"blocked"}, Document: "/api/"},
			[]string{"/api/users.md#list-users"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := query.Find(bg, ws, tt.filter)
			require.NoError(t, err)
			require.NotNil(t, got)
			var addrs []string
			for _, m := range got {
				addrs = append(addrs, m.Address)
				assert.Equal(t, m.Document+"#"+m.Task.Slug, m.Address)
			}
			assert.Equal(t, tt.want, addrs)
		})
	}
}

func TestFindRefusals(t *testing.T) {
	ws, _ := newWorkspace(t, workspaceFiles)
	for _, tt := range []struct {
		name   string
		filter query.Filter
		code   taskdoc.Code
	}{
		{"unknown status", query.Filter{Statuses: []taskdoc.Status{"done"}}, taskdoc.CodeUnknownStatus},
		{"bad document", query.Filter{Document: "/api/../x.md"}, taskdoc.CodeInvalidAddress},
		{"task as document", query.Filter{Document: "/api/auth.md#sign-tokens"}, taskdoc.CodeInvalidAddress},
		{"bad folder", query.Filter{Document: "/a//"}, taskdoc.CodeInvalidAddress},
		{"not a document", query.Filter{Document: "/api/auth.txt"}, taskdoc.CodeInvalidAddress},
		{"missing document", query.Filter{Document: "/api/none.md"}, taskdoc.CodeDocumentNotFound},
		{"broken document named", query.Filter{Document: "/broken.md"}, taskdoc.CodeInvalidUTF8},
		{"depends on a document", query.Filter{DependsOn: "/api/auth.md"}, taskdoc.CodeInvalidAddress},
		{"depends on #slug alone", query.Filter{DependsOn: "#setup-keys"}, taskdoc.CodeInvalidAddress},
		{"negative limit", query.Filter{Limit: -1}, taskdoc.CodeInvalidArguments},
		{"empty field key", query.Filter{Fields: map[string]string{" ": "x"}}, taskdoc.CodeInvalidArguments},
		{"field value on two lines", query.Filter{Fields: map[string]string{"a": "x\ny"}}, taskdoc.CodeInvalidArguments},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := query.Find(bg, ws, tt.filter)
			requireCode(t, err, tt.code)
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
		})
	}
}

func TestCancelled(t *testing.T) {
	ws, _ := newWorkspace(t, workspaceFiles)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := query.Documents(ctx, ws)
	require.ErrorIs(t, err, context.Canceled)
	_, err = query.Find(ctx, ws, query.Filter{})
	require.ErrorIs(t, err, context.Canceled)
	_, err = query.Find(ctx, ws, query.Filter{Document: "/api/auth.md"})
	require.ErrorIs(t, err, context.Canceled)
	_, err = query.Workflows(ctx, ws)
	require.ErrorIs(t, err, context.Canceled)
}

func TestWorkflows(t *testing.T) {
	ws, root := newWorkspace(t, workspaceFiles)
	filetest.Write(t, root, "workflows/broken.md", "bad \xff")
	got, err := query.Workflows(bg, ws)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "broken", got[0].Name)
	assert.Equal(t, taskdoc.CodeInvalidUTF8, got[0].Code)
	assert.Equal(t, query.Workflow{Name: "plain", File: "workflows/plain.md"}, got[1])
	assert.Equal(t, query.Workflow{Name: "tdd", File: "workflows/tdd.md", Title: "Test-driven",
		Description: "Red, green, refactor", WhenToUse: []string{"new code", "bug fixes"}}, got[2])
	data, err := json.Marshal(got[2])
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"tdd","file":"workflows/tdd.md","title":"Test-driven","description":"Red, green, refactor","when_to_use":["new code","bug fixes"]}`, string(data))

	none, _ := newWorkspace(t, nil)
	got, err = query.Workflows(bg, none)
	require.NoError(t, err)
	assert.Empty(t, got)
}

// A document that does not read, or whose file name is no address, has
// empty counts, {} in JSON and never null, so that a JSON schema that says
// object accepts every Document.
func TestSummariseOfAFailureHasEmptyCounts(t *testing.T) {
	for name, d := range map[string]query.Document{
		"read error":     query.Summarise("docs/a.md", nil, &taskdoc.Error{Code: taskdoc.CodeIO, Msg: "boom"}),
		"not parsed":     query.Summarise("docs/a.md", nil, nil),
		"not an address": query.Summarise("docs/notes#old.md", &taskdoc.Document{}, nil),
	} {
		t.Run(name, func(t *testing.T) {
			require.NotEmpty(t, d.Error)
			require.NotNil(t, d.Counts)
			assert.Empty(t, d.Counts)
			data, err := json.Marshal(d)
			require.NoError(t, err)
			assert.Contains(t, string(data), `"counts":{}`)
		})
	}
}

func TestArchived(t *testing.T) {
	ws, _ := newWorkspace(t, workspaceFiles)
	got, err := query.Archived(bg, ws, "archived/docs")
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, query.Document{Address: "/archived/docs/old.md", File: "archived/docs/old.md", Title: "Old", Tasks: 1,
		Counts: map[taskdoc.Status]int{taskdoc.StatusPending: 1}}, got[0])
	_, err = query.Archived(bg, ws, "docs")
	requireCode(t, err, taskdoc.CodeInvalidAddress)
}

// A link named *.md is listed with SYMLINK_REFUSED, and a linked folder is
// not followed: a query reads nothing through links.
func TestLinksAreNotFollowed(t *testing.T) {
	ws, root := newWorkspace(t, map[string]string{"docs/a.md": "# A\n", "outside/b.md": "# B\n\n## Tasks\n\n### X\n"})
	require.NoError(t, os.Symlink(filepath.Join(root, "outside", "b.md"), filepath.Join(root, "docs", "link.md")))
	require.NoError(t, os.Symlink(filepath.Join(root, "outside"), filepath.Join(root, "docs", "folder")))
	docs, err := query.Documents(bg, ws)
	require.NoError(t, err)
	require.Len(t, docs, 2)
	assert.Equal(t, "/a.md", docs[0].Address)
	assert.Equal(t, "/link.md", docs[1].Address)
	assert.Equal(t, taskdoc.CodeSymlink, docs[1].Code)
	found, err := query.Find(bg, ws, query.Filter{})
	require.NoError(t, err)
	assert.Empty(t, found)
}
