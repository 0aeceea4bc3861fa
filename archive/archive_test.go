package archive_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/archive"
	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

var (
	bg  = context.Background()
	now = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
)

const (
	finishedList = "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: completed\n- Main-Workflow: m\n- Completed: 2026-11-22\n- Note: done\n"
	openList     = "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: completed\n- Main-Workflow: m\n- Note: done\n\n### b\n\n- Status: in_progress\n"
)

func newWorkspace(t *testing.T, files map[string]string) (*workspace.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		writeFile(t, root, name, text)
	}
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws, root
}

func writeFile(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
}

func readFile(t *testing.T, root, name string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	require.NoError(t, err)
	return string(data), true
}

// filesUnder lists the files below dir, root-relative and sorted.
func filesUnder(t *testing.T, root, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	require.NoError(t, err)
	sort.Strings(names)
	return names
}

func requireCode(t *testing.T, err error, code taskdoc.Code) {
	t.Helper()
	require.Error(t, err)
	require.Equalf(t, code, taskdoc.CodeOf(err), "error: %v", err)
}

func TestCoordinatorMovesTheListByteForByte(t *testing.T) {
	ws, root := newWorkspace(t, map[string]string{coordinator.File: openList})
	name, err := archive.Coordinator(bg, ws, now.In(time.FixedZone("CET", 3600)))
	require.NoError(t, err)
	assert.Equal(t, "archived/coordinator/active-2026-11-22-093000.md", name, "named in UTC")
	text, ok := readFile(t, root, name)
	require.True(t, ok)
	assert.Equal(t, openList, text, "an unfinished list can be archived by hand")
	_, ok = readFile(t, root, coordinator.File)
	assert.False(t, ok)
}

// TestCoordinatorSameSecond: archives made in the same second never
// overwrite each other.
func TestCoordinatorSameSecond(t *testing.T) {
	ws, root := newWorkspace(t, nil)
	var names []string
	for i := range 4 {
		// Different bytes each time, so no archive is taken for another's copy.
		writeFile(t, root, coordinator.File, openList+strings.Repeat("\nmore\n", i))
		name, err := archive.Coordinator(bg, ws, now)
		require.NoError(t, err)
		names = append(names, name)
	}
	assert.Equal(t, []string{
		"archived/coordinator/active-2026-11-22-093000.md",
		"archived/coordinator/active-2026-11-22-093000-2.md",
		"archived/coordinator/active-2026-11-22-093000-3.md",
		"archived/coordinator/active-2026-11-22-093000-4.md",
	}, names)
	for i, name := range names {
		text, _ := readFile(t, root, name)
		assert.Equal(t, openList+strings.Repeat("\nmore\n", i), text, name)
	}
}

func TestCoordinatorWithoutList(t *testing.T) {
	ws, root := newWorkspace(t, nil)
	_, err := archive.Coordinator(bg, ws, now)
	requireCode(t, err, taskdoc.CodeDocumentNotFound)
	assert.Empty(t, filesUnder(t, root, "archived"))
}

func TestRecover(t *testing.T) {
	earlier := "archived/coordinator/active-2026-11-21-170000.md"
	tests := []struct {
		name       string
		files      map[string]string
		wantActive bool
		wantFiles  int // archives afterwards
	}{
		{"no list", nil, false, 0},
		{"work left", map[string]string{coordinator.File: openList}, true, 0},
		{"no tasks", map[string]string{coordinator.File: "# Coordinator Tasks\n\n## Tasks\n"}, true, 0},
		{"unparsable list", map[string]string{coordinator.File: "# Tasks\n\n\xff\n"}, true, 0},
		{"finished, copy made", map[string]string{coordinator.File: finishedList, earlier: finishedList}, false, 1},
		{"finished, no copy", map[string]string{coordinator.File: finishedList}, false, 1},
		{"finished, other archives differ", map[string]string{coordinator.File: finishedList, earlier: openList}, false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, root := newWorkspace(t, tt.files)
			before, _ := readFile(t, root, coordinator.File)
			require.NoError(t, archive.Recover(bg, ws))
			after, active := readFile(t, root, coordinator.File)
			assert.Equal(t, tt.wantActive, active)
			if active {
				assert.Equal(t, before, after, "left alone")
			}
			archived := filesUnder(t, root, "archived/coordinator")
			assert.Len(t, archived, tt.wantFiles)
			if tt.files[coordinator.File] == finishedList {
				found := 0
				for _, name := range archived {
					if text, _ := readFile(t, root, name); text == finishedList {
						found++
					}
				}
				assert.Equal(t, 1, found, "the finished list is archived exactly once")
			}
			require.NoError(t, archive.Recover(bg, ws), "recovering twice is harmless")
			assert.Equal(t, archived, filesUnder(t, root, "archived/coordinator"))
		})
	}
}

