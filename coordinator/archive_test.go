package coordinator_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// unfinishedList is a coordinator list with work left: archived only by
// hand (Archive), never by Recover.
const unfinishedList = "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: completed\n- Main-Workflow: m\n- Note: done\n\n### b\n\n- Status: in_progress\n"

func archiveWorkspaceAt(t *testing.T, files map[string]string) (*workspace.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	filetest.WriteAll(t, root, files)
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws, root
}

func archiveWorkspace(t *testing.T, files map[string]string) *workspace.Workspace {
	ws, _ := archiveWorkspaceAt(t, files)
	return ws
}

// archiveAt archives the list of ws by hand (List.Archive) at now.
func archiveAt(ws *workspace.Workspace, now time.Time) (string, error) {
	return coordinator.New(ws, coordinator.WithClock(func() time.Time { return now })).Archive(bg)
}

func TestArchiveMovesTheListByteForByte(t *testing.T) {
	ws, root := archiveWorkspaceAt(t, map[string]string{coordinator.File: unfinishedList})
	name, err := archiveAt(ws, fixedNow.In(time.FixedZone("CET", 3600)))
	require.NoError(t, err)
	assert.Equal(t, "archived/coordinator/active-2026-11-22-093000.md", name, "named in UTC")
	text, ok := readFile(t, root, name)
	require.True(t, ok)
	assert.Equal(t, unfinishedList, text, "an unfinished list can be archived by hand")
	_, ok = readFile(t, root, coordinator.File)
	assert.False(t, ok)
}

// TestArchiveSameSecond: archives made in the same second never
// overwrite each other.
func TestArchiveSameSecond(t *testing.T) {
	ws, root := archiveWorkspaceAt(t, nil)
	var names []string
	for i := range 4 {
		// Different bytes each time, so no archive is taken for another's copy.
		filetest.Write(t, root, coordinator.File, unfinishedList+strings.Repeat("\nmore\n", i))
		name, err := archiveAt(ws, fixedNow)
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
		assert.Equal(t, unfinishedList+strings.Repeat("\nmore\n", i), text, name)
	}
}

func TestArchiveWithoutList(t *testing.T) {
	ws, root := archiveWorkspaceAt(t, nil)
	_, err := archiveAt(ws, fixedNow)
	requireCode(t, err, taskdoc.CodeDocumentNotFound)
	assert.Empty(t, filetest.Under(t, root, "archived"))
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
		{"work left", map[string]string{coordinator.File: unfinishedList}, true, 0},
		{"no tasks", map[string]string{coordinator.File: "# Coordinator Tasks\n\n## Tasks\n"}, true, 0},
		{"unparsable list", map[string]string{coordinator.File: "# Tasks\n\n\xff\n"}, true, 0},
		{"finished, copy made", map[string]string{coordinator.File: finishedList, earlier: finishedList}, false, 1},
		{"finished, no copy", map[string]string{coordinator.File: finishedList}, false, 1},
		{"finished, other archives differ", map[string]string{coordinator.File: finishedList, earlier: unfinishedList}, false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, root := archiveWorkspaceAt(t, tt.files)
			before, _ := readFile(t, root, coordinator.File)
			require.NoError(t, coordinator.New(ws).Recover(bg))
			after, active := readFile(t, root, coordinator.File)
			assert.Equal(t, tt.wantActive, active)
			if active {
				assert.Equal(t, before, after, "left alone")
			}
			archived := filetest.Under(t, root, "archived/coordinator")
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
			require.NoError(t, coordinator.New(ws).Recover(bg), "recovering twice is harmless")
			assert.Equal(t, archived, filetest.Under(t, root, "archived/coordinator"))
		})
	}
}

func TestArchives(t *testing.T) {
	ws, _ := archiveWorkspaceAt(t, map[string]string{
		"archived/coordinator/active-2026-11-21-170000.md":   "a",
		"archived/coordinator/active-2026-11-22-093000.md":   "b",
		"archived/coordinator/active-2026-11-22-093000-2.md": "c",
		"archived/coordinator/active-2026-11-22-093000-3.md": "d",
		"archived/coordinator/active-2025-01-01-000000.md":   "e",
		"archived/coordinator/notes.md":                      "not an archive",
		"archived/coordinator/active-2026-11-22-093000-1.md": "not written by archive",
		"archived/coordinator/active-2026-13-22-093000.md":   "no such month",
	})
	entries, err := coordinator.New(ws).Archives(bg)
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
	assert.Equal(t, fixedNow, entries[0].Time)
	assert.Equal(t, time.UTC, entries[0].Time.Location())

	empty, err := coordinator.New(archiveWorkspace(t, nil)).Archives(bg)
	require.NoError(t, err)
	assert.Empty(t, empty)
}