func TestList(t *testing.T) {
	ws, _ := newWorkspace(t, map[string]string{
		"archived/coordinator/active-2026-11-21-170000.md":   "a",
		"archived/coordinator/active-2026-11-22-093000.md":   "b",
		"archived/coordinator/active-2026-11-22-093000-2.md": "c",
		"archived/coordinator/active-2026-11-22-093000-3.md": "d",
		"archived/coordinator/active-2025-01-01-000000.md":   "e",
		"archived/coordinator/notes.md":                      "not an archive",
		"archived/coordinator/active-2026-11-22-093000-1.md": "not written by archive",
		"archived/coordinator/active-2026-13-22-093000.md":   "no such month",
	})
	entries, err := archive.List(bg, ws)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimPrefix(e.Name, "archived/coordinator/"))
	}
	assert.Equal(t, []string{
		"active-2026-11-22-093000-3.md",
		"active-2026-11-22-093000-2.md",
		"active-2026-11-22-093000.md",
		"active-2026-11-21-170000.md",
		"active-2025-01-01-000000.md",
	}, names)
	assert.Equal(t, now, entries[0].Time)
	assert.Equal(t, time.UTC, entries[0].Time.Location())

	empty, err := archive.List(bg, newWS(t))
	require.NoError(t, err)
	assert.Empty(t, empty)
}

func newWS(t *testing.T) *workspace.Workspace {
	ws, _ := newWorkspace(t, nil)
	return ws
}

func TestRead(t *testing.T) {
	ws, _ := newWorkspace(t, map[string]string{
		"archived/coordinator/active-2026-11-22-093000.md": "list",
		"archived/docs/api/auth.md":                        "doc",
		coordinator.File:                                   openList,
		"docs/secret.md":                                   "not archived",
	})
	tests := []struct {
		name string
		want string
		code taskdoc.Code
	}{
		{"archived/coordinator/active-2026-11-22-093000.md", "list", ""},
		{"/archived/coordinator/active-2026-11-22-093000.md", "list", ""},
		{"archived/docs/api/auth.md", "doc", ""},
		{"archived/coordinator/active-2000-01-01-000000.md", "", taskdoc.CodeDocumentNotFound},
		{coordinator.File, "", taskdoc.CodeInvalidAddress},
		{"docs/secret.md", "", taskdoc.CodeInvalidAddress},
		{"archived/../docs/secret.md", "", taskdoc.CodeInvalidAddress},
		{"archived/./docs/api/auth.md", "", taskdoc.CodeInvalidAddress},
		{"../archived/docs/api/auth.md", "", taskdoc.CodeInvalidAddress},
		{"archived/", "", taskdoc.CodeInvalidAddress},
		{"archived", "", taskdoc.CodeInvalidAddress},
		{"", "", taskdoc.CodeInvalidAddress},
		{"archived\\docs\\api\\auth.md", "", taskdoc.CodeInvalidAddress},
	}
	for _, tt := range tests {
		data, err := archive.Read(bg, ws, tt.name)
		if tt.code != "" {
			requireCode(t, err, tt.code)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, string(data), tt.name)
	}
}