func TestFinished(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{finishedList, true},
		{unfinishedList, false},
		{"# Coordinator Tasks\n\n## Tasks\n", false},
		{"# Notes\n", false},
	} {
		doc, err := taskdoc.Parse([]byte(tt.text))
		require.NoError(t, err)
		assert.Equal(t, tt.want, coordinator.Finished(doc), tt.text)
	}
}

// TestArchiveAfterCrash: a crash after the copy of an unfinished list
// left both files; archiving again keeps the one copy.
func TestArchiveAfterCrash(t *testing.T) {
	copyName := "archived/coordinator/active-2026-11-21-170000.md"
	ws, root := archiveWorkspaceAt(t, map[string]string{coordinator.File: unfinishedList, copyName: unfinishedList})
	require.NoError(t, coordinator.New(ws).Recover(bg))
	_, active := readFile(t, root, coordinator.File)
	require.True(t, active, "Recover leaves a list with work left alone")
	name, err := archiveAt(ws, fixedNow)
	require.NoError(t, err)
	assert.Equal(t, copyName, name)
	assert.Equal(t, []string{copyName}, filetest.Under(t, root, "archived/coordinator"))
	_, active = readFile(t, root, coordinator.File)
	assert.False(t, active)
}

// Several Workspace values (as several processes would) recovering one
// finished list at once make exactly one archive and report no error.
func TestConcurrentRecover(t *testing.T) {
	_, root := archiveWorkspaceAt(t, map[string]string{coordinator.File: finishedList})
	var wg sync.WaitGroup
	for range 8 {
		ws, err := workspace.Open(root)
		require.NoError(t, err)
		defer ws.Close()
		wg.Go(func() { assert.NoError(t, coordinator.New(ws).Recover(bg)) })
	}
	wg.Wait()
	_, active := readFile(t, root, coordinator.File)
	assert.False(t, active)
	archived := filetest.Under(t, root, "archived/coordinator")
	require.Len(t, archived, 1)
	text, _ := readFile(t, root, archived[0])
	assert.Equal(t, finishedList, text)
}

// A person (or a tool that takes no lock) may save the original while its
// archive copy is being written. Removing the original then would lose that
// edit, so it must be kept and the operation must report CONFLICT.
func TestEditDuringArchiveIsKept(t *testing.T) {
	const edited = "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: completed\n- Main-Workflow: m\n\n### added by hand\n"
	tests := []struct {
		name   string
		source string // root-relative original
		text   string
		run    func(ws *workspace.Workspace) error
	}{
		{"coordinator", coordinator.File, finishedList, func(ws *workspace.Workspace) error {
			_, err := archiveAt(ws, fixedNow)
			return err
		}},
		{"recover", coordinator.File, finishedList, func(ws *workspace.Workspace) error {
			return coordinator.New(ws).Recover(bg)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, root := archiveWorkspaceAt(t, map[string]string{tt.source: tt.text})
			hooks.BeforeRemoveUnchanged = func() { filetest.Write(t, root, tt.source, edited) }
			defer func() { hooks.BeforeRemoveUnchanged = func() {} }()

			err := tt.run(ws)
			requireCode(t, err, taskdoc.CodeConflict)
			got, ok := readFile(t, root, tt.source)
			require.True(t, ok, "the edited original was removed")
			assert.Equal(t, edited, got)
			copies := filetest.Under(t, root, "archived")
			require.Len(t, copies, 1)
			archived, _ := readFile(t, root, copies[0])
			assert.Equal(t, tt.text, archived, "the archive holds the version before the edit")
		})
	}
}

// A file that cannot be read where archives live must not stop the list
// from being archived (Recover runs before every coordinator operation).
func TestUnreadableArchivesArePassedOver(t *testing.T) {
	broken := "archived/coordinator/active-2026-11-21-170000.md"
	ws, root := archiveWorkspaceAt(t, map[string]string{coordinator.File: finishedList, broken: "# Broken \xff\n"})
	require.NoError(t, coordinator.New(ws).Recover(bg))
	_, active := readFile(t, root, coordinator.File)
	assert.False(t, active)
	archived := filetest.Under(t, root, "archived/coordinator")
	require.Len(t, archived, 2)
	text, _ := readFile(t, root, archived[1])
	assert.Equal(t, finishedList, text)
}