func TestDocument(t *testing.T) {
	const auth = "---\ntitle: Auth\n---\n# Auth\n\n## Tasks\n\n### Sign\n\n+ Status: pending\n"
	ws, root := newWorkspace(t, map[string]string{"docs/api/auth.md": auth})

	name, err := archive.Document(bg, ws, "/api/auth.md")
	require.NoError(t, err)
	assert.Equal(t, "archived/docs/api/auth.md", name)
	text, _ := readFile(t, root, name)
	assert.Equal(t, auth, text, "moved byte for byte")
	_, ok := readFile(t, root, "docs/api/auth.md")
	assert.False(t, ok)

	// A new document at the same path archives beside the first.
	writeFile(t, root, "docs/api/auth.md", auth+"\n### Verify\n")
	name, err = archive.Document(bg, ws, "/api/auth.md")
	require.NoError(t, err)
	assert.Equal(t, "archived/docs/api/auth-2.md", name)
	assert.Equal(t, []string{"archived/docs/api/auth-2.md", "archived/docs/api/auth.md"}, filesUnder(t, root, "archived"))
}

// TestDocumentAfterCrash: a crash after the copy left both files; archiving
// again removes the document and keeps the one copy.
func TestDocumentAfterCrash(t *testing.T) {
	ws, root := newWorkspace(t, map[string]string{
		"docs/api/auth.md":            "v2",
		"archived/docs/api/auth.md":   "v1",
		"archived/docs/api/auth-2.md": "v2",
	})
	name, err := archive.Document(bg, ws, "/api/auth.md")
	require.NoError(t, err)
	assert.Equal(t, "archived/docs/api/auth-2.md", name)
	assert.Equal(t, []string{"archived/docs/api/auth-2.md", "archived/docs/api/auth.md"}, filesUnder(t, root, "archived"))
	_, ok := readFile(t, root, "docs/api/auth.md")
	assert.False(t, ok)
}

func TestDocumentRefusals(t *testing.T) {
	files := map[string]string{"docs/api/auth.md": "# Auth\n", coordinator.File: openList}
	tests := []struct {
		document string
		code     taskdoc.Code
	}{
		{"/api/auth.md#sign", taskdoc.CodeInvalidAddress},
		{"/coordinator/active.md", taskdoc.CodeInvalidAddress},
		{"/archived/docs/api/auth.md", taskdoc.CodeInvalidAddress},
		{"/../../etc/passwd.md", taskdoc.CodeInvalidAddress},
		{"/api/auth.txt", taskdoc.CodeInvalidAddress},
		{"", taskdoc.CodeInvalidAddress},
		{"/api/missing.md", taskdoc.CodeDocumentNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.document, func(t *testing.T) {
			ws, root := newWorkspace(t, files)
			_, err := archive.Document(bg, ws, tt.document)
			requireCode(t, err, tt.code)
			assert.Empty(t, filesUnder(t, root, "archived"))
			text, _ := readFile(t, root, "docs/api/auth.md")
			assert.Equal(t, "# Auth\n", text)
		})
	}
}

func TestFinished(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{finishedList, true},
		{openList, false},
		{"# Coordinator Tasks\n\n## Tasks\n", false},
		{"# Notes\n", false},
	} {
		doc, err := taskdoc.Parse([]byte(tt.text))
		require.NoError(t, err)
		assert.Equal(t, tt.want, coordinator.Finished(doc), tt.text)
	}
}

// TestCoordinatorAfterCrash: a crash after the copy of an unfinished list
// left both files; archiving again keeps the one copy.
func TestCoordinatorAfterCrash(t *testing.T) {
	copyName := "archived/coordinator/active-2026-11-21-170000.md"
	ws, root := newWorkspace(t, map[string]string{coordinator.File: openList, copyName: openList})
	require.NoError(t, archive.Recover(bg, ws))
	_, active := readFile(t, root, coordinator.File)
	require.True(t, active, "Recover leaves a list with work left alone")
	name, err := archive.Coordinator(bg, ws, now)
	require.NoError(t, err)
	assert.Equal(t, copyName, name)
	assert.Equal(t, []string{copyName}, filesUnder(t, root, "archived/coordinator"))
	_, active = readFile(t, root, coordinator.File)
	assert.False(t, active)
}