// Archive a coordinator list by hand twice in the same second, then list
// the archives and read the newest.
func ExampleList_Archive() {
	root, err := os.MkdirTemp("", "archive-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

	for _, text := range []string{"# Coordinator Tasks\n\nfirst list\n", "# Coordinator Tasks\n\nsecond list\n"} {
		if err := os.MkdirAll(filepath.Join(root, "coordinator"), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "coordinator", "active.md"), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
		list := coordinator.New(ws, coordinator.WithClock(func() time.Time { return now }))
		name, err := list.Archive(ctx)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("archived to", name)
	}

	entries, err := coordinator.New(ws).Archives(ctx)
	if err != nil {
		log.Fatal(err)
	}
	newest, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(entries[0].Name)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("newest of %d: %s, %q\n", len(entries), entries[0].Time.Format(time.DateTime), newest[len(newest)-12:])
	// Output:
	// archived to archived/coordinator/active-2026-11-22-093000.md
	// archived to archived/coordinator/active-2026-11-22-093000-2.md
	// newest of 2: 2026-11-22 09:30:00, "second list\n"
}

// A crash left a finished list behind; Recover archives it (every
// operation of the list runs it first).
func ExampleList_Recover() {
	root, err := os.MkdirTemp("", "archive-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	finished := "# Coordinator Tasks\n\n## Tasks\n\n### Plan\n\n- Status: completed\n- Main-Workflow: tdd\n- Completed: 2026-11-22\n- Note: planned\n"
	if err := os.MkdirAll(filepath.Join(root, "coordinator"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "coordinator", "active.md"), []byte(finished), 0o644); err != nil {
		log.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()

	if err := coordinator.New(ws).Recover(ctx); err != nil {
		log.Fatal(err)
	}
	entries, err := coordinator.New(ws).Archives(ctx)
	if err != nil {
		log.Fatal(err)
	}
	_, err = os.Stat(filepath.Join(root, "coordinator", "active.md"))
	fmt.Println(len(entries), "archive; list removed:", os.IsNotExist(err))
	// Output:
	// 1 archive; list removed: true
}

// When completing the last task cannot archive the list (here
// archived/coordinator is a file), the completion is written and the call
// succeeds, saying the archive failed; it never fails after writing.
func TestCompleteLastTaskArchiveFailureAfterWrite(t *testing.T) {
	list, _, root := openList(t, nil)
	_, err := list.Create(bg, first("Only"))
	require.NoError(t, err)
	filetest.Write(t, root, "archived/coordinator", "not a folder\n")
	before := mustRead(t, root, activeFile)

	done, err := list.Complete(bg, "done", coordinator.CompleteOptions{})
	after, _ := readFile(t, root, activeFile)
	if err != nil {
		require.Equal(t, before, after, "Complete failed (%v) but rewrote %s", err, activeFile)
		return
	}
	require.Equal(t, taskdoc.StatusCompleted, done.Task.Status)
	require.Error(t, done.ArchiveError)
	assert.Empty(t, done.ArchivedTo)
	assert.Equal(t, taskdoc.StatusCompleted, statuses(t, root, activeFile)["only"])
}

// An error about an archive file names that file, not the list: a failed
// archive write must not read as "no list".
func TestArchiveErrorKeepsItsPath(t *testing.T) {
	list, _, root := openList(t, map[string]string{
		activeFile:             "# Coordinator Tasks\n\n## Tasks\n\n### A\n\n- Status: completed\n- Main-Workflow: tdd\n- Completed: 2026-11-21\n- Note: n\n\nDo a.\n",
		"archived/coordinator": "not a folder\n",
	})
	_, err := list.Create(bg, first("Next"))
	require.Error(t, err)
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	_, statErr := os.Stat(filepath.Join(root, activeFile))
	require.NoError(t, statErr, "the list exists")
	if e.Code == taskdoc.CodeDocumentNotFound {
		require.NotEqual(t, coordinator.Address, e.Path,
			"%v: the list exists; the missing thing is under %s", err, "archived/coordinator")
	}
}
